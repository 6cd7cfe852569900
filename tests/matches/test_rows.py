"""``matches/rows.py`` against the ORM it stands in for, on the database the run uses.

rows.py writes the report path's SQL once from the models' ``_meta`` and turns rows into
instances as Django's compiler does (``from_db``, the backend's and each field's
converters) and values into parameters as ``save()`` does (``pre_save``,
``get_db_prep_save``). Each test here compares it with the ORM doing the same thing, so
a change in any of those Django steps shows up as a difference; the first test makes a
Django upgrade stop here until someone has re-checked rows.py against it.
"""

from __future__ import annotations

from typing import Any

import django
import pytest
from django.db import connection, models, transaction
from django.utils import timezone

from matches.models import Game, Match
from matches.rows import lock_sql, match_game_rows, match_locked, row_insert, row_update
from tests.matches.conftest import Table

pytestmark = pytest.mark.django_db

#: The Django release rows.py was last checked against (its SQL, converters and
#: ``from_db``). On an upgrade: read the release notes for changes to ``Model.from_db``,
#: ``Field.pre_save``/``get_db_prep_save``/``from_db_value``, the backends'
#: ``get_db_converters`` and ``select_for_update``; run this file on SQLite and on
#: PostgreSQL; then set the new version here.
CHECKED_AGAINST = (6, 1, 3)


def test_rows_py_was_checked_against_this_django_version() -> None:
    assert django.VERSION[:3] == CHECKED_AGAINST, (
        f"Django is {django.get_version()}; matches/rows.py was checked against "
        f"{'.'.join(map(str, CHECKED_AGAINST))}: re-check it (see this module) and update "
        "CHECKED_AGAINST"
    )


