"""Round robin: every pair exactly once, a bye each for odd fields, snake groups."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.formats.errors import FormatError
from tournament.formats.round_robin import (
    grouped_round_robin,
    round_robin_round,
    round_robin_schedule,
    snake_groups,
)
from tournament.formats.slots import BYE


def check_schedule(players: list[int]) -> None:
    schedule = round_robin_schedule(players)
    n = len(players)
    assert len(schedule) == (n if n % 2 else n - 1)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for matches in schedule:
        seen = [p for pair in matches for p in pair if p is not BYE]
        assert sorted(seen) == sorted(players)  # everyone exactly once a round
        for a, b in matches:
            if b is BYE:
                assert a is not BYE
                byes[a] += 1
            else:
                assert a is not BYE
                assert players.index(a) < players.index(b)  # better seed first
                met[frozenset((a, b))] += 1
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(players) if n % 2 else Counter())


@pytest.mark.parametrize("n", range(2, 31))
def test_every_pair_once(n: int) -> None:
    check_schedule([100 + 7 * k for k in range(n)])


@given(
    st.lists(st.integers(min_value=-(10**6), max_value=10**6), min_size=2, max_size=24, unique=True)
)
def test_every_pair_once_for_any_ids(players: list[int]) -> None:
    check_schedule(players)


def test_needs_two_players() -> None:
    with pytest.raises(FormatError):
        round_robin_schedule([1])


@pytest.mark.parametrize(("n", "k"), [(4, 2), (7, 3), (10, 3), (16, 4), (33, 5), (9, 1)])
def test_snake_groups(n: int, k: int) -> None:
    seeded = list(range(1, n + 1))
    groups = snake_groups(seeded, groups=k)
    assert sorted(p for g in groups for p in g) == seeded
    sizes = [len(g) for g in groups]
    assert max(sizes) - min(sizes) <= 1
    assert [g[0] for g in groups] == list(range(1, k + 1))  # top seeds head the groups
    if n >= 2 * k:
        assert [g[1] for g in groups] == list(range(2 * k, k, -1))  # ... then back again


def test_snake_groups_refuse_tiny_groups() -> None:
    with pytest.raises(FormatError) as err:
        snake_groups([1, 2, 3], groups=2)
    assert err.value.code == "bad-group-count"


def test_grouped_schedule() -> None:
    groups = grouped_round_robin(list(range(1, 12)), groups=3)
    assert [g.number for g in groups] == [1, 2, 3]
    assert [g.players for g in groups] == [(1, 6, 7), (2, 5, 8, 11), (3, 4, 9, 10)]
    assert [len(g.rounds) for g in groups] == [3, 3, 3]
    for g in groups:
        check_schedule(list(g.players))


@pytest.mark.parametrize("n", [2, 3, 4, 7, 10, 33])
def test_one_round_alone_matches_the_schedule(n: int) -> None:
    players = list(range(50, 50 + n))
    schedule = round_robin_schedule(players)
    assert [round_robin_round(players, r) for r in range(1, len(schedule) + 1)] == schedule
    with pytest.raises(FormatError):
        round_robin_round(players, len(schedule) + 1)
