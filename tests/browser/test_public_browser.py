"""The public pages in headless Chromium: every page loads cleanly (and fits a phone where a
player reads it), the bracket shows the winners after results are reported through the
API, and live pages follow a report without a reload. Screenshots: test-artifacts/public/."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.browser.scenario import weekend
from tests.conftest import ON_SERVICES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 360


def _urls(w) -> dict[str, str]:
    t = w.tournament.slug
    complete = Match.objects.filter(event=w.main, status="complete", is_bye=False).first()
    playing = Match.objects.filter(event=w.main, status="playing").first()
    draw = w.main.draws.first()
    return {
        "home": "/",
        "tournament": f"/t/{t}/",
        "event-main": f"/t/{t}/main/",
        "event-consolation": f"/t/{t}/consolation/",
        "event-last-chance": f"/t/{t}/last-chance/",
        "event-swiss": f"/t/{t}/swiss/",
        "match-complete": f"/matches/{complete.pk}/",
        "match-playing": f"/matches/{playing.pk}/",
        "player": f"/players/{complete.winner.player_id}/",
        "draw-log": f"/t/{t}/main/draws/{draw.pk}/",
        "scoreboard": f"/t/{t}/scoreboard/",
        "print-a4": f"/t/{t}/main/print/?paper=a4",
        "print-letter": f"/t/{t}/main/print/?paper=letter",
        "slips-a4": f"/t/{t}/main/slips/?paper=a4",
        "slips-letter": f"/t/{t}/main/slips/?paper=letter",
        "report-link": f"/r/{playing.entry1.report_key}/",
    }


def test_every_page_loads_without_console_errors(tab):
    urls = _urls(weekend())
    desktop = tab(1366)
    for name, url in urls.items():
        response = desktop.open(url)
        assert response.status == 200, url
        desktop.shot(f"desktop-{name}")
    assert desktop.errors == []

    board = tab(1920, 1080)
    board.open(urls["scoreboard"])
    board.shot("screen-scoreboard")
    assert board.errors == []

    phone = tab(PHONE, 780)
    for name in ("tournament", "event-main", "match-playing", "player", "report-link", "home"):
        phone.open(urls[name])
        phone.shot(f"phone-{name}")
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE, f"{name} is {width}px wide on a {PHONE}px phone"
    assert phone.errors == []


def _play_to_the_end(api, match: Match, winner, loser) -> None:
    """The winner reports every game through the API; the loser confirms."""
    double = [{"by": loser.player_id, "turn": 3, "response": "take"}]
    score = 0
    while score < match.length:
        away = match.length - score
        cube = 1 if away == 1 else 2
        game = {"winner": winner.player_id, "cube": cube, "result": "single"}
        if cube > 1:
            game["doubles"] = double
        status, body = api("POST", f"/api/matches/{match.pk}/games/", game, key=winner.report_key)
        assert status == 201, body
        score += cube
    status, body = api("POST", f"/api/matches/{match.pk}/confirm/", {}, key=loser.report_key)
    assert status == 200, body


def test_bracket_shows_the_winners_after_results_reported_through_the_api(
    tab, api, request, wait_for
):
    if ON_SERVICES:  # the bracket moves on in a real Celery worker
        request.getfixturevalue("celery_worker_process")
    w = weekend()
    ready = list(
        Match.objects.filter(event=w.main, status="ready").order_by("round__number", "slot")
    )
    assert len(ready) >= 2
    results = []
    for match, side in zip(ready[:2], (2, 1), strict=True):
        winner, loser = (match.entry2, match.entry1) if side == 2 else (match.entry1, match.entry2)
        _play_to_the_end(api, match, winner, loser)
        results.append((match, winner, loser))

    for match, _, _ in results:
        wait_for(lambda m=match: Match.objects.filter(pk=m.pk, advanced_at__isnull=False).exists())
    page = tab(1600)
    page.open(f"/t/{w.tournament.slug}/main/")
    for match, winner, loser in results:
        match.refresh_from_db()
        assert match.status == "complete"
        box = page.page.locator(f"#m{match.pk}")
        assert box.locator(".line.won .name a").inner_text() == winner.player.name
        assert box.locator(".line.lost .name a").inner_text() == loser.player.name
        # the winner already sits in the next round's box
        following = Match.objects.get(
            event=w.main, round__number=match.round.number + 1, slot=match.slot // 2
        )
        assert winner.player.name in page.page.locator(f"#m{following.pk}").inner_text()
        # and the loser's line says where they went: 24 players leave 8 round-1 losers, as
        # many as the round-2 losers, so both enter Consolation round 1 (no round of byes)
        assert "Consolation R1" in box.locator(".went").inner_text()
    page.page.locator(f"#m{results[0][0].pk}").scroll_into_view_if_needed()
    page.shot("bracket-after-api-reports", full_page=False)
    assert page.errors == []


def test_live_pages_follow_a_report_without_a_reload(tab, api):
    w = weekend()
    match = Match.objects.filter(event=w.main, status="playing").order_by("slot").first()
    before = (match.score1, match.score2)

    watcher = tab(1366)
    watcher.open(f"/matches/{match.pk}/")
    bracket = tab(1600)
    bracket.open(f"/t/{w.tournament.slug}/main/")
    board = tab(1600)
    board.open(f"/t/{w.tournament.slug}/scoreboard/")
    for t in (watcher, bracket, board):
        t.page.evaluate("window.notReloaded = true")
    versions = [
        t.page.get_attribute(sel, "data-version")
        for t, sel in ((watcher, "#match-live"), (bracket, "#event-live"), (board, "#board-live"))
    ]

    status, body = api(
        "POST",
        f"/api/matches/{match.pk}/games/",
        {"winner": match.entry1.player_id, "cube": 1, "result": "single"},
        key=match.entry1.report_key,
    )
    assert status == 201, body
    score = f"{before[0] + 1}"

    for t, sel, version in zip(
        (watcher, bracket, board),
        ("#match-live", "#event-live", "#board-live"),
        versions,
        strict=True,
    ):
        # A selector, not wait_for_function: the page's CSP forbids the eval that needs.
        t.page.wait_for_selector(f"{sel}:not([data-version='{version}'])", timeout=20_000)
        assert t.page.evaluate("window.notReloaded") is True  # swapped in place, not reloaded
    assert watcher.page.locator("#match-live .score-table td.big").first.inner_text() == score
    assert bracket.page.locator(f"#m{match.pk} .line .score").first.inner_text() == score
    assert score in board.page.locator("#board-live").inner_text()
    watcher.shot("live-match-after-report")
    board.shot("live-scoreboard-after-report")
    for t in (watcher, bracket, board):
        assert t.errors == []
