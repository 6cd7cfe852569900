"""The bracket on a 390 px phone: round by round, one under the other, each match as wide
as the screen; nothing scrolls sideways. At 1366 px it stays the wide sheet.

Screenshots: test-artifacts/venue/phone-bracket-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import ARTIFACTS
from tests.browser.scenario import weekend
from tournament.pages.caching import clear_caches

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAYOUT = """() => {
    const block = document.querySelector('#bracket-main');
    const rounds = [...block.querySelectorAll('.round')].map(r => r.getBoundingClientRect());
    const matches = [...block.querySelectorAll('.match:not(.void)')].map(m => m.getBoundingClientRect());
    return {
        sideways: block.scrollWidth - block.clientWidth,
        page: document.documentElement.scrollWidth - window.innerWidth,
        stacked: rounds.every((r, i) => i === 0 || r.top >= rounds[i - 1].bottom - 1),
        inside: matches.every(m => m.left >= 0 && m.right <= window.innerWidth),
        widest: Math.max(...matches.map(m => m.width)),
        rounds: rounds.length,
    };
}"""


def test_the_phone_bracket_is_round_by_round(chromium: Any, live_server: Any) -> None:
    clear_caches()
    w = weekend()
    (ARTIFACTS / "venue").mkdir(parents=True, exist_ok=True)
    page = chromium.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/t/{w.tournament.slug}/main/")
    found = page.evaluate(LAYOUT)
    assert found["sideways"] <= 0, found
    assert found["page"] <= 0, found
    assert found["stacked"], found
    assert found["inside"], found
    assert found["widest"] > 300, found  # as wide as the screen, not a 12-rem column
    assert found["rounds"] == 5
    page.screenshot(path=str(ARTIFACTS / "venue" / "phone-bracket-390.png"), full_page=True)
    page.evaluate("document.querySelectorAll('#bracket-main .round')[1].scrollIntoView()")
    page.screenshot(path=str(ARTIFACTS / "venue" / "phone-bracket-390-round-2.png"))
    page.set_viewport_size({"width": 1366, "height": 900})
    wide = page.evaluate(LAYOUT)
    assert not wide["stacked"]  # the sheet: rounds side by side
    page.screenshot(path=str(ARTIFACTS / "venue" / "phone-bracket-1366.png"), full_page=True)
