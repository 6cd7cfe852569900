"""A director links their own player record ("This is me") from the player's edit page,
and a logged-in player claims theirs from their private link. Screenshots at 1366 and
390 px go to test-artifacts/own-player-record/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, log_in, release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.models import Player
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


def test_this_is_me_in_the_console_and_through_the_link(chromium: Any, live_server: Any) -> None:
    try:
        link_accounts(chromium, live_server.url)
    finally:
        release_server_connections()


def link_accounts(chromium: Any, base: str) -> None:
    td = UserFactory(username="td", email="td@example.org")
    tournament = tournament_create(name="Harbour Open", slug="harbour", director=td)
    main = event_create(tournament=tournament, name="Main", match_lengths=[7], slug="main")
    me = player_create(name="Tove Director", email="td@example.org", club="Nord")
    ana = player_create(name="Ana Berg", email="ana@example.org", club="Nord")
    for player in (me, ana):
        entry_register(event=main, player=player)
    errors: list[str] = []
    page = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(page, base, "td", DEFAULT_PASSWORD)
    page.goto(f"{base}/director/t/harbour/players/{me.pk}/")
    assert page.get_by_role("button", name="This is me: link to my account").is_visible()
    both_widths(page, "own-player-record", "player-edit-account")
    with page.expect_navigation():
        page.get_by_role("button", name="This is me: link to my account").click()
    assert "Tove Director is linked to your account." in page.content()
    both_widths(page, "own-player-record", "player-edit-linked")
    assert Player.objects.get(pk=me.pk).user_id == td.pk

    UserFactory(username="ana", email="ana@example.org")
    link = player_link_ensure(tournament_id=tournament.pk, player_id=ana.pk)
    player_page = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    player_page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(player_page, base, "ana", DEFAULT_PASSWORD)
    player_page.goto(f"{base}/r/{link.key}/")
    both_widths(player_page, "own-player-record", "link-claim")
    with player_page.expect_navigation():
        player_page.get_by_role("button", name="This is me: link to my account").click()
    assert "Ana Berg is linked to your account." in player_page.content()
    both_widths(player_page, "own-player-record", "link-claimed")
    assert Player.objects.get(pk=ana.pk).user.username == "ana"  # type: ignore[union-attr]
    assert errors == []
