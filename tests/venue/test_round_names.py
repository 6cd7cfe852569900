"""Round names of a Consolation whose losers come in over two Main rounds: a 14-player
Main feeding rounds 1 and 2 gives a 10-player Consolation whose first two rounds both
have four matches; they were both called "Quarter-final"."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tournament import services

pytestmark = pytest.mark.django_db


def test_a_ten_player_consolation_has_distinct_round_names() -> None:
    director = UserFactory()
    t = services.tournament_create(name="Weekend", slug="weekend", director=director)
    main = services.event_create(tournament=t, name="Main", match_lengths=[5], slug="main")
    consolation = services.event_create(
        tournament=t, name="Consolation", match_lengths=[3], feeds_from=main, feed_rounds=[1, 2]
    )
    for i in range(14):
        services.entry_register(event=main, player=services.player_create(name=f"P {i}"))
    services.draw_make(event=main, method="rating", by=director)
    names = list(consolation.rounds.order_by("number").values_list("name", flat=True))
    assert names == ["Round 1", "Quarter-final", "Semi-final", "Final"]
    assert len(set(names)) == len(names)
