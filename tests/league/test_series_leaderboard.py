"""The series leaderboard selector on real rows: exact master points and a flat query count."""

from __future__ import annotations

import math

import pytest

from matches.models import Match
from tests.factories import EntryFactory, EventFactory, MatchFactory, RoundFactory
from tournament.models import Event, Series
from tournament.services.series import series_leaderboard

pytestmark = pytest.mark.django_db


def knockout(series: Series, size: int, *, length: int = 9, kind: str = "main") -> Event:
    """A played single-elimination event: in every match the lower entry index wins."""
    event = EventFactory(
        tournament__series=series, match_lengths=[length], kind=kind, status="finished"
    )
    alive = [EntryFactory(event=event) for _ in range(size)]
    number = 1
    while len(alive) > 1:
        rnd = RoundFactory(event=event, number=number)
        winners = []
        for slot in range(len(alive) // 2):
            one, two = alive[2 * slot], alive[2 * slot + 1]
            MatchFactory(
                round=rnd,
                slot=slot,
                entry1=one,
                entry2=two,
                status=Match.Status.COMPLETE,
                decision=Match.Decision.PLAY,
                winner=one,
                score1=length,
            )
            winners.append(one)
        alive, number = winners, number + 1
    event.champion = alive[0]
    event.save()
    return event


def test_knockout_master_points_are_rounds_survived_twice_over() -> None:
    series = Series.objects.create(name="S", slug="s")
    event = knockout(series, 8)
    board = series_leaderboard(series=series)
    entries = list(event.entries.order_by("pk"))
    points = {r.player_id: r.points for r in board.rows}
    unit = math.sqrt(9)
    # Entry i survives 3 rounds (champion), 2 (finalist), 1 (semi-finals) or 0.
    survived = [3, 0, 1, 0, 2, 0, 1, 0]
    for entry, rounds in zip(entries, survived, strict=True):
        assert points[entry.player_id] == pytest.approx(round(2 * rounds * unit, 2))
    assert [r.rank for r in board.rows] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_a_table_series_and_a_consolation_at_half_weight() -> None:
    series = Series.objects.create(name="T", slug="t", scheme="table", points_table=[10, 6, 3, 3])
    knockout(series, 4, kind="main")
    knockout(series, 4, kind="consolation")
    board = series_leaderboard(series=series)
    assert sorted((r.points for r in board.rows), reverse=True)[:3] == [10, 6, 5]
    assert {r.events for r in board.rows} == {1}


def test_the_query_count_does_not_grow_with_the_field(django_assert_num_queries) -> None:
    small, large = Series.objects.create(slug="a"), Series.objects.create(slug="b")
    knockout(small, 4)
    knockout(large, 32)
    knockout(large, 16, kind="consolation")
    with django_assert_num_queries(4):
        assert len(series_leaderboard(series=small).rows) == 4
    with django_assert_num_queries(4):
        assert len(series_leaderboard(series=large).rows) == 48
