"""The director's match slips (with the players' link stubs) have a row for every game
of a 5-point match but the rarest (9 games need 9 rows: there are 10), scale with the
match length, and still fit half a page of A4 and of Letter, on screen and in print.

Screenshots: test-artifacts/venue/slips-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import ARTIFACTS, log_in
from tournament.models import User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Slips whose content runs past their box (the box hides it).
OVERFLOWING = """() => [...document.querySelectorAll('.slip')].filter(s => {
    const bottom = s.getBoundingClientRect().bottom;
    return [...s.children].some(c => c.getBoundingClientRect().bottom > bottom + 0.5);
}).length"""
SIZES = """() => { const s = document.querySelector('.slip'); const top = s.getBoundingClientRect().top;
    return [s.getBoundingClientRect().height, ...[...s.children].map(c => [c.className, Math.round(c.getBoundingClientRect().height)])]; }"""


def _event(length: int) -> None:
    director = User.objects.filter(username="td").first() or User.objects.create_user(
        "td", password="td-password-1"
    )
    t = tournament_create(name=f"Slips {length}", slug=f"slips{length}", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[length], slug="main")
    for i in range(4):
        entry_register(event=main, player=player_create(name=f"P{length}-{i}"))
    draw_make(event=main, method="random", seed=1, by=director)


@pytest.mark.parametrize(("length", "rows"), [(5, 10), (3, 6), (9, 10)])
def test_director_slips_have_a_row_per_game_and_fit_half_a_page(
    chromium: Any, live_server: Any, length: int, rows: int
) -> None:
    _event(length)
    page = chromium.new_page(viewport={"width": 1366, "height": 900})
    log_in(page, live_server.url, "td", "td-password-1")
    (ARTIFACTS / "venue").mkdir(parents=True, exist_ok=True)
    for paper in ("a4", "letter"):
        page.goto(f"{live_server.url}/t/slips{length}/main/slips/?paper={paper}")
        assert page.locator(".slip-link").count() == 4  # the director's slips, with links
        counts = page.eval_on_selector_all(
            ".slip-games", "tables => tables.map(t => t.tBodies[0].rows.length)"
        )
        assert counts == [rows, rows], (paper, counts)
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            assert page.evaluate(OVERFLOWING) == 0, (length, paper, media, page.evaluate(SIZES))
        page.emulate_media(media="screen")
        page.screenshot(
            path=str(ARTIFACTS / "venue" / f"slips-{length}pt-{paper}-1366.png"), full_page=True
        )
    page.set_viewport_size({"width": 390, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "venue" / f"slips-{length}pt-390.png"))
