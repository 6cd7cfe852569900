"""The player's private page in headless Chromium with the site's real CSP: in the
Crawford game the cube cannot be chosen (it stays at 1 and the game is recorded); a
refused game leaves the address bar on the page, not on the form's POST address, and a
reload fetches the page instead of sending the form again.

Screenshots: test-artifacts/venue/player-*.png at 1366 and 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match, Submission
from tests.browser.live import both_widths
from tests.browser.scenario import report_game
from tests.console.test_player_links import make_weekend
from tournament.services.rounds import round_start

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def test_crawford_cube_is_fixed_and_a_refused_game_leaves_the_post_address(
    chromium: Any, live_server: Any
) -> None:
    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    match = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot").first()
    report_game(match, winner_side=1, cube=2)  # 2-0 in a 3-point match: the Crawford game next
    key = match.entry2.report_key
    page = chromium.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    methods: list[str] = []
    page.on("request", lambda r: methods.append(r.method) if "/r/" in r.url else None)
    page.goto(f"{live_server.url}/r/{key}/")
    page.wait_for_url("**/r/**")
    cube = page.locator("select[name=cube]")
    assert cube.is_disabled()
    assert cube.input_value() == "1"
    assert "The Crawford game: no doubling" in page.inner_text(".game-form")
    both_widths(page, "venue", "player-crawford-game")

    # A dropped double in the Crawford game: refused by the rules engine.
    page.check(f"input[name=winner][value='{match.entry1.player_id}']")
    page.check("input[name=ended_by][value=drop]")
    with page.expect_navigation():
        page.click("button:text('Record game 2')")
    assert "Not recorded" in page.inner_text(".refusal")
    page_url = page.url
    assert page_url.endswith(f"/r/{page.url.split('/r/')[1].split('/')[0]}/?match={match.pk}")
    assert "/game/" not in page_url
    both_widths(page, "venue", "player-refused-game")
    rejected = Submission.objects.filter(match=match, status="rejected").count()
    methods.clear()
    page.reload()
    assert methods[0] == "GET"
    assert Submission.objects.filter(match=match, status="rejected").count() == rejected

    # The Crawford game, played out: recorded with the cube at 1.
    page.check(f"input[name=winner][value='{match.entry2.player_id}']")
    with page.expect_navigation():
        page.click("button:text('Record game 2')")
    assert "Game 2 recorded" in page.inner_text(".messages")
    game = match.games.get(number=2, voided=False)
    assert (game.cube, game.crawford, game.winner_side) == (1, True, 2)
    assert not page.locator("select[name=cube]").is_disabled()  # post-Crawford: doubling again
    assert [e for e in errors if "status of 400" not in e] == []  # the refused game's answer
