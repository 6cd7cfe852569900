"""The event at a real venue, in headless Chromium: no page wider than a 390 px phone, the
Consolation beside a Main never cut off at 1366 px, full names on the scoreboard, the
tournament page's recent results and player search, tables and the error pages.

Screenshots at 1366 and 390 px of every page these tests touch: test-artifacts/public/venue-*.
"""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match
from tests.browser.scenario import weekend
from tournament.models import Event, Player
from tournament.services.tables import match_table_set, round_tables_assign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390
DESKTOP = 1366
LONG_NAME = "Maximiliane Wolkenstein-Trostburg"


def _scene() -> tuple[Any, dict[str, str]]:
    w = weekend()
    playing = Match.objects.filter(event=w.main, status="playing").select_related("entry1")
    first = playing.first()
    Player.objects.filter(pk=first.entry1.player_id).update(name=LONG_NAME)
    match_table_set(match=first, table=14)
    for rnd in w.main.rounds.filter(status="started"):
        round_tables_assign(round_=rnd)
    t = w.tournament.slug
    finished = Event.objects.get(pk=w.last_chance.pk)
    done = Match.objects.filter(event=finished, round__number=1).select_related("entry1").first()
    player = first.entry1.player_id
    urls = {
        "tournament": f"/t/{t}/",
        "search": f"/t/{t}/players/?q=an",
        "event-main": f"/t/{t}/main/",
        "event-consolation": f"/t/{t}/consolation/",
        "event-swiss": f"/t/{t}/swiss/",
        "scoreboard": f"/t/{t}/scoreboard/",
        "match": f"/matches/{first.pk}/",
        "player": f"/players/{player}/",
        "report-link": f"/r/{first.entry1.report_key}/",
        "draw-log": f"/t/{t}/main/draws/{w.main.draws.first().pk}/",
        "bad-link": "/r/not-a-real-key/",
        "not-found": "/t/no-such-tournament/",
        "print": f"/t/{t}/main/print/?paper=a4",
        "slips": f"/t/{t}/main/slips/?paper=a4",
    }
    Event.objects.filter(pk=finished.pk).update(status=Event.Status.FINISHED)
    urls["finished-link"] = f"/r/{done.entry1.report_key}/"
    return w, urls


#: Sheets of paper on screen: as wide as the paper by design.
PAPER = {"print", "slips"}
#: Pages whose tables fit a phone whole (stacked or wrapped); others scroll in their box.
FIT = {"tournament", "event-swiss", "search", "finished-link", "player"}


def test_pages_fit_a_phone_and_brackets_are_never_cut_off(tab):
    _, urls = _scene()
    desktop = tab(DESKTOP)
    for name, url in urls.items():
        desktop.open(url)
        desktop.shot(f"venue-desktop-{name}")
        if name in PAPER:
            continue
        width = desktop.page.evaluate("document.documentElement.scrollWidth")
        assert width <= DESKTOP, f"{name} is {width}px wide at {DESKTOP}px"

    desktop.open(urls["event-main"])
    boxes = desktop.page.evaluate(
        """() => [...document.querySelectorAll('.bracket-block')].map(b => {
            const r = b.getBoundingClientRect();
            const box = b.closest('.bracket-scroll') || b;
            return {id: b.id, left: r.left, right: r.right,
                    scroll: box.scrollWidth, client: box.clientWidth,
                    overflow: getComputedStyle(box).overflowX};
        })"""
    )
    assert [b["id"] for b in boxes] == [
        "bracket-main",
        "bracket-consolation",
        "bracket-last-chance",
    ]
    for b in boxes:
        assert b["left"] >= 0, b
        assert b["right"] <= DESKTOP, f"{b['id']} is cut off at {DESKTOP}px: {b}"
        if b["scroll"] > b["client"]:  # wider than the screen: it scrolls in its own box
            assert b["overflow"] in ("auto", "scroll"), b

    phone = tab(PHONE, 844)
    for name, url in urls.items():
        phone.open(url)
        phone.shot(f"venue-phone-{name}")
        if name in PAPER:
            continue
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, f"{name} is {width}px wide on a {PHONE}px phone"
        wide = phone.page.evaluate(
            """(limit) => [...document.querySelectorAll('main *')].filter(e => {
                const r = e.getBoundingClientRect();
                if (r.width === 0 || r.right <= limit + 1) return false;
                for (let p = e.parentElement; p; p = p.parentElement) {
                    const o = getComputedStyle(p).overflowX;
                    if (o === 'auto' || o === 'scroll' || o === 'hidden') return false;
                }
                return true;
            }).map(e => e.tagName + '.' + e.className).slice(0, 5)""",
            PHONE,
        )
        assert wide == [], f"{name}: {wide} stick out of a {PHONE}px phone"
        if name in FIT:
            scrolled = phone.page.evaluate(
                """() => [...document.querySelectorAll('main table:not(.standings)')]
                    .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.className)"""
            )
            assert scrolled == [], f"{name}: tables {scrolled} do not fit a {PHONE}px phone"
    assert _unexpected(desktop.errors) == []
    assert _unexpected(phone.errors) == []


