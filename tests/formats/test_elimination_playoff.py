"""The endings of an elimination Swiss (pure): the three-player playoff over every
outcome, the Wisconsin knockout over random fields and results, and the final places
they give with the Swiss records below them."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.elimination_playoff import (
    KNOCKOUT,
    THREE_PLAYER,
    decided_pairing,
    knockout_exits,
    knockout_next,
    knockout_seeds,
    playoff_exits,
    playoff_next,
    three_player_exits,
    three_player_next,
)
from tournament.formats.errors import FormatError
from tournament.formats.places import Place
from tournament.formats.swiss_elimination import EliminationRecord, elimination_places


@pytest.mark.parametrize("outcome", list(itertools.product((1, 2), repeat=3)))
def test_every_three_player_playoff(outcome: tuple[int, int, int]) -> None:
    """Two play; the loser meets the third; the winners meet in the final. Nobody is
    out after one loss; the final's winner is 1st, its loser 2nd, match 2's loser 3rd."""
    seeds = [10, 20, 30]
    winners: list[list[int | None]] = []
    played: list[tuple[int, int]] = []
    for side in outcome:
        pairing = three_player_next(seeds, winners)
        assert pairing is not None
        assert len(pairing) == 1
        one, two = pairing[0]
        assert one is not None
        assert two is not None
        played.append((one, two))
        winners.append([one if side == 1 else two])
    assert three_player_next(seeds, winners) is None
    assert set(played[0]) == {10, 20}
    first_loser = (set(played[0]) - {winners[0][0]}).pop()
    assert set(played[1]) == {first_loser, 30}
    assert set(played[2]) == {winners[0][0], winners[1][0]}
    exits = three_player_exits(seeds, winners)
    assert sorted(exits.values(), key=lambda v: v or 99) == [2, 3, None]
    assert exits[winners[2][0]] is None  # the final's winner
    places = elimination_places({e: EliminationRecord(2, 1, None) for e in seeds}, playoff=exits)
    assert sorted(places.values()) == [Place(1, 1), Place(2, 2), Place(3, 3)]
    assert places[winners[2][0]] == Place(1, 1)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=2, max_value=40), seed=st.integers(0, 2**32))
def test_random_knockouts(n: int, seed: int) -> None:
    rng = random.Random(seed)
    seeds = list(range(100, 100 + n))
    winners: list[list[int | None]] = []
    while (pairings := knockout_next(seeds, winners)) is not None:
        if not winners:  # round 1: the byes go to the top seeds
            byes = [a for a, b in pairings if b is None]
            assert set(byes) == set(seeds[: len(byes)])
        decided: list[int | None] = []
        for one, two in pairings:
            if one is None or two is None:
                decided.append(one if two is None else two)
            else:
                decided.append(rng.choice([one, two]))
        winners.append(decided)
    exits = knockout_exits(seeds, winners)
    assert sum(v is None for v in exits.values()) == 1  # one champion
    champion = next(e for e, v in exits.items() if v is None)
    assert winners[-1] == [champion]
    places = elimination_places({e: EliminationRecord(3, 1, None) for e in seeds}, playoff=exits)
    assert places[champion] == Place(1, 1)
    # The places partition 1..n; those out in the same round share.
    spans = set(places.values())
    assert sum(p.worst - p.best + 1 for p in spans) == n
    for a, b in itertools.combinations(seeds, 2):
        assert (places[a] == places[b]) == (exits[a] == exits[b])


def test_the_playoff_is_placed_above_the_swiss() -> None:
    records = {
        1: EliminationRecord(3, 1, None),
        2: EliminationRecord(3, 1, None),
        3: EliminationRecord(2, 2, None),
        4: EliminationRecord(1, 3, 4),
        5: EliminationRecord(0, 3, 3),
    }
    exits = playoff_exits(KNOCKOUT, [1, 2, 3], [[1, 2], [2]])
    assert exits == {1: 2, 2: None, 3: 1}
    places = elimination_places(records, playoff=exits)
    assert [places[e] for e in (2, 1, 3, 4, 5)] == [Place(k, k) for k in range(1, 6)]


def test_knockout_seeds_by_losses_then_record() -> None:
    assert knockout_seeds([5, 6, 7], {5: 1, 6: 0, 7: 1}, {5: 3, 6: 2, 7: 4}) == [6, 7, 5]


def test_a_player_gone_gives_the_other_a_bye() -> None:
    assert decided_pairing((1, 2), {2}) == (1, None)
    assert decided_pairing((1, 2), {1}) == (2, None)
    assert decided_pairing((1, 2), {1, 2}) == (None, None)
    assert decided_pairing((1, None), set()) == (1, None)


def test_bad_playoffs_are_refused() -> None:
    with pytest.raises(FormatError):
        three_player_next([1, 2], [])
    with pytest.raises(FormatError):
        three_player_next([1, 2, 3], [[1], [1], [1], [1]])
    with pytest.raises(FormatError):
        playoff_next("round-robin", [1, 2, 3], [])
    assert playoff_next(THREE_PLAYER, [1, 2, 3], []) == [(1, 2)]
