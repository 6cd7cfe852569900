"""Namesakes in the brackets as people see them: the phone's round-by-round bracket at
390 px, the wide sheet at 1366 px and the console's match grid, each showing the club,
country or seed that tells two players of the same name apart, with nothing overflowing.

Screenshots: test-artifacts/venue/namesakes-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, log_in, release_server_connections
from tests.day_of_play.test_namesakes_brackets import TOLD, build_twins
from tests.factories import DEFAULT_PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def test_namesakes_in_the_phone_bracket_and_the_grid(chromium: Any, live_server: Any) -> None:
    try:
        director, _ = build_twins()
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/t/twin/main/")
        names = page.locator("#bracket-main .line .name a").all_inner_texts()
        assert all(told in names for told in TOLD), names
        both_widths(page, "venue", "namesakes-bracket")
        log_in(page, live_server.url, director.username, DEFAULT_PASSWORD)
        page.goto(f"{live_server.url}/director/t/twin/events/main/matches/")
        shown = page.locator(".match-card dt").all_inner_texts()
        assert all(told in shown for told in TOLD), shown
        both_widths(page, "venue", "namesakes-grid")
        assert errors == []
    finally:
        release_server_connections()
