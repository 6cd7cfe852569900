"""A shared player's edit page in the console of a director of only some of their
tournaments: the name, club and country read-only, and why; the player's emails page
behind one tournament's link: that tournament's choice and contact. Screenshots at 1366
and 390 px go to test-artifacts/shared-player/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, log_in, release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.models import PlayerLink
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.player_links import player_link_ensure
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def test_shared_player_pages(chromium: Any, live_server: Any) -> None:
    try:
        shared_player(chromium, live_server.url)
    finally:
        release_server_connections()


def shared_player(chromium: Any, base: str) -> None:
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    a = tournament_create(name="Alice Open", slug="alice-open", director=alice)
    b = tournament_create(name="Bob Cup", slug="bob-cup", director=bob)
    sue = player_create(name="Sue Shared", email="sue@example.org", club="Oslo BG")
    for tournament in (a, b):
        event = event_create(tournament=tournament, name="Main", match_lengths=[7])
        entry_register(event=event, player=sue)
    errors: list[str] = []
    page = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(page, base, "bob", DEFAULT_PASSWORD)
    page.goto(f"{base}/director/t/bob-cup/players/{sue.pk}/")
    assert page.locator("#identity-locked").is_visible()
    assert page.locator("input[name=name]").is_disabled()
    assert page.locator("input[name=club]").is_disabled()
    assert page.locator("input[name=email]").is_enabled()
    both_widths(page, "shared-player", "player-edit-locked")

    link = player_link_ensure(tournament_id=b.pk, player_id=sue.pk)
    PlayerLink.objects.filter(pk=link.pk).update(email="sue.at.bob@example.org")
    visitor = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    visitor.on("pageerror", lambda e: errors.append(str(e)))
    visitor.goto(f"{base}/r/{link.key}/emails/")
    assert "sue.at.bob@example.org" in visitor.content()
    assert "sue@example.org" not in visitor.content()
    visitor.get_by_label("Send me no emails from Bob Cup").check()
    with visitor.expect_navigation():
        visitor.get_by_role("button", name="Save").click()
    assert "Saved." in visitor.content()
    both_widths(visitor, "shared-player", "emails-off")
    assert not PlayerLink.objects.get(pk=link.pk).notify
    assert PlayerLink.objects.get(tournament=a, player=sue).notify
    assert errors == []
