""" "Email this player" on the player links page, in headless Chromium under the real CSP:
the card states the cooldown and the daily cap beside the button; after a press it says
when the next mail may go and the button waits. Screenshots at 1366 and 390 px go to
test-artifacts/link-email/."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from tests.browser.live import both_widths, log_in, release_server_connections
from tests.factories import DEFAULT_PASSWORD, PlayerFactory, UserFactory
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]

FOLDER = "link-email"


def test_the_email_button_states_its_cooldown_and_waits_after_a_press(
    chromium: Any, live_server: Any
) -> None:
    try:
        run(chromium, live_server.url)
    finally:
        release_server_connections()


def run(chromium: Any, base: str) -> None:
    director = UserFactory(username="td")
    t = tournament_create(name="Fjord Open", slug="fjord", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    for name in ("Ole Holm", "Mia Berg"):
        player = PlayerFactory(name=name, email=f"{name.split()[0].lower()}@example.org")
        entry_register(event=event, player=player)
    errors: list[str] = []
    page = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, base, director.username, DEFAULT_PASSWORD)
    page.goto(f"{base}/director/t/fjord/player-links/")
    card = page.locator("li.link-card:has-text('Ole Holm')")
    assert "One mail every 10 min, 5 a day per player." in card.inner_text()
    both_widths(page, FOLDER, "player-links-before")
    with page.expect_navigation():
        card.locator("button:text-is('Email this player')").click()
    assert "link is on its way" in page.content()
    card = page.locator("li.link-card:has-text('Ole Holm')")
    assert "next from" in card.inner_text()
    assert card.locator("button:text-is('Email this player')").is_disabled()
    other = page.locator("li.link-card:has-text('Mia Berg')")
    assert other.locator("button:text-is('Email this player')").is_enabled()
    card.scroll_into_view_if_needed()
    both_widths(page, FOLDER, "player-links-after-a-press")
    assert [m.to for m in mail.outbox] == [["ole@example.org"]]
    assert not errors, errors
