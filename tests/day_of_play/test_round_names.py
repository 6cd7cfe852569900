"""Round names of a Consolation whose losers come in over two Main rounds: a 14-player
Main feeding rounds 1 and 2 gives a 10-player Consolation whose first two rounds both
have four matches; they were both called "Quarter-final"."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def test_a_ten_player_consolation_has_distinct_round_names() -> None:
    director = UserFactory()
    t = tournament_create(name="Weekend", slug="weekend", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[5], slug="main")
    consolation = event_create(
        tournament=t, name="Consolation", match_lengths=[3], feeds_from=main, feed_rounds=[1, 2]
    )
    for i in range(14):
        entry_register(event=main, player=player_create(name=f"P {i}"))
    draw_make(event=main, method="rating", by=director)
    names = list(consolation.rounds.order_by("number").values_list("name", flat=True))
    assert names == ["Round 1", "Quarter-final", "Semi-final", "Final"]
    assert len(set(names)) == len(names)
