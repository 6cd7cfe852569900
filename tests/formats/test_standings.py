"""Standings: tie-breaks, shared ranks, and the ranking as a total order."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.errors import FormatError
from tournament.formats.standings import TIEBREAKS, MatchResult, StandingRow, rank_entrants


def ranks(rows: list[StandingRow]) -> list[tuple[int, int]]:
    return [(row.rank, row.entrant) for row in rows]


def test_wins_then_points() -> None:
    results = [
        MatchResult(1, 2, winner=1, points_a=7, points_b=2),
        MatchResult(3, 4, winner=3, points_a=7, points_b=6),
        MatchResult(1, 3, winner=3, points_a=5, points_b=7),
        MatchResult(2, 4, winner=2, points_a=7, points_b=0),
    ]
    rows = rank_entrants([1, 2, 3, 4], results, ["wins", "points_diff"])
    assert ranks(rows) == [(1, 3), (2, 1), (3, 2), (4, 4)]
    assert [dict(r.values) for r in rows] == [
        {"wins": 2, "points_diff": 3},
        {"wins": 1, "points_diff": 3},
        {"wins": 1, "points_diff": 2},
        {"wins": 0, "points_diff": -8},
    ]
    assert [(r.played, r.wins, r.losses) for r in rows] == [
        (2, 2, 0),
        (2, 1, 1),
        (2, 1, 1),
        (2, 0, 2),
    ]


def test_points_diff_orders_equal_wins() -> None:
    results = [
        MatchResult(1, 2, winner=1, points_a=7, points_b=6),
        MatchResult(3, 4, winner=3, points_a=7, points_b=0),
    ]
    rows = rank_entrants([1, 2, 3, 4], results, ["wins", "points_diff"])
    assert ranks(rows) == [(1, 3), (2, 1), (3, 2), (4, 4)]
    assert rows[0].values == {"wins": 1, "points_diff": 7}
    assert rows[3].values == {"wins": 0, "points_diff": -7}


def test_head_to_head_inside_the_tied_group_only() -> None:
    # 1, 2, 3 all on 2 wins; 1 beat 2, 2 beat 3, 3 beat 1 (a cycle): head to head ties them.
    # 4 beat 1 earlier but is not in the tied group, so that win does not count.
    results = [
        MatchResult(1, 2, winner=1),
        MatchResult(2, 3, winner=2),
        MatchResult(3, 1, winner=3),
        MatchResult(2, 5, winner=2),
        MatchResult(3, 5, winner=3),
        MatchResult(1, 5, winner=1),
        MatchResult(4, 5, winner=4),
    ]
    rows = rank_entrants([1, 2, 3, 4, 5], results, ["wins", "head_to_head"])
    assert ranks(rows) == [(1, 1), (1, 2), (1, 3), (4, 4), (5, 5)]
    assert {r.values["head_to_head"] for r in rows[:3]} == {1}
    # Break the cycle: 1 also beat 3 in a second meeting.
    rows = rank_entrants(
        [1, 2, 3, 4, 5], [*results, MatchResult(1, 3, winner=1)], ["wins", "head_to_head"]
    )
    assert ranks(rows)[0] == (1, 1)


def test_opponents_wins_and_byes() -> None:
    results = [
        MatchResult(1, None, winner=1, bye=True),
        MatchResult(2, 3, winner=2, points_a=5, points_b=3),
        MatchResult(1, 2, winner=2, points_a=1, points_b=5),
        MatchResult(3, None, winner=3, bye=True),
    ]
    rows = {r.entrant: r for r in rank_entrants([1, 2, 3], results, ["wins", "opponents_wins"])}
    assert (rows[1].wins, rows[1].played, rows[1].losses) == (1, 1, 1)  # a bye is a win, unplayed
    assert rows[1].values["opponents_wins"] == 2  # met 2 (2 wins); the bye adds nothing
    assert rows[2].values["opponents_wins"] == 2  # met 3 (1 win, the bye) and 1 (1 win)
    assert rows[3].values["opponents_wins"] == 2


def test_everyone_listed_even_without_results() -> None:
    rows = rank_entrants([5, 6, 7], [], ["wins"])
    assert ranks(rows) == [(1, 5), (1, 6), (1, 7)]


@pytest.mark.parametrize(
    ("results", "tiebreaks", "code"),
    [
        ([], [], "no-tiebreaks"),
        ([], ["wins", "elo"], "unknown-tiebreak"),
        ([], ["wins", "wins"], "repeated-tiebreak"),
        ([MatchResult(1, 9, winner=1)], ["wins"], "bad-result"),
        ([MatchResult(1, 2, winner=3)], ["wins"], "bad-result"),
        ([MatchResult(1, 1, winner=1)], ["wins"], "bad-result"),
        ([MatchResult(1, 2, winner=1, bye=True)], ["wins"], "bad-result"),
        ([MatchResult(1, 2, winner=1, points_a=-1)], ["wins"], "bad-result"),
    ],
)
def test_bad_input(results: list[MatchResult], tiebreaks: list[str], code: str) -> None:
    with pytest.raises(FormatError) as err:
        rank_entrants([1, 2, 3], results, tiebreaks)
    assert err.value.code == code


@st.composite
def events(draw: st.DrawFn) -> tuple[list[int], list[MatchResult], list[str]]:
    n = draw(st.integers(min_value=1, max_value=9))
    entrants = draw(st.permutations(list(range(1, n + 1))))
    results = []
    for _ in range(draw(st.integers(min_value=0, max_value=20))):
        a = draw(st.sampled_from(entrants))
        if n == 1 or draw(st.integers(0, 6)) == 0:
            results.append(MatchResult(a, None, winner=a, bye=True))
            continue
        b = draw(st.sampled_from([e for e in entrants if e != a]))
        pa, pb = draw(st.integers(0, 11)), draw(st.integers(0, 11))
        results.append(
            MatchResult(a, b, winner=draw(st.sampled_from([a, b])), points_a=pa, points_b=pb)
        )
    names = draw(st.permutations(sorted(TIEBREAKS)))
    tiebreaks = list(names[: draw(st.integers(1, len(names)))])
    return list(entrants), results, tiebreaks


@settings(max_examples=300, deadline=None)
@given(events())
def test_ranking_is_a_total_order_consistent_with_tiebreaks(
    event: tuple[list[int], list[MatchResult], list[str]],
) -> None:
    entrants, results, tiebreaks = event
    rows = rank_entrants(entrants, results, tiebreaks)
    assert sorted(r.entrant for r in rows) == sorted(entrants)
    keys = [tuple(r.values[name] for name in tiebreaks) for r in rows]
    for i, row in enumerate(rows):
        assert list(row.values) == tiebreaks
        # Competition ranking: one more than the number of entrants strictly ahead.
        assert row.rank == 1 + sum(1 for k in keys if k > keys[i])
    for i in range(len(rows) - 1):
        assert keys[i] >= keys[i + 1]  # lexicographically by the event's tie-breaks
        assert (rows[i].rank == rows[i + 1].rank) == (keys[i] == keys[i + 1])
    # Fully tied entrants keep the caller's order.
    for i in range(len(rows) - 1):
        if rows[i].rank == rows[i + 1].rank:
            assert entrants.index(rows[i].entrant) < entrants.index(rows[i + 1].entrant)


@settings(max_examples=100, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_order_of_results_does_not_matter(
    event: tuple[list[int], list[MatchResult], list[str]], rnd: object
) -> None:
    entrants, results, tiebreaks = event
    shuffled = list(results)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert rank_entrants(entrants, shuffled, tiebreaks) == rank_entrants(
        entrants, results, tiebreaks
    )


def test_wins_count_every_result() -> None:
    players = list(range(1, 7))
    results = [MatchResult(a, b, winner=min(a, b)) for a, b in itertools.combinations(players, 2)]
    rows = rank_entrants(players, results, ["wins"])
    assert [r.wins for r in rows] == [5, 4, 3, 2, 1, 0]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
