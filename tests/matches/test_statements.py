"""The ledger's compiled statements do what the ORM calls they replace do.

On PostgreSQL they also end up prepared (planned once per connection); everywhere they
go through Django's cursor wrapper, so they are counted and logged like any query.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction
from django.db.models import Count, QuerySet
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import Game, Match, Submission
from matches.selectors import match_every_game
from matches.services.ledger import match_lock
from matches.services.reporting import GameInput, game_report
from matches.statements import MARKER, CompiledSelect, insert_row, update_row
from tests.factories import MatchFactory
from tests.matches.conftest import META, Table

pytestmark = pytest.mark.django_db

RELATED = ("event", "round", "entry1", "entry2", "entry1__player", "entry2__player")


def _state(obj: object) -> dict[str, object]:
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def _related(match: Match) -> list[dict[str, object]]:
    found = []
    for path in RELATED:
        obj: object = match
        for name in path.split("__"):
            obj = getattr(obj, name)
        found.append(_state(obj))
    return found


def test_the_locked_match_is_the_querysets_with_its_related_rows_loaded(table: Table) -> None:
    game_report(
        match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
    )
    expected = Match.objects.select_related(
        "event", "round", "entry1__player", "entry2__player"
    ).get(pk=table.match.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = match_lock(match_id=table.match.pk)
        assert _state(locked) == _state(expected)
        assert _related(locked) == _related(expected)  # no query for any of them
    assert len([q for q in queries if q["sql"].startswith("SELECT")]) == 1
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[-1]["sql"]


@pytest.mark.parametrize("match_id", [0, -5, 10**9, 2**63, 2**70])
def test_no_match_is_a_404_whatever_the_id(db: None, match_id: int) -> None:
    with transaction.atomic(), pytest.raises(Http404):
        match_lock(match_id=match_id)


def test_compiled_games_are_the_querysets_in_order_without_their_moves(table: Table) -> None:
    for winner in (table.p1, table.p2, table.p1):
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=winner), meta=META
        )
    expected = list(
        Game.objects.filter(match_id=table.match.pk).order_by("number", "id").defer("moves")
    )
    games = match_every_game(match=table.match)
    assert [_state(g) for g in games] == [_state(g) for g in expected]
    assert [g.number for g in games] == [1, 2, 3]
    assert "moves" in games[0].get_deferred_fields()


def test_annotations_come_back_on_the_objects(table: Table) -> None:
    def counted(using: str) -> QuerySet[Match]:
        return Match.objects.annotate(n=Count("games")).filter(pk=MARKER)

    game_report(
        match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
    )
    found = CompiledSelect(Match, counted).first(table.match.pk)
    assert found is not None
    assert found.n == 1  # type: ignore[attr-defined]
    assert CompiledSelect(Match, counted).first(MARKER) is None


def test_a_select_with_other_parameters_is_refused(db: None) -> None:
    def two(using: str) -> QuerySet[Match]:
        return Match.objects.filter(pk=MARKER, slot=3)

    with pytest.raises(ValueError, match="exactly one parameter"):
        CompiledSelect(Match, two).rows(1)


def test_insert_row_saves_like_save_with_the_computed_column_read_back(table: Table) -> None:
    before = timezone.now()
    first = Submission(match=table.match, kind="game", payload={"a": [1, "é"]}, ip_address="::1")
    sql = "SELECT COALESCE(MAX(version), 0) + 10 FROM matches_submission WHERE match_id = %s"
    insert_row(first, computed={"version": (sql, [table.match.pk])})
    second = Submission(match=table.match, kind="game", payload={})
    insert_row(second, computed={"version": (sql, [table.match.pk])})
    assert (first.version, second.version) == (10, 20)
    assert not first._state.adding
    stored = Submission.objects.get(pk=first.pk)
    assert _state(stored) == _state(first)
    assert stored.created_at >= before
    assert stored.payload == {"a": [1, "é"]}


def test_update_row_writes_the_fields_like_save_with_update_fields(db: None) -> None:
    match = MatchFactory()
    stamp = match.updated_at
    match.score1, match.status, match.winner = 3, Match.Status.PLAYING, match.entry1
    match.started_at = timezone.now() - dt.timedelta(minutes=5)
    match.slot = 999  # not among the fields: not written
    update_row(match, ["score1", "status", "winner", "started_at", "updated_at"])
    stored = Match.objects.get(pk=match.pk)
    assert (stored.score1, stored.status, stored.winner_id) == (3, "playing", match.entry1_id)
    assert stored.started_at == match.started_at
    assert stored.updated_at == match.updated_at > stamp  # auto_now, as save() does
    assert stored.slot != 999


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: PostgreSQL")
def test_on_postgresql_the_lock_is_prepared_after_a_few_reports(table: Table) -> None:
    for winner in (table.p1, table.p2, table.p1, table.p2):
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=winner), meta=META
        )
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('FROM "matches_match"' in s and "FOR UPDATE" in s for s in prepared)
    assert any(s.startswith('INSERT INTO "matches_submission"') for s in prepared)
    assert any(s.startswith('UPDATE "matches_match"') for s in prepared)
