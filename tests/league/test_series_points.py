"""Series points (pure): the master-point formula's promises and the table scheme's ties."""

from __future__ import annotations

import doctest
import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.formulas import series
from tournament.formulas.series import EventResult


def test_doctests() -> None:
    result = doctest.testmod(series)
    assert result.attempted > 8
    assert result.failed == 0


@given(st.integers(min_value=1, max_value=7), st.sampled_from([1, 5, 7, 11, 17]))
def test_knockout_placement_counts_the_rounds_survived(k: int, length: int) -> None:
    field = 2**k
    # Player i survived r rounds: winners of round r lose in round r + 1.
    results = []
    for i in range(field):
        survived = k if i == 0 else k - math.ceil(math.log2(i + 1))
        results.append(EventResult(i, (survived,), (length,) * survived))
    points = series.event_points(
        results, scheme=series.MASTER_POINTS, kind="main", first_length=length
    )
    for result in results:
        survived = int(result.record[0])
        assert points[result.player] == pytest.approx(2 * survived * math.sqrt(length))


records = st.dictionaries(
    st.integers(0, 200), st.tuples(st.integers(0, 5), st.integers(-20, 20)), min_size=1
)


@given(records)
def test_places_span_the_field_without_gaps(recs: dict[int, tuple[int, int]]) -> None:
    placed = series.places(recs)
    spans = sorted(set(placed.values()))
    assert spans[0][0] == 1
    assert spans[-1][1] == len(recs)
    for (_, worst), (best, _) in itertools.pairwise(spans):
        assert best == worst + 1
    for key, (best, worst) in placed.items():
        assert worst - best + 1 == sum(1 for r in recs.values() if r == recs[key])


@given(records, st.lists(st.integers(0, 50), max_size=12))
def test_a_table_hands_out_exactly_its_points(
    recs: dict[int, tuple[int, int]], table: list[int]
) -> None:
    results = [EventResult(k, v, ()) for k, v in recs.items()]
    points = series.event_points(
        results, scheme=series.TABLE, kind="main", first_length=7, table=table
    )
    assert sum(points.values()) == pytest.approx(sum(table[: len(recs)]))


def test_consolation_counts_half_and_unknown_schemes_are_refused() -> None:
    results = [EventResult("a", (1,), (9,)), EventResult("b", (0,), ())]
    main = series.event_points(results, scheme="master-points", kind="main", first_length=9)
    cons = series.event_points(results, scheme="master-points", kind="consolation", first_length=9)
    assert cons["a"] == pytest.approx(main["a"] / 2) == pytest.approx(3.0)
    with pytest.raises(ValueError, match="unknown series scheme"):
        series.event_points(results, scheme="elo", kind="main", first_length=9)


def test_leaderboard_adds_events_and_shares_ranks() -> None:
    board = series.leaderboard([{"a": 5.0, "b": 2.0}, {"b": 3.0, "c": 1.0}, {"c": 0.5}])
    assert [(s.rank, s.player, s.points, s.events) for s in board] == [
        (1, "a", 5.0, 1),
        (1, "b", 5.0, 2),
        (3, "c", 1.5, 2),
    ]
