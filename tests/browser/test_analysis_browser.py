"""The analysis where players read it: the match page (PR, error rate, luck, biggest
mistakes, the status) and the event's PR table, at 1366 and 390 px.
Screenshots: test-artifacts/analysis/."""

from __future__ import annotations

from pathlib import Path

import pytest

from matches.models import Analysis
from tests.browser.live import ARTIFACTS, both_widths, log_in
from tests.factories import DEFAULT_PASSWORD
from tests.matches.test_api import make_bracket

pytestmark = [pytest.mark.browser, pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(autouse=True)
def _analysis(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ANALYSIS_AUTO = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_match_page_and_the_pr_table(tab, eager_tasks) -> None:
    b = make_bracket(3)
    t = b.event.tournament
    t.analysis_plies = 0
    t.save()
    for match, name in ((b.first, "analysis/a01_3pt.mat"), (b.second, "gnubg/m02_3pt.sgf")):
        with (DATA / name).open("rb") as f:
            answer = b.link_client(match, 1).post(
                f"/api/matches/{match.pk}/record/",
                {"file": f, "first_is": match.entry1.player_id},
                format="multipart",
            )
        assert answer.status_code == 201, answer.json()
        assert Analysis.objects.get(match=match).status == "done"

    page = tab(1366)
    response = page.open(f"/matches/{b.first.pk}/")
    assert response.status == 200
    section = page.page.locator("#analysis")
    text = section.inner_text()
    assert "gnubg PR (unofficial)" in text
    assert "XG" in text
    assert "Biggest mistakes" in text
    rows = section.locator("table.analysis-table tbody tr")
    assert rows.count() == 2
    assert b.first.entry1.player.name in rows.nth(0).inner_text()
    both_widths(page.page, "analysis", "match")
    page.page.set_viewport_size({"width": 390, "height": 900})
    section.screenshot(path=str(ARTIFACTS / "analysis" / "match-section-390.png"))
    # At phone width each mistake is a short card (who, where, cost and mark; played and
    # best), nothing cut off at the right; at 1366 px the list is one line a mistake.
    for width, tallest in ((390, 120), (1366, 40)):
        page.page.set_viewport_size({"width": width, "height": 900})
        cards = section.locator("table.blunders tbody tr")
        assert cards.count() == 10
        heights = [cards.nth(i).bounding_box()["height"] for i in range(cards.count())]
        assert max(heights) <= tallest, (width, heights)
        wide = section.locator("table.blunders").evaluate(
            "t => t.parentElement.scrollWidth - t.parentElement.clientWidth"
        )
        assert wide <= 0, f"the mistakes list scrolls sideways at {width} px"
        marks = section.locator("table.blunders td.b-mark")
        box = marks.nth(0).bounding_box()
        assert box["x"] + box["width"] <= width
    # The whole match page reads without sideways scrolling at phone width: the games as
    # cards, the move list in the screen's width.
    page.page.set_viewport_size({"width": 390, "height": 900})
    for table in ("table.games", "table.move-table"):
        wide = page.page.locator(table).first.evaluate(
            "t => t.parentElement.scrollWidth - t.parentElement.clientWidth"
        )
        assert wide <= 0, f"{table} scrolls sideways at 390 px"
    page.page.set_viewport_size({"width": 1366, "height": 900})

    page.open(f"/t/{t.slug}/{b.event.slug}/")
    table = page.page.locator("#pr-table table tbody tr")
    assert table.count() == 4  # both players of both analysed matches
    both_widths(page.page, "analysis", "event-pr-table")

    page.open(f"/players/{b.first.entry1.player_id}/")
    assert page.page.locator("#pr-history svg circle").count() == 1
    both_widths(page.page, "analysis", "player")

    page.open(f"/t/{t.slug}/")
    assert page.page.locator("#pr-table table tbody tr").count() == 4
    both_widths(page.page, "analysis", "tournament-pr-table")
    assert page.errors == []

    # The director's console: the analysis panel with its re-run button, and the settings.
    director = tab(1366)
    log_in(director.page, director.base, b.director.username, DEFAULT_PASSWORD)
    director.open(f"/director/t/{t.slug}/matches/{b.first.pk}/")
    panel = director.page.locator("#analysis-console")
    assert "Status: done" in panel.inner_text()
    both_widths(director.page, "analysis", "console-match")
    with director.page.expect_navigation():
        panel.get_by_role("button", name="Re-run the analysis").click()
    assert "Analysis queued again (run 2)" in director.page.content()
    director.open(f"/director/t/{t.slug}/settings/")
    assert director.page.locator("input[name=analysis_enabled]").is_checked()
    both_widths(director.page, "analysis", "console-settings")
    assert director.errors == []
