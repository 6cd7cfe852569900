"""Two directors removing each other at the same instant (PostgreSQL row locks): the
tournament always keeps a director, and the loser gets a clear refusal."""

from __future__ import annotations

import pytest

from matches.errors import Invalid
from tests.factories import TournamentFactory, UserFactory
from tests.resilience.concurrency import run_at_once
from tournament.services.directors import tournament_director_remove

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(5))
def test_two_directors_removing_each_other_at_once_leave_one(attempt: int) -> None:
    ann, bob = UserFactory(), UserFactory()
    tournament = TournamentFactory(name=f"Race Open {attempt}", director=ann)
    tournament.directors.add(bob)
    outcomes = run_at_once(
        [
            lambda: tournament_director_remove(tournament=tournament, user=bob, by=ann),
            lambda: tournament_director_remove(tournament=tournament, user=ann, by=bob),
        ]
    )
    refused = [o.error for o in outcomes if o.error is not None]
    assert len(refused) == 1, [o.error for o in outcomes]
    assert isinstance(refused[0], Invalid)
    assert refused[0].code == "last-director"
    assert tournament.directors.count() == 1
