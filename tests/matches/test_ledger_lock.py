"""The ledger's match lock and writes, through Django's public API (issue 14).

One SELECT locks the match (FOR NO KEY UPDATE on PostgreSQL) and loads what access
checks and the answer read, equal to what the ORM loads; the submission's version is
computed in its INSERT and read back with the row. (Which statements are prepared on the
connection: ``test_prepared_statements.py``.)
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches.models import Game, Match, Submission
from matches.selectors import match_every_game
from matches.services.ledger import MatchNotFound, match_lock
from matches.services.reporting import GameInput, game_report
from tests.matches.conftest import META, Table

pytestmark = pytest.mark.django_db

RELATED = ("event", "round", "entry1__player", "entry2__player")


def test_the_locked_match_comes_with_its_related_rows_in_one_select(table: Table) -> None:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = match_lock(match_id=table.match.pk)
        for path in RELATED:
            obj: object = locked
            for name in path.split("__"):
                obj = getattr(obj, name)
            assert obj is not None
    selects = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 1, selects
    if connection.features.has_select_for_no_key_update:
        assert "FOR NO KEY UPDATE" in selects[0]


def _state(obj: object) -> dict[str, object]:
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def test_the_locked_match_and_its_rows_equal_what_the_orm_loads(table: Table) -> None:
    game_report(
        match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
    )
    expected = Match.objects.select_related(
        "event", "round", "entry1__player", "entry2__player"
    ).get(pk=table.match.pk)
    with transaction.atomic():
        locked = match_lock(match_id=table.match.pk)
    assert _state(locked) == _state(expected)
    for path in RELATED:
        got, want = locked, expected
        for name in path.split("__"):
            got, want = getattr(got, name), getattr(want, name)
        assert _state(got) == _state(want), path
    games = match_every_game(match=locked)
    assert [_state(g) for g in games] == [
        _state(g) for g in Game.objects.filter(match=locked).defer("moves").order_by("number")
    ]


@pytest.mark.parametrize("match_id", [0, -1, 2**63, 10**30])
def test_no_such_match_is_404(db: None, match_id: int) -> None:
    with transaction.atomic(), pytest.raises(MatchNotFound):
        match_lock(match_id=match_id)


def test_submission_versions_come_from_the_insert_and_are_read_back(table: Table) -> None:
    game_report(
        match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
    )
    with CaptureQueriesContext(connection) as queries:
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
        )
    # The submission's INSERT (on PostgreSQL inside a WITH, with its game's)
    inserts = [
        q["sql"] for q in queries if q["sql"].startswith(("INSERT INTO", "WITH p AS (INSERT"))
    ]
    assert any("MAX" in sql for sql in inserts), inserts
    versions = list(
        Submission.objects.filter(match=table.match)
        .order_by("pk")
        .values_list("version", flat=True)
    )
    assert versions == [1, 2]
    assert Match.objects.get(pk=table.match.pk).score1 == 2
