"""The director's console in headless Chromium with the site's real CSP: the draw with
"Number the tables of round 1 now", a walkover reopened from the match page, a withdrawal
whose walkover is undone, and the pages they touch at 1366 and 390 px.

Screenshots: test-artifacts/venue/console-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match
from tests.browser.live import both_widths, log_in
from tests.day_of_play.test_tables_at_draw import undrawn_event
from tournament.models import Entry

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def test_draw_with_tables_then_reopen_a_walkover_and_undo_a_withdrawal(
    chromium: Any, live_server: Any
) -> None:
    weekend = undrawn_event("auto")
    weekend.director.set_password("td-password-1")
    weekend.director.save()
    page = chromium.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, live_server.url, "td", "td-password-1")
    base = f"{live_server.url}/director/t/links"
    page.goto(f"{base}/events/main/")
    page.check("input[name=method][value=rating]")
    page.check("input[name=tables]")
    both_widths(page, "venue", "console-draw-form")
    with page.expect_navigation():
        page.click("button:text('Make the draw')")
    assert "the tables of round 1 numbered" in page.inner_text(".messages")
    first = list(Match.objects.filter(event=weekend.main, round__number=1).order_by("slot"))
    assert [m.table for m in first] == [1, 2, 3, 4]
    both_widths(page, "venue", "console-event-drawn")

    # A walkover given by mistake, reopened from the match page.
    match = first[0]
    page.goto(f"{base}/matches/{match.pk}/")
    page.check(f"#forfeit-h ~ form input[name=winner][value='{match.entry2_id}']")
    page.check("input[name=decision][value=walkover]")
    with page.expect_navigation():
        page.click("#forfeit-h ~ form button[type=submit]")
    assert "Decision recorded" in page.inner_text(".messages")
    page.goto(f"{base}/matches/{match.pk}/")
    both_widths(page, "venue", "console-match-walkover")
    with page.expect_navigation():
        page.click("button:text('Reopen the match')")
    assert "ready to be played" in page.inner_text(".messages")
    match.refresh_from_db()
    assert (match.status, match.winner_id) == ("ready", None)

    # A withdrawal gives the next match away; its undo takes the walkover back.
    leaver = Entry.objects.get(pk=first[1].entry1_id)
    page.goto(f"{base}/events/main/")
    with page.expect_navigation():
        page.click(f"#entry-{leaver.pk} a:text('Withdraw…')")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert Match.objects.get(pk=first[1].pk).decision == "walkover"
    with page.expect_navigation():
        page.click(f"#entry-{leaver.pk} button:text('Undo withdraw')")
    assert "back in" in page.inner_text(".messages")
    assert Match.objects.get(pk=first[1].pk).status == "ready"
    both_widths(page, "venue", "console-event-undone")
    page.goto(f"{base}/events/main/matches/")
    both_widths(page, "venue", "console-grid")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    both_widths(page, "venue", "public-match")
    assert errors == []
