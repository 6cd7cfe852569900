"""The room board on a 1920x1080 screen, in headless Chromium with the site's real CSP:
a 32-player Main mid-round (tables numbered, matches ready, in play and decided, a
round time counting down), nothing overflowing or scrolling, and the board updating
itself when a result comes in. The whole weekend's board, one event's board, and the
director setting the round time from the console.

Screenshots: test-artifacts/public/board-*.png (1920x1080, 1366x768, 1366 and 390 px).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.models import Match
from tests.browser.live import log_in
from tests.browser.scenario import decide, inline_tasks, make_players, report_game, weekend
from tournament.models import Player, Round, User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import round_minutes_set, round_start
from tournament.services.tables import round_tables_assign
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "Maximiliane Wolkenstein-Trostburg"
#: What the board must not do at 1920x1080: scroll, or hide rows in a clipped column.
FITS = """() => {
    const d = document.documentElement;
    const cols = [...document.querySelectorAll('.rb-col')]
        .filter(c => c.scrollHeight > c.clientHeight + 1).map(c => c.className);
    const out = [...document.querySelectorAll('.rb *')].filter(e => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1);
    }).map(e => e.className).slice(0, 5);
    return {scrollH: d.scrollHeight - window.innerHeight, scrollW: d.scrollWidth - window.innerWidth,
            clipped: cols, outside: out};
}"""


def _mid_round() -> tuple[str, list[Match]]:
    """A 32-player Main in round 1: tables numbered, 6 decided, 5 in play, 5 to start, a
    90-minute round time. Returns the tournament's slug and the matches still to start."""
    with inline_tasks():
        director = User.objects.create_user("td", password="td-password-1")
        t = tournament_create(name="Autumn Open", slug="autumn", director=director)
        main = event_create(tournament=t, name="Main", match_lengths=[7], slug="main")
        players = make_players(32)
        Player.objects.filter(pk=players[3].pk).update(name=LONG_NAME)
        for p in players:
            entry_register(event=main, player=p)
        draw_make(event=main, method="random", seed=7, by=director)
        first = main.rounds.get(number=1)
        round_start(round_=first)
        round_tables_assign(round_=first)
        round_minutes_set(round_=first, minutes=90)
        ready = list(Match.objects.filter(event=main, status="ready").order_by("table"))
        for i, match in enumerate(ready[:6]):
            decide(match, 1 + i % 2, seed=i, director=director)
        for i, match in enumerate(ready[6:11]):
            report_game(match, winner_side=1 + i % 2, cube=2 if i % 2 else 1)
        return t.slug, ready[11:]


def _fits(page: Any, name: str) -> None:
    found = page.evaluate(FITS)
    assert found == {"scrollH": 0, "scrollW": 0, "clipped": [], "outside": []}, (name, found)


def test_room_board_mid_round_fits_a_1920_screen_and_updates_itself(tab):
    slug, waiting = _mid_round()
    tv = tab(1920, 1080)
    tv.open(f"/t/{slug}/board/")
    tv.page.wait_for_function(
        "() => document.querySelector('.rb-countdown').textContent.includes('left')"
    )
    text = tv.page.inner_text("main")
    clock = tv.page.inner_text(".rb-countdown")
    assert re.fullmatch(r"1:(29|30):\d\d left", clock), clock  # 90 minutes from the start
    assert f"table{waiting[0].table}" in text.lower().replace("\n", "").replace(" ", "")
    assert text.count("\n") > 20
    assert len(tv.page.locator(".rb-play .rb-row").all()) == 5
    assert len(tv.page.locator(".rb-results .rb-row").all()) == 6
    assert len(tv.page.locator(".rb-next .rb-row").all()) == 5
    tv.shot("board-1920-mid-round", full_page=False)
    _fits(tv.page, "mid-round")

    # A result comes in: the board polls and shows it without a reload.
    match = waiting[0]
    decide(match, 1, seed=99, director=User.objects.get(username="td"))
    match.refresh_from_db()
    winner = match.entry1.player.name
    tv.page.wait_for_function(
        "(name) => document.querySelector('.rb-results .rb-winner').textContent === name",
        arg=winner,
        timeout=15000,
    )
    assert len(tv.page.locator(".rb-next .rb-row").all()) == 4
    _fits(tv.page, "after a result")

    small = tab(1366, 768)
    small.open(f"/t/{slug}/board/")
    small.shot("board-1366x768-mid-round", full_page=False)
    _fits(small.page, "1366x768")
    phone = tab(390, 844)
    phone.open(f"/t/{slug}/board/")
    phone.shot("board-390-mid-round")
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert tv.errors == small.errors == phone.errors == []


def test_room_board_of_a_whole_weekend_and_of_one_event(tab):
    w = weekend()
    for rnd in Round.objects.filter(event__tournament=w.tournament, status="started"):
        round_tables_assign(round_=rnd)
    cons = w.consolation.rounds.get(number=1)
    round_minutes_set(round_=cons, minutes=60)
    round_minutes_set(round_=w.main.rounds.get(number=2), minutes=75)
    tv = tab(1920, 1080)
    tv.open(f"/t/{w.tournament.slug}/board/")
    tv.shot("board-1920-weekend", full_page=False)
    _fits(tv.page, "weekend")
    assert tv.page.locator(".rb-clock").count() == 2
    assert "Consolation · " in tv.page.inner_text(".rb-clocks")
    assert tv.page.locator(".rb-more").count() >= 1  # more matches than rows: counted

    tv.page.click(".rb-events a:text('Consolation')")
    tv.page.wait_for_load_state("networkidle")
    assert tv.page.url.endswith("/board/?event=consolation")
    tv.shot("board-1920-consolation", full_page=False)
    _fits(tv.page, "consolation")
    metas = tv.page.locator(".rb-meta").all_inner_texts()
    assert metas
    assert not any("Main" in m for m in metas)
    assert tv.page.locator(".rb-clock").count() == 1
    for width in (1366, 390):
        page = tab(width, 900)
        page.open(f"/t/{w.tournament.slug}/board/")
        page.shot(f"board-{width}-weekend")
        assert page.page.evaluate("document.documentElement.scrollWidth") <= width
    assert tv.errors == []


def test_director_sets_the_round_time_from_the_console(tab):
    w = weekend()
    rnd = w.main.rounds.get(number=2)
    page = tab(1366, 900)
    log_in(page.page, page.base, "td", "td-password-1")
    page.open(f"/director/t/{w.tournament.slug}/events/main/")
    form = f"form[action$='/rounds/{rnd.pk}/minutes/']"
    page.page.fill(f"{form} input[name=minutes]", "75")
    with page.page.expect_navigation():
        page.page.click(f"{form} button[type=submit]")
    assert "75 minutes" in page.page.inner_text(".messages")
    rnd.refresh_from_db()
    assert rnd.minutes == 75
    page.page.fill(f"{form} input[name=minutes]", "")
    with page.page.expect_navigation():
        page.page.click(f"{form} button[type=submit]")
    rnd.refresh_from_db()
    assert rnd.minutes is None
    page.shot("board-console-round-time-1366")
    page.page.set_viewport_size({"width": 390, "height": 900})
    page.shot("board-console-round-time-390")
    page.open(f"/t/{w.tournament.slug}/")
    with page.page.expect_navigation():
        page.page.click("a:text('Room board')")
    assert page.page.url.endswith(f"/t/{w.tournament.slug}/board/")
    assert page.errors == []
