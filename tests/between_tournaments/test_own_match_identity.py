"""The own-match rule sees a director entered as a player without an account link: by
the player's email (or the tournament's contact for them) being the director's, and
once the director (console, API) or the player (their private link, logged in) links
the record to the account."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from matches.models import Match
from tests.factories import (
    EntryFactory,
    EventFactory,
    MatchFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    token_client,
)
from tournament.models import Player, PlayerLink
from tournament.services.player_links import player_link_ensure

pytestmark = pytest.mark.django_db


def _forfeit(user: Any, match: Match) -> Any:
    body = {"winner": match.entry1.player_id, "reason": "mine"}
    return token_client(user).post(f"/api/matches/{match.pk}/forfeit/", body, format="json")


def test_a_player_whose_email_is_the_directors_counts_as_the_director() -> None:
    match = MatchFactory()
    director = match.event.tournament.directors.get()
    player = match.entry1.player
    player.email = director.email.upper()  # any case
    player.save()
    answer = _forfeit(director, match)
    assert answer.status_code == 403
    assert answer.json()["code"] == "own-match"
    match.refresh_from_db()
    assert match.winner_id is None


def test_the_tournaments_contact_being_the_directors_email_counts_too() -> None:
    match = MatchFactory()
    director = match.event.tournament.directors.get()
    link = player_link_ensure(
        tournament_id=match.event.tournament_id, player_id=match.entry2.player_id
    )
    PlayerLink.objects.filter(pk=link.pk).update(email=director.email)
    assert _forfeit(director, match).status_code == 403


def test_a_director_links_their_own_record_through_the_api_then_cannot_decide() -> None:
    match = MatchFactory()
    director = match.event.tournament.directors.get()
    player = match.entry1.player
    director.email = ""  # the email rule alone would not see them
    director.save()
    linked = token_client(director).post(f"/api/players/{player.pk}/link-account/")
    assert linked.status_code == 400  # their email is not the account's: no proof
    assert linked.json()["code"] == "account-link"
    director.email = player.email
    director.save()
    linked = token_client(director).post(f"/api/players/{player.pk}/link-account/")
    assert linked.status_code == 200, linked.content
    player.refresh_from_db()
    assert player.user_id == director.pk
    director.email = "elsewhere@example.org"  # the link holds without the email rule
    director.save()
    assert _forfeit(director, match).status_code == 403


def test_a_director_links_their_own_record_in_the_console() -> None:
    match = MatchFactory()
    tournament = match.event.tournament
    director = tournament.directors.get()
    player = match.entry1.player
    director.email = player.email
    director.save()
    console = Client()
    console.force_login(director)
    page = console.get(f"/director/t/{tournament.slug}/players/{player.pk}/")
    assert "This is me: link to my account" in page.content.decode()
    done = console.post(f"/director/t/{tournament.slug}/players/{player.pk}/link-account/")
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.user_id == director.pk


def test_a_director_cannot_link_a_record_another_directors_tournament_uses() -> None:
    """Claiming a shared record would act as the player in the other tournament."""
    bob = UserFactory()
    shared = PlayerFactory()
    EntryFactory(player=shared)  # in someone else's (public) tournament
    EntryFactory(event=EventFactory(tournament=TournamentFactory(director=bob)), player=shared)
    bob.email = shared.email
    bob.save()
    answer = token_client(bob).post(f"/api/players/{shared.pk}/link-account/")
    assert answer.status_code == 400
    shared.refresh_from_db()
    assert shared.user_id is None


def test_a_player_claims_their_record_through_their_link_while_logged_in() -> None:
    match = MatchFactory()
    player = match.entry1.player
    link = player_link_ensure(tournament_id=match.event.tournament_id, player_id=player.pk)
    stranger = UserFactory(email="someone@example.org")
    browser = Client()
    browser.force_login(stranger)
    page = browser.get(f"/r/{link.key}/")
    assert "This is me: link to my account" in page.content.decode()
    browser.post(f"/r/{link.key}/claim/")
    player.refresh_from_db()
    assert player.user_id is None  # another address than the one the director has
    owner = UserFactory(email=player.email)
    browser.force_login(owner)
    answer = browser.post(f"/r/{link.key}/claim/")
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.user_id == owner.pk
    # ... and the account now acts as the player: /me/ lists their match.
    assert Player.objects.get(user=owner) == player
    # Anonymous: to the login page, nothing linked.
    assert Client().post(f"/r/{link.key}/claim/").status_code == 302


def test_a_director_cannot_claim_a_shared_player_through_a_contact_they_set() -> None:
    """B sets their tournament's contact for a player A shares to B's own email, then
    uses the link B holds: the contact is B's to set, so it proves nothing."""
    bob = UserFactory(email="bob@example.org")
    shared = PlayerFactory(email="sue@example.org")
    EntryFactory(player=shared)  # in A's tournament
    b_event = EventFactory(tournament=TournamentFactory(director=bob))
    EntryFactory(event=b_event, player=shared)
    answer = token_client(bob).patch(
        f"/api/tournaments/{b_event.tournament.slug}/player-links/{shared.pk}/",
        {"email": "bob@example.org"},
        format="json",
    )
    assert answer.status_code == 200
    link = PlayerLink.objects.get(tournament=b_event.tournament, player=shared)
    browser = Client()
    browser.force_login(bob)
    browser.post(f"/r/{link.key}/claim/")
    shared.refresh_from_db()
    assert shared.user_id is None
