"""``/api/players/?q=`` matches names and clubs for everyone, email only for directors,
and hides players seen only in private tournaments from those who do not direct them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import (
    EntryFactory,
    EventFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _names(client: APIClient, q: str) -> set[str]:
    response = client.get("/api/players/", {"q": q})
    assert response.status_code == 200
    return {row["name"] for row in response.json()["results"]}


def test_anonymous_callers_cannot_search_by_email() -> None:
    PlayerFactory(name="Quiet Quentin", email="secret.handle@example.org")
    anonymous = APIClient()
    assert _names(anonymous, "secret.handle") == set()
    assert _names(anonymous, "Quiet") == {"Quiet Quentin"}


def test_directors_may_search_by_email() -> None:
    tournament = TournamentFactory()
    PlayerFactory(name="Quiet Quentin", email="secret.handle@example.org")
    director = APIClient()
    director.force_authenticate(tournament.directors.first())
    assert _names(director, "Secret.Handle@example.org") == {"Quiet Quentin"}


def test_directors_cannot_read_an_email_out_a_character_at_a_time() -> None:
    tournament = TournamentFactory()
    PlayerFactory(name="Quiet Quentin", email="secret.handle@example.org")
    director = APIClient()
    director.force_authenticate(tournament.directors.first())
    for part in ("s", "secret.handle", "secret.handle@", "example.org", "@example.org"):
        assert _names(director, part) == set(), part
    assert _names(director, "secret.handle@example.or") == set()


def test_players_of_private_tournaments_are_listed_to_their_directors_only() -> None:
    private = TournamentFactory(is_public=False)
    public = TournamentFactory()
    EntryFactory(event=EventFactory(tournament=private), player__name="Hidden Hana")
    both = PlayerFactory(name="Hidden Both")
    EntryFactory(event=EventFactory(tournament=private), player=both)
    EntryFactory(event=EventFactory(tournament=public), player=both)
    PlayerFactory(name="Hidden Newcomer")  # entered nowhere yet
    expected_public = {"Hidden Both", "Hidden Newcomer"}
    assert _names(APIClient(), "Hidden") == expected_public
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert _names(stranger, "Hidden") == expected_public
    other_director = APIClient()
    other_director.force_authenticate(public.directors.first())
    assert _names(other_director, "Hidden") == expected_public
    director = APIClient()
    director.force_authenticate(private.directors.first())
    assert _names(director, "Hidden") == expected_public | {"Hidden Hana"}


def test_a_private_only_player_is_not_found_by_id_either() -> None:
    private = TournamentFactory(is_public=False)
    entry = EntryFactory(event=EventFactory(tournament=private))
    assert APIClient().get(f"/api/players/{entry.player_id}/").status_code == 404
    director = APIClient()
    director.force_authenticate(private.directors.first())
    assert director.get(f"/api/players/{entry.player_id}/").status_code == 200
