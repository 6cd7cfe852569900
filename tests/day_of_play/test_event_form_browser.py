"""The new-event form in headless Chromium: each group's title sits inside its card (not
on the card's edge), and the tie-breaks are chosen by name, one select per place.

Screenshots: test-artifacts/venue/event-form-*.png at 1366 and 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, log_in
from tournament.models import Event, User
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Legends whose box is not inside their fieldset's (the title drawn on the border).
ON_THE_EDGE = """() => [...document.querySelectorAll('.event-form > fieldset')].filter(f => {
    const box = f.getBoundingClientRect(), title = f.querySelector(':scope > legend').getBoundingClientRect();
    return title.top < box.top + 2;
}).length"""


def test_new_event_form_titles_inside_cards_and_tiebreaks_by_name(
    chromium: Any, live_server: Any
) -> None:
    director = User.objects.create_user("td", password="td-password-1")
    tournament_create(name="Form Open", slug="form", director=director)
    page = chromium.new_page(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, live_server.url, "td", "td-password-1")
    page.goto(f"{live_server.url}/director/t/form/new-event/")
    assert page.evaluate(ON_THE_EDGE) == 0
    options = page.locator("select[aria-label='Tie-break 1'] option").all_inner_texts()
    assert "Head to head" in options
    assert "Opponents' wins" in options
    assert "head_to_head" not in options
    page.fill("input[name=name]", "Swiss side")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=match_lengths]", "3")
    page.select_option("select[aria-label='Tie-break 1']", label="Wins")
    page.select_option("select[aria-label='Tie-break 2']", label="Opponents' wins")
    both_widths(page, "venue", "event-form")
    with page.expect_navigation():
        page.click("button:text('Create the event')")
    event = Event.objects.get(tournament__slug="form", name="Swiss side")
    assert event.tiebreaks == ["wins", "opponents_wins"]
    page.goto(f"{live_server.url}/director/t/form/events/{event.slug}/settings/")
    assert page.locator("select[aria-label='Tie-break 2']").input_value() == "opponents_wins"
    assert page.evaluate(ON_THE_EDGE) == 0
    both_widths(page, "venue", "event-settings")
    assert errors == []
