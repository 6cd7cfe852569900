"""Two "Anna Berg" told apart where the walkthrough found them alike: the room board (in
play at two tables, at 1920, 1366 and 390 px) and the 1366-px bracket, whose boxes cut
the suffix ("Anna Berg (Odense …"): no name is cut now.

Screenshots: test-artifacts/venue/namesakes-board-*.png, namesakes-wide-bracket-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match
from tests.browser.live import ARTIFACTS, both_widths, release_server_connections
from tests.factories import UserFactory
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import round_start
from tournament.services.tables import match_table_set
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]

FIELD = [
    ("Anna Berg", "Odense Backgammonklub"),
    ("Anna Berg", "Aarhus Backgammon Club"),
    ("Christoffer Kristiansen-Holm", "Copenhagen Backgammon"),
    ("Dee Eck", ""),
    ("Eli Fox", ""),
    ("Finn Gade", ""),
    ("Gro Hald", ""),
    ("Hans Ibsen", ""),
]
TOLD = ["Anna Berg (Odense Backgammonklub)", "Anna Berg (Aarhus Backgammon Club)"]


def build() -> None:
    clear_caches()
    director = UserFactory()
    t = tournament_create(name="Odense Open", slug="odense", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[5], slug="main")
    for i, (name, club) in enumerate(FIELD):
        player = player_create(name=name, club=club, rating=1900 - 10 * i, confirm_new=True)
        entry_register(event=main, player=player)
    draw_make(event=main, method="random", seed=7, by=director)
    round_start(round_=main.rounds.get(number=1))
    for table, match in enumerate(
        Match.objects.filter(event=main, round__number=1).order_by("slot"), start=3
    ):
        match_table_set(match=match, table=table, by=director)
    clear_caches()


def test_namesakes_on_the_room_board_and_the_wide_bracket(chromium: Any, live_server: Any) -> None:
    try:
        build()
        page = chromium.new_page(viewport={"width": 1920, "height": 1080})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/t/odense/board/")
        shown = page.locator(".rb-name").all_inner_texts()
        assert all(told in shown for told in TOLD), shown
        (ARTIFACTS / "venue").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "venue" / "namesakes-board-1920.png"))
        both_widths(page, "venue", "namesakes-board")
        for width in (1920, 1366, 390):
            page.set_viewport_size({"width": width, "height": 900})
            cut = page.evaluate(
                "[...document.querySelectorAll('.rb-name')]"
                ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
            )
            assert cut == [], f"cut at {width} px: {cut}"

        page.goto(f"{live_server.url}/t/odense/main/")
        names = page.locator("#bracket-main .line .name a").all_inner_texts()
        assert all(told in names for told in TOLD), names
        both_widths(page, "venue", "namesakes-wide-bracket")
        for width in (1366, 390):
            page.set_viewport_size({"width": width, "height": 900})
            cut = page.evaluate(
                "[...document.querySelectorAll('#bracket-main .line .name')]"
                ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
            )
            assert cut == [], f"cut at {width} px: {cut}"
        assert errors == []
    finally:
        release_server_connections()
