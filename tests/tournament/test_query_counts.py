"""Brackets and standings of a 1,024-player event take as many SQL queries as of a 64-player one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match
from tests.factories import TournamentFactory
from tournament.api.serializers.brackets import BracketSerializer, StandingsSerializer
from tournament.models import Entry, Event, Player, Round
from tournament.selectors import bracket_tree, standings
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.rounds import round_start

pytestmark = pytest.mark.django_db


def _field(event: Event, size: int) -> None:
    players = Player.objects.bulk_create(
        Player(name=f"P{event.pk}-{k:04d}", rating=1400 + (k * 7) % 600) for k in range(size)
    )
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)


def _play_round_one(event: Event) -> None:
    """Decide round 1 at once (test data: entry1 wins 7-3)."""
    first = event.rounds.get(bracket=Round.Bracket.MAIN, number=1)
    round_start(round_=first)
    Match.objects.filter(round=first, is_bye=False).update(
        status=Match.Status.COMPLETE,
        winner=F("entry1"),
        decision=Match.Decision.PLAY,
        score1=7,
        score2=3,
        decided_at=timezone.now(),
    )


def _main(size: int) -> Event:
    tournament = TournamentFactory()
    main = event_create(tournament=tournament, name="Main", match_lengths=[7])
    event_create(tournament=tournament, name="Consolation", feeds_from=main, feed_rounds=[1, 2])
    _field(main, size)
    draw_make(event=main, method="rating")
    _play_round_one(main)
    return main


def _swiss(size: int) -> Event:
    tournament = TournamentFactory()
    swiss = event_create(tournament=tournament, name="Swiss", format="swiss", rounds=5)
    _field(swiss, size)
    draw_make(event=swiss, method="rating")
    _play_round_one(swiss)
    return swiss


def _count(work: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as ctx:
        work()
    return len(ctx.captured_queries)


def test_bracket_selector_and_its_serialisation_do_not_grow_with_the_field() -> None:
    counts = {}
    for size in (64, 1024):
        event = _main(size)
        counts[size] = _count(lambda e=event: BracketSerializer(bracket_tree(e)).data)
        tree = bracket_tree(event)
        assert sum(len(r.matches) for p in tree.parts for r in p.rounds) == size - 1
    assert counts[64] == counts[1024] <= 4


def test_standings_selector_does_not_grow_with_the_field() -> None:
    counts = {}
    for size in (64, 1024):
        event = _swiss(size)
        rows: list = []
        counts[size] = _count(
            lambda e=event, rows=rows: rows.extend(
                StandingsSerializer({"event": e.pk, "tiebreaks": [], "rows": standings(e)}).data[
                    "rows"
                ]
            )
        )
        assert len(rows) == size
        assert rows[0]["wins"] == 1
    assert counts[64] == counts[1024] <= 3


PATHS = [
    "/api/events/{main}/bracket/",
    "/api/events/{swiss}/standings/",
    "/api/events/{main}/",
    "/api/matches/?event={main}&round=1",
    "/api/matches/?event={main}&status=complete",
    "/api/matches/?event={swiss}",
]


def test_endpoints_do_not_grow_with_the_field() -> None:
    counts: dict[str, dict[int, int]] = {path: {} for path in PATHS}
    for size in (64, 1024):
        ids = {"main": _main(size).pk, "swiss": _swiss(size).pk}
        client = APIClient()
        for path in PATHS:
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(path.format(**ids))
            assert response.status_code == 200, response.content
            counts[path][size] = len(ctx.captured_queries)
    for path, by_size in counts.items():
        assert by_size[64] == by_size[1024] <= 8, (path, by_size)
