"""The private reporting page on a 360-pixel phone screen, in headless Chromium.

Screenshots go to ``test-artifacts/matches/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from matches.models import Match
from tests.matches.conftest import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "matches"


@pytest.fixture
def phone(chromium: Any, live_server: Any) -> Iterator[Any]:
    """A 360x740 page on the live server; console errors and failed requests are kept."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.base = live_server.url
    yield page
    context.close()


def test_a_player_reports_and_the_opponent_confirms_on_a_phone(phone: Any) -> None:
    t = make_table()
    anna = f"{phone.base}/r/{t.match.entry1.report_key}/"
    phone.goto(anna)
    phone.screenshot(path=str(ARTIFACTS / "report-empty.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    for number, cube in ((1, "4"), (2, "4")):
        phone.get_by_label("Anna Kowalska").check()
        phone.get_by_label("Cube").select_option(cube)
        phone.get_by_role("button", name=f"Record game {number}").click()
        phone.wait_for_load_state()
        assert f"Game {number} recorded." in phone.content(), phone.content()[:3000]
    phone.screenshot(path=str(ARTIFACTS / "report-awaiting.png"), full_page=True)
    assert "waiting for Bert van Dijk to confirm" in phone.content()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.goto(f"{phone.base}/r/{t.match.entry2.report_key}/")
    phone.screenshot(path=str(ARTIFACTS / "confirm.png"), full_page=True)
    assert "reported their win, 8\u20130" in phone.content()
    phone.get_by_role("button", name="Confirm the result").click()
    phone.wait_for_load_state()
    assert Match.objects.get(pk=t.match.pk).status == "complete"
    assert phone.errors == []
