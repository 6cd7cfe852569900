"""A director corrects a mistyped name from the event's entries: the new name is another
player's, so the page asks first; ticking the box saves it and goes back to the entries.
Then an email from the player-links page, back there. Screenshots at 1366 and 390 px go to test-artifacts/players/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.models import Player
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def test_a_mistyped_name_is_corrected_after_the_duplicate_question(
    chromium: Any, live_server: Any
) -> None:
    try:
        correct_a_name(chromium, live_server.url)
    finally:
        release_server_connections()


def correct_a_name(chromium: Any, base: str) -> None:
    td = UserFactory(username="td")
    tournament = tournament_create(name="Harbour Open", slug="harbour", director=td)
    main = event_create(tournament=tournament, name="Main", match_lengths=[7], slug="main")
    for name, club, email in (
        ("Ana Berg", "Harbour Backgammon Club", "anna.berg@example.org"),
        ("Bo Lindqvist", "Nord", "bo@example.org"),
        ("Carmen Delacroix-Villeneuve", "Club de Backgammon de Montréal", ""),
    ):
        player = player_create(name=name, club=club, email=email)
        entry_register(event=main, player=player)
    other = player_create(name="Anna Berg", club="Sud", email="anna.sud@example.org")
    errors: list[str] = []
    page = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/accounts/login/?next=/director/t/harbour/events/main/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    both_widths(page, "players", "event-entries")

    with page.expect_navigation():
        page.click("a[aria-label='Edit Ana Berg']")
    assert page.locator("input[name=confirm_new][type=checkbox]").count() == 0
    page.fill("input[name=name]", "Anna Berg")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    body = page.content()
    assert "A player named Anna Berg already exists: Anna Berg (Sud, anna.sud@example.org)" in body
    assert page.locator("input[name=confirm_new][type=checkbox]").is_visible()
    both_widths(page, "players", "edit-duplicate-warning")

    page.check("input[name=confirm_new]")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url.startswith(f"{base}/director/t/harbour/events/main/#entry-")
    assert "Anna Berg: name (was Ana Berg) changed." in page.content()
    both_widths(page, "players", "edit-saved")
    assert Player.objects.filter(name="Anna Berg").exclude(pk=other.pk).count() == 1

    page.goto(f"{base}/director/t/harbour/player-links/")
    both_widths(page, "players", "player-links")
    with page.expect_navigation():
        page.click("a[aria-label='Edit Bo Lindqvist']")
    page.fill("input[name=email]", "bo.lindqvist@example.org")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url.startswith(f"{base}/director/t/harbour/player-links/#player-")
    assert "Their private link can be emailed again from Player links." in page.content()
    assert errors == []
