"""The rows every report reads and writes: plain SQL, written once per process.

Building the ORM's SQL on every report (the lock alone joins seven tables) cost more
CPU than PostgreSQL takes to run it (bench/RESULTS.md: the plain ORM reached 0.36-0.41
of the floor, this module 0.66-0.79, measured interleaved). Here the SQL is written once
from the models' ``_meta`` (the documented ``get_fields()``) and run through Django's
cursor, so queries are counted, logged and wrapped like any other. Rows become instances
as Django's compiler makes them: each column through the backend's converters and the
field's (``get_db_converters``), then ``Model.from_db``; values go in through
``pre_save`` and ``get_db_prep_save`` as ``save()`` sends them (no signals: nothing
listens to these models'). The SQL is the same text for every match, so psycopg
prepares it on each connection where the settings allow (``DATABASE_PREPARED_STATEMENTS``);
with that off, PgBouncer's transaction pooling serves every statement.

The SQL is the same on PostgreSQL and SQLite, so the SQLite test run reads through the
production path; only the lock clause (``FOR NO KEY UPDATE OF m``) is left out where
the database has no row locks, as the ORM's ``select_for_update`` is on SQLite.
``tests/matches/test_rows.py`` compares every function with the ORM and stops a Django
upgrade until this module has been re-checked against it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Col

from matches.models import Game, Match
from tournament.models import Entry, Event, Player, Round

#: The tables of the lock, their aliases, and how each joins (``None``: the match itself).
_JOINS: tuple[tuple[str, type[models.Model], str | None], ...] = (
    ("m", Match, None),
    ("ev", Event, 'JOIN {table} ev ON ev."id" = m."event_id"'),
    ("r", Round, 'JOIN {table} r ON r."id" = m."round_id"'),
    ("e1", Entry, 'LEFT JOIN {table} e1 ON e1."id" = m."entry1_id"'),
    ("p1", Player, 'LEFT JOIN {table} p1 ON p1."id" = e1."player_id"'),
    ("e2", Entry, 'LEFT JOIN {table} e2 ON e2."id" = m."entry2_id"'),
    ("p2", Player, 'LEFT JOIN {table} p2 ON p2."id" = e2."player_id"'),
)


def _fields(model: type[models.Model], *, skip: tuple[str, ...] = ()) -> list[Any]:
    """The model's columns in declaration order (the Model ``_meta`` API), ``skip`` left out."""
    return [
        f
        for f in model._meta.get_fields()
        if f.concrete and not f.many_to_many and f.attname not in skip  # type: ignore[union-attr]
    ]


@functools.cache
def lock_sql() -> str:
    """``SELECT`` the seven rows of a match by id, locking the match row only."""
    columns = ", ".join(
        f'{alias}."{f.column}"' for alias, model, _ in _JOINS for f in _fields(model)
    )
    joins = " ".join(
        join.format(table=f'"{model._meta.db_table}"') for _, model, join in _JOINS if join
    )
    return f'SELECT {columns} FROM "{Match._meta.db_table}" m {joins} WHERE m."id" = %s{_LOCK}'


#: The lock clause of :func:`lock_sql` (PostgreSQL's; left out without row locks).
_LOCK = " FOR NO KEY UPDATE OF m"


def lock_sql_for(connection: BaseDatabaseWrapper) -> str:
    """The lock's SQL as ``connection`` runs it: without the lock clause on a database
    without row locks (SQLite locks the whole database for the transaction's writes)."""
    if connection.features.has_select_for_update:
        assert connection.vendor == "postgresql", connection.vendor  # the clause is its
        return lock_sql()
    return lock_sql().removesuffix(_LOCK)


@functools.lru_cache(maxsize=256)
def _loading(
    model: type[models.Model], skip: tuple[str, ...], connection: BaseDatabaseWrapper
) -> tuple[list[str], list[tuple[Col, list[Any]]]]:
    """The attnames of ``model``'s columns (``skip`` left out) and, for each, its column and
    the converters Django's compiler applies to it: the backend's, then the field's own."""
    names, converters = [], []
    for field in _fields(model, skip=skip):
        col = field.get_col(model._meta.db_table)
        names.append(field.attname)
        converters.append(
            (col, connection.ops.get_db_converters(col) + col.get_db_converters(connection))
        )
    return names, converters


def _instance(
    model: type[models.Model], using: str, values: Sequence[Any], skip: tuple[str, ...] = ()
) -> Any:
    """A ``model`` instance from a row's values, as a queryset would make it."""
    connection = connections[using]
    names, converters = _loading(model, skip, connection)
    loaded = []
    for (col, convs), value in zip(converters, values, strict=True):
        for convert in convs:
            value = convert(value, col, connection)
        loaded.append(value)
    return model.from_db(using, names, loaded)


