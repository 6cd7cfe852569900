"""A player in a public and a private tournament: their public pages (profile, calendar,
ratings, analysis history, the API) show the public one only, to anybody but the private
tournament's directors."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import (
    EntryFactory,
    EventFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    token_client,
)
from tournament.pages.caching import clear_caches

pytestmark = pytest.mark.django_db

PATHS = (
    "/players/{p}/",
    "/players/{p}/matches.ics",
    "/api/players/{p}/",
    "/api/players/{p}/ratings/",
    "/api/players/{p}/analysis/",
    "/api/matches/",
)


def test_a_shared_players_pages_keep_their_private_tournament_out() -> None:
    clear_caches()
    alice, bob = UserFactory(), UserFactory()
    sue = PlayerFactory(name="Shared Sue")
    public = EventFactory(tournament=TournamentFactory(director=bob, name="Open Cup"))
    secret = EventFactory(
        tournament=TournamentFactory(director=alice, is_public=False, name="Secret Invitational"),
        name="Hidden Main",
    )
    opponent = PlayerFactory(name="Secret Opponent")
    MatchFactory(
        round=RoundFactory(event=secret),
        entry1=EntryFactory(event=secret, player=sue),
        entry2=EntryFactory(event=secret, player=opponent),
    )
    MatchFactory(
        round=RoundFactory(event=public),
        entry1=EntryFactory(event=public, player=sue),
        entry2=EntryFactory(event=public),
    )
    strangers = {"anonymous": Client(), "bob": token_client(bob)}
    seen: list[str] = []
    for who, client in strangers.items():
        for path in PATHS:
            answer = client.get(path.format(p=sue.pk))
            assert answer.status_code == 200, (who, path, answer.status_code)
            body = (
                b"".join(answer.streaming_content) if answer.streaming else answer.content
            ).decode()
            seen += [
                f"{who} {path}: {s}"
                for s in ("Secret Invitational", "Hidden Main", "Secret Opponent")
                if s in body
            ]
    assert not seen, seen
    profile = Client().get(f"/players/{sue.pk}/").content.decode()
    assert "Open Cup" in profile  # the public one shows: the page is not just empty
    clear_caches()
    mine = token_client(alice).get("/api/matches/").content.decode()
    assert "Secret Opponent" in mine or "Hidden Main" in mine or str(secret.pk) in mine