def _values(obj: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _orm_match(pk: int) -> Match:
    return Match.objects.select_related("event", "round", "entry1__player", "entry2__player").get(
        pk=pk
    )


def test_the_lock_reads_what_the_orm_reads(table: Table) -> None:
    with transaction.atomic():
        locked = match_locked(table.match.pk)
    assert locked is not None
    orm = _orm_match(table.match.pk)
    assert _values(locked) == _values(orm)
    for name in ("event", "round", "entry1", "entry2"):
        assert _values(getattr(locked, name)) == _values(getattr(orm, name)), name
    for name in ("entry1", "entry2"):
        assert _values(getattr(locked, name).player) == _values(getattr(orm, name).player)
    assert not locked._state.adding
    assert locked._state.db == orm._state.db
    with transaction.atomic():
        assert match_locked(table.match.pk + 10_000) is None


def test_the_lock_is_the_same_sql_on_every_database(table: Table) -> None:
    """The SQLite run goes through the production read (only the lock clause differs)."""
    with transaction.atomic(), _statements() as seen:
        match_locked(table.match.pk)
    body = lock_sql().split(" FOR NO KEY UPDATE")[0]
    assert [s for s in seen if s.startswith("SELECT")] == [
        lock_sql() if connection.vendor == "postgresql" else body
    ]


def test_a_match_without_its_players_yet_reads_as_the_orm_does(db: None) -> None:
    from tests.factories import MatchFactory

    match = MatchFactory(entry2=None)
    with transaction.atomic():
        locked = match_locked(match.pk)
    assert locked is not None
    assert locked.entry2 is None
    assert _values(locked) == _values(_orm_match(match.pk))


def _game(match: Match, number: int, **kwargs: Any) -> Game:
    return Game(
        match=match,
        number=number,
        winner_side=1,
        cube=2,
        result=Game.Result.GAMMON,
        points=4,
        score_before1=0,
        score_before2=0,
        doubles=[{"by": 1, "turn": 3, "response": "take"}],
        moves=[{"kind": "roll", "side": 0, "dice": [3, 1], "play": "8/5 6/5"}],
        **kwargs,
    )


def test_an_insert_and_an_update_write_what_save_writes(table: Table) -> None:
    match = table.match
    ours, theirs = _game(match, 1), _game(match, 2)
    row_insert(ours)
    theirs.save(force_insert=True)
    assert ours.pk is not None
    assert not ours._state.adding
    stored = {g.number: _values(g) for g in Game.objects.filter(match=match)}
    for values in stored.values():
        values.pop("id")
        values.pop("number")
        values.pop("created_at")
    assert stored[1] == stored[2]
    assert Game.objects.get(pk=ours.pk).created_at is not None
    before = match.updated_at
    match.score1, match.started_at = 4, timezone.now()
    row_update(match, ["score1", "started_at", "updated_at"])
    reloaded = Match.objects.get(pk=match.pk)
    assert (reloaded.score1, reloaded.started_at) == (4, match.started_at)
    assert reloaded.updated_at == match.updated_at > before  # auto_now, as save() sets it


def test_a_row_and_its_children_go_in_together_as_save_writes_them(table: Table) -> None:
    """A submission with its key and its game: one statement on PostgreSQL, three on
    SQLite, and the same rows either way (ids set, foreign keys to the new submission)."""
    from matches.models import ReportKey, Submission

    match = table.match
    submission = Submission(
        match=match, version=1, kind="game", status="accepted", payload={"n": 1}
    )
    key = ReportKey(match_id=match.pk, key="k-1", status=0)
    ours, theirs = _game(match, 1), _game(match, 2)
    with _statements() as seen:
        row_insert(submission, children=[(key, "submission_id"), (ours, "submission_id")])
    assert len(seen) == (1 if connection.vendor == "postgresql" else 3)
    assert submission.pk is not None
    assert (key.submission_id, ours.submission_id) == (submission.pk, submission.pk)
    assert not ours._state.adding
    assert not key._state.adding
    assert ReportKey.objects.get(pk=key.pk).submission_id == submission.pk
    theirs.submission = submission
    theirs.save(force_insert=True)
    stored = {g.number: _values(g) for g in Game.objects.filter(match=match)}
    assert stored[1].pop("id") == ours.pk
    for values in stored.values():
        values.pop("id", None)
        values.pop("number")
        values.pop("created_at")
    assert stored[1] == stored[2]


def test_a_child_refused_by_a_constraint_leaves_nothing_of_the_family(table: Table) -> None:
    """A key already used: the unique constraint refuses the whole statement (PostgreSQL)
    or the key's insert (SQLite): inside the report's transaction, nothing stays."""
    from django.db import IntegrityError

    from matches.models import ReportKey, Submission

    match = table.match
    first = Submission(match=match, version=1, kind="game", status="accepted", payload={})
    row_insert(
        first, children=[(ReportKey(match_id=match.pk, key="same", status=0), "submission_id")]
    )
    second = Submission(match=match, kind="game", status="accepted", payload={}, version=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        row_insert(
            second,
            children=[
                (ReportKey(match_id=match.pk, key="same", status=0), "submission_id"),
                (_game(match, 1), "submission_id"),
            ],
        )
    assert Submission.objects.filter(match=match).count() == 1
    assert not Game.objects.filter(match=match).exists()


def test_the_games_read_what_the_orm_reads(table: Table) -> None:
    match = table.match
    for number in (2, 1):
        _game(match, number).save()
    rows = match_game_rows(match.pk)
    orm = list(Game.objects.filter(match_id=match.pk).order_by("number", "id").defer("moves"))
    assert [_values_but_moves(g) for g in rows] == [_values_but_moves(g) for g in orm]
    assert [g.number for g in rows] == [1, 2]


def _values_but_moves(game: Game) -> dict[str, Any]:
    return {
        k: v
        for k, v in game.__dict__.items()
        if k in {f.attname for f in Game._meta.concrete_fields} and k != "moves"
    }


class _statements:
    """The SQL run inside the block (Django's own query log for this connection)."""

    def __enter__(self) -> list[str]:
        self.seen: list[str] = []
        self.wrapper = connection.execute_wrapper(self._record)
        self.wrapper.__enter__()
        return self.seen

    def _record(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.seen.append(sql)
        return execute(sql, params, many, context)

    def __exit__(self, *exc: object) -> None:
        self.wrapper.__exit__(*exc)


def test_a_key_resolves_to_its_players_link_as_the_orm_resolves_it(table: Table) -> None:
    """The report path's rate limit asks ``link_key_of`` for a key it has not seen: a link's own key,
    an entry's older per-event key (its player's link) and an unknown key, as the ORM."""
    from matches.rows import link_key_of
    from tournament.models import PlayerLink

    entry = table.match.entry1
    link = PlayerLink.objects.create(
        tournament_id=entry.event.tournament_id, player=entry.player, key="theLinksOwnKey12345"
    )
    assert link_key_of(link.key) == link.key
    assert link_key_of(entry.report_key) == link.key
    assert link_key_of("nobodyHoldsThisKey123") is None


def test_the_rate_limit_asks_for_a_known_key_once_and_for_an_unknown_one_every_time(
    table: Table, django_assert_num_queries: Any
) -> None:
    """A phone sends every game with one key: its holder is looked up once per worker
    (then remembered), an entry's older key counts on its player's link, padding buys no
    new count, and a key nobody holds is asked again (it may be issued later)."""
    from matches import access
    from tournament.models import PlayerLink

    access._HOLDERS.clear()
    entry = table.match.entry1
    link = PlayerLink.objects.create(
        tournament_id=entry.event.tournament_id, player=entry.player, key="anotherLinksKey12345"
    )
    with django_assert_num_queries(1):
        assert access.key_holder(entry.report_key) == f"key:{link.key}"
    with django_assert_num_queries(0):
        assert access.key_holder(f"  {entry.report_key} ") == f"key:{link.key}"
    with django_assert_num_queries(2):
        assert access.key_holder("nobodyHoldsThisKey123") == "key:nobodyHoldsThisKey123"
        assert access.key_holder("nobodyHoldsThisKey123") == "key:nobodyHoldsThisKey123"