def match_locked(match_id: int) -> Match | None:
    """The match row locked (``FOR NO KEY UPDATE``) with its event, round, entries and
    players loaded; ``None`` if there is no such match. The caller holds the transaction."""
    using = router.db_for_write(Match)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(lock_sql_for(connection), [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    objects: dict[str, Any] = {}
    start = 0
    for alias, model, _ in _JOINS:
        fields = _fields(model)
        values = list(row[start : start + len(fields)])
        start += len(fields)
        objects[alias] = None if values[0] is None else _instance(model, using, values)
    match: Match = objects["m"]
    match.event = objects["ev"]
    match.round = objects["r"]
    for entry, player, name in (("e1", "p1", "entry1"), ("e2", "p2", "entry2")):
        if objects[entry] is not None:
            objects[entry].player = objects[player]
        setattr(match, name, objects[entry])
    return match


@functools.cache
def _games_sql() -> str:
    columns = ", ".join(f'"{f.column}"' for f in _fields(Game, skip=("moves",)))
    return (
        f'SELECT {columns} FROM "{Game._meta.db_table}" '
        'WHERE "match_id" = %s ORDER BY "number", "id"'
    )


def match_game_rows(match_id: int) -> list[Game]:
    """Every game row of a match in order (voided ones too), their moves deferred."""
    using = router.db_for_read(Game)
    with connections[using].cursor() as cursor:
        cursor.execute(_games_sql(), [match_id])
        rows = cursor.fetchall()
    return [_instance(Game, using, row, ("moves",)) for row in rows]


def _quote(using: str, name: object) -> str:
    """A table or column name quoted as SQL's standard (PostgreSQL and SQLite) wants it;
    a field without a column is a bug."""
    assert isinstance(name, str), name
    assert '"' not in name, name
    return f'"{name}"'


@functools.cache
def _insert_sql(
    model: type[models.Model], using: str, computed: tuple[tuple[str, str], ...]
) -> str:
    """The INSERT of a ``model`` row, ``computed`` columns (attname, SQL) worked out by the
    database; it returns the primary key and those columns."""
    sqls = dict(computed)
    fields = _fields(model, skip=(model._meta.pk.attname,))  # type: ignore[union-attr]
    values = ", ".join(f"({sqls[f.attname]})" if f.attname in sqls else "%s" for f in fields)
    pk = model._meta.pk
    assert pk is not None
    returned = [pk.column, *(model._meta.get_field(n).column for n in sqls)]  # type: ignore[union-attr]
    return (
        f"INSERT INTO {_quote(using, model._meta.db_table)} "
        f"({', '.join(_quote(using, f.column) for f in fields)}) VALUES ({values}) "
        f"RETURNING {', '.join(_quote(using, c) for c in returned)}"
    )


def row_insert(
    obj: models.Model, *, computed: dict[str, tuple[str, list[Any]]] | None = None
) -> None:
    """INSERT ``obj`` as ``save(force_insert=True)`` would; ``computed`` gives columns the
    database works out as the row goes in (``{attname: (sql, params)}``), read back."""
    model, computed = type(obj), computed or {}
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    names = tuple(computed)
    sql = _insert_sql(model, using, tuple((n, computed[n][0]) for n in names))
    params: list[Any] = []
    for field in _fields(model, skip=(model._meta.pk.attname,)):  # type: ignore[union-attr]
        if field.attname in computed:
            params.extend(computed[field.attname][1])
        else:
            params.append(field.get_db_prep_save(field.pre_save(obj, add=True), connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        returned = cursor.fetchone()
    for attname, value in zip((model._meta.pk.attname, *names), returned, strict=True):  # type: ignore[union-attr]
        setattr(obj, attname, value)
    obj._state.adding = False
    obj._state.db = using


@functools.cache
def _update_sql(model: type[models.Model], using: str, names: tuple[str, ...]) -> str:
    meta = model._meta
    assert meta.pk is not None
    sets = ", ".join(f"{_quote(using, meta.get_field(n).column)} = %s" for n in names)  # type: ignore[union-attr]
    return f"UPDATE {_quote(using, meta.db_table)} SET {sets} WHERE {_quote(using, meta.pk.column)} = %s"


def row_update(obj: models.Model, names: Sequence[str]) -> None:
    """UPDATE fields ``names`` of ``obj``'s row, as ``save(update_fields=names)`` would."""
    model = type(obj)
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    fields = [model._meta.get_field(n) for n in names]
    params = [f.get_db_prep_save(f.pre_save(obj, add=False), connection) for f in fields]  # type: ignore[union-attr]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, using, tuple(names)), [*params, obj.pk])