def _unexpected(errors: list[str]) -> list[str]:
    """Errors besides the two error pages opened on purpose (a 403 and a 404)."""
    expected = ("not-a-real-key", "no-such-tournament", "status of 403", "status of 404")
    return [e for e in errors if not any(x in e for x in expected)]


def test_scoreboard_shows_full_names_and_tables(tab):
    _, urls = _scene()
    for width in (DESKTOP, PHONE):
        board = tab(width, 900)
        board.open(urls["scoreboard"])
        cut = board.page.evaluate(
            """() => [...document.querySelectorAll('.board-table th')]
                .filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent)"""
        )
        assert cut == [], f"names cut short at {width}px: {cut}"
        text = board.page.inner_text("main")
        assert LONG_NAME in text
        assert "Table 14" in text
        board.shot(f"venue-scoreboard-{width}")


def test_player_search_with_htmx_and_without(tab):
    _, urls = _scene()
    page = tab(DESKTOP)
    page.open(urls["tournament"])
    assert page.page.locator("#recent-h").is_visible()
    page.page.fill("#player-q", "Wolken")
    page.page.wait_for_selector("#player-results li > a:first-child")
    found = page.page.locator("#player-results li > a:first-child").all_inner_texts()
    assert found == [LONG_NAME]
    assert page.page.url.endswith(urls["tournament"])  # htmx: the page stayed
    page.page.click("#player-results li > a:first-child")
    page.page.wait_for_load_state("networkidle")
    assert "/players/" in page.page.url
    assert LONG_NAME in page.page.inner_text("h1")
    page.shot("venue-search-result")

    plain = tab(DESKTOP)
    plain.page.context.set_extra_http_headers({})
    plain.page.route("**/htmx.min.js", lambda route: route.abort())
    plain.open(urls["tournament"])
    plain.page.fill("#player-q", "Wolken")
    plain.page.press("#player-q", "Enter")
    plain.page.wait_for_load_state("networkidle")
    assert "/players/?q=Wolken" in plain.page.url
    assert plain.page.locator("#player-results li > a:first-child").all_inner_texts() == [LONG_NAME]


def test_director_numbers_the_tables_and_sets_one_in_the_console(tab):
    w, _ = _scene()
    t = w.tournament.slug
    Match.objects.filter(event=w.main, status="ready").update(table=None)
    ready = Match.objects.filter(event=w.main, status="ready").order_by("round__number", "slot")
    first = ready.first()
    for width in (DESKTOP, PHONE):
        page = tab(width, 900)
        page.open("/accounts/login/?next=/director/")
        page.page.fill("input[name=username]", "td")
        page.page.fill("input[name=password]", "td-password-1")
        page.page.click("button[type=submit]")
        page.page.wait_for_load_state("networkidle")
        page.open(f"/director/t/{t}/events/main/matches/")
        if width == DESKTOP:
            page.page.click(
                f"#grid form[action$='/rounds/{first.round_id}/tables/'] button[type=submit]"
            )
            page.page.wait_for_load_state("networkidle")
            assert "tables 1, 2 given" in page.page.inner_text(".messages")
        page.shot(f"venue-console-grid-{width}")
        assert "Table 1" in page.page.inner_text("#grid")
        page.open(f"/director/t/{t}/matches/{first.pk}/")
        page.shot(f"venue-console-match-{width}")
        if width == DESKTOP:
            page.page.fill("input[name=table]", "21")
            page.page.click("#table-h ~ form button[type=submit]")
            page.page.wait_for_load_state("networkidle")
            assert "is at table 21" in page.page.inner_text(".messages")
        width_now = page.page.evaluate("document.documentElement.scrollWidth")
        assert width_now <= width, f"console match page is {width_now}px wide at {width}px"
        assert _unexpected(page.errors) == []
    assert Match.objects.get(pk=first.pk).table == 21
