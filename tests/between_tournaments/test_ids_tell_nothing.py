"""Ids carried in a request body tell nothing of a private tournament either: another
director's import naming a private event is answered as for an event that does not exist."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, TournamentFactory, UserFactory, token_client
from tournament.models import Event, Player

pytestmark = pytest.mark.django_db


def test_an_import_into_a_private_event_answers_as_into_a_missing_one() -> None:
    alice, bob = UserFactory(), UserFactory()
    TournamentFactory(director=bob)
    hidden = EventFactory(tournament=TournamentFactory(director=alice, is_public=False))
    missing = Event.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]
    api = token_client(bob)
    answers = [
        api.post("/api/players/import/", {"csv": "name\nEve\n", "event": event}, format="json")
        for event in (hidden.pk, missing)
    ]
    assert [a.status_code for a in answers] == [400, 400]
    assert answers[0].json() == answers[1].json()
    assert not Player.objects.filter(name="Eve").exists()
    # Its own director imports into it.
    mine = token_client(alice).post(
        "/api/players/import/", {"csv": "name\nEve\n", "event": hidden.pk}, format="json"
    )
    assert mine.status_code == 200, mine.content
