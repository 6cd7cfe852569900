"""Final places and prize money (pure): properties over random fields and splits."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.formats.errors import FormatError
from tournament.formats.places import Place, places_by_exit, places_by_rank, places_within
from tournament.formats.prizes import payouts, prize_pool


def _partitions(places: dict[int, Place]) -> bool:
    """Every place 1..field is held, each span by exactly as many entrants as it spans."""
    taken: dict[Place, int] = {}
    for place in places.values():
        taken[place] = taken.get(place, 0) + 1
    spans = sorted(taken)
    at = 1
    for place in spans:
        if place.best != at or taken[place] != place.worst - place.best + 1:
            return False
        at = place.worst + 1
    return at == len(places) + 1


def _bracket_exits(size_log: int, field: int) -> dict[int, int | None]:
    """A single-elimination bracket of ``field`` entrants played out: entrant i loses
    in the round given by the highest power of two dividing its seat (seat 0 wins)."""
    rounds = size_log
    exits: dict[int, int | None] = {0: None}
    for seat in range(1, field):
        lost = 1
        while seat % (2**lost) == 0 and lost < rounds:
            lost += 1
        exits[seat] = lost
    return exits


def test_a_full_bracket_of_sixteen_places_as_players_expect() -> None:
    places = places_by_exit(_bracket_exits(4, 16))
    counts: dict[str, int] = {}
    for place in places.values():
        counts[str(place)] = counts.get(str(place), 0) + 1
    assert counts == {"1st": 1, "2nd": 1, "3rd-4th": 2, "5th-8th": 4, "9th-16th": 8}


@given(st.dictionaries(st.integers(0, 60), st.integers(1, 7), min_size=1, max_size=40))
def test_exit_places_partition_the_field_and_the_champion_is_first(
    lost: dict[int, int],
) -> None:
    champion = max(lost) + 1
    exits: dict[int, int | None] = {**lost, champion: None}
    places = places_by_exit(exits)
    assert _partitions(places)
    assert places[champion] == Place(1, 1)
    for a in lost:  # who went further is placed better
        for b in lost:
            if lost[a] > lost[b]:
                assert places[a].worst < places[b].best


@given(st.lists(st.integers(1, 10), min_size=1, max_size=30))
def test_rank_places_partition_the_field(ranks: list[int]) -> None:
    assert _partitions(places_by_rank(dict(enumerate(ranks))))


@given(
    st.dictionaries(st.integers(0, 40), st.integers(1, 6), min_size=1, max_size=30),
    st.data(),
)
def test_places_within_a_subset_partition_it(lost: dict[int, int], data: st.DataObject) -> None:
    places = places_by_exit(lost)
    subset = data.draw(st.lists(st.sampled_from(sorted(lost)), min_size=1, unique=True))
    inside = places_within(places, subset)
    assert _partitions(inside)
    for a in subset:
        for b in subset:
            if places[a].best < places[b].best:
                assert inside[a].best < inside[b].best


def test_two_champions_are_refused() -> None:
    with pytest.raises(FormatError) as caught:
        places_by_exit({1: None, 2: None, 3: 1})
    assert caught.value.code == "event-unfinished"


@given(
    st.dictionaries(st.integers(0, 40), st.integers(1, 6), min_size=1, max_size=30),
    st.lists(st.integers(0, 40), max_size=8).filter(lambda s: sum(s) <= 100),
    st.integers(0, 5000),
    st.sampled_from([1, 5, 10]),
)
def test_prizes_never_exceed_the_pool_and_shared_places_share_equally(
    lost: dict[int, int], split: list[int], pool: int, unit: int
) -> None:
    places = places_by_exit(lost)
    pay = payouts(places, pool=Decimal(pool), split=split, unit=unit)
    assert pay.paid_out + pay.remainder == pay.pool == pool
    assert pay.remainder >= 0
    assert sum(pay.amounts.values(), Decimal(0)) == pay.paid_out
    for amount in pay.amounts.values():
        assert amount > 0
        assert amount % unit == 0
    for a in places:
        for b in places:
            if places[a] == places[b]:
                assert pay.amounts.get(a) == pay.amounts.get(b)
            elif places[a].best < places[b].best and split == sorted(split, reverse=True):
                assert pay.amounts.get(a, 0) >= pay.amounts.get(b, 0)
    # Rounding loses less than one unit per player in a paid place (players sharing a
    # place each round their share down), besides the unallotted percent.
    allotted = Decimal(pool) * min(sum(split), 100) / 100
    in_paid_places = sum(1 for place in places.values() if place.best <= len(split))
    if len(places) >= len(split):
        assert pay.paid_out > allotted - unit * max(1, in_paid_places)


def test_the_pool_counts_paid_entries_and_added_money() -> None:
    assert prize_pool(entry_fee=Decimal("25"), paid_entries=12, added=Decimal("100")) == 400


def test_a_split_over_a_hundred_is_refused() -> None:
    with pytest.raises(FormatError):
        payouts({1: Place(1, 1)}, pool=Decimal(100), split=[80, 30])
