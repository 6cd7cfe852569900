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
from typing import Any, cast

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Col

from matches.models import Game, Match, ReportKey
from tournament.models import Entry, Event, Player, PlayerLink, Round

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


@functools.cache
def _fields(model: type[models.Model], *, skip: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """The model's columns in declaration order (the Model ``_meta`` API), ``skip`` left out;
    worked out once per process (ten times a report otherwise)."""
    return tuple(
        f
        for f in model._meta.get_fields()
        if f.concrete and not f.many_to_many and f.attname not in skip
    )


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


@functools.cache
def _key_seen_sql(lock: str) -> str:
    """The lock's SQL ``lock`` with one more column: the submission an ``Idempotency-Key``
    of the match already recorded (``NULL``: none)."""
    key = ReportKey._meta
    submission, match, name = (
        column_field(ReportKey, f).column for f in ("submission", "match", "key")
    )
    seen = (
        f'(SELECT k."{submission}" FROM "{key.db_table}" k '
        f'WHERE k."{match}" = m."id" AND k."{name}" = %s)'
    )
    head, _, tail = lock.partition(" FROM ")
    return f"{head}, {seen} FROM {tail}"


def match_locked(match_id: int) -> Match | None:
    """The match row locked (``FOR NO KEY UPDATE``) with its event, round, entries and
    players loaded; ``None`` if there is no such match. The caller holds the transaction."""
    return match_locked_with_key(match_id, "")[0]


def match_locked_with_key(match_id: int, key: str) -> tuple[Match | None, int | None]:
    """:func:`match_locked`, and with a ``key`` in the same statement the submission that
    key already recorded for the match (``None``: none, or no key).

    The key is read in the statement's snapshot, taken before the lock was granted: a
    copy of the report committed while this one waited is not seen here. The key's
    unique constraint catches that copy when this one stores its key (the caller
    answers it as a replay then, ``matches.services.ledger``).
    """
    using = router.db_for_write(Match)
    connection = connections[using]
    sql = lock_sql_for(connection)
    if key:
        sql = _key_seen_sql(sql)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, match_id] if key else [match_id])
        row = cursor.fetchone()
    if row is None:
        return None, None
    seen = row[-1] if key else None
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
    return match, seen


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


def column_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """``model``'s field ``name``, a column of its table (never a reverse relation)."""
    return cast("models.Field[Any, Any]", model._meta.get_field(name))


@functools.cache
def _insert_sql(
    model: type[models.Model], using: str, computed: tuple[tuple[str, str], ...]
) -> str:
    """The INSERT of a ``model`` row, ``computed`` columns (attname, SQL) worked out by the
    database; it returns the primary key and those columns."""
    sqls = dict(computed)
    fields = _fields(model, skip=(model._meta.pk.attname,))
    values = ", ".join(f"({sqls[f.attname]})" if f.attname in sqls else "%s" for f in fields)
    pk = model._meta.pk
    assert pk is not None
    returned = [pk.column, *(column_field(model, n).column for n in sqls)]
    return (
        f"INSERT INTO {_quote(using, model._meta.db_table)} "
        f"({', '.join(_quote(using, f.column) for f in fields)}) VALUES ({values}) "
        f"RETURNING {', '.join(_quote(using, c) for c in returned)}"
    )


#: A row that refers to the row being inserted, and the attname of its foreign key to it.
Child = tuple[models.Model, str]


@functools.cache
def _family_sql(
    model: type[models.Model],
    using: str,
    computed: tuple[tuple[str, str], ...],
    children: tuple[tuple[type[models.Model], str], ...],
) -> str:
    """One statement that inserts a ``model`` row and rows referring to it (PostgreSQL's
    data-modifying ``WITH``): it returns what :func:`_insert_sql` returns, then each
    child's primary key."""
    sqls = dict(computed)
    pk = model._meta.pk
    assert pk is not None
    returned = [pk.column, *(column_field(model, n).column for n in sqls)]
    parts = [f"p AS ({_insert_sql(model, using, computed)})"]
    for n, (child, fk) in enumerate(children):
        fields = _fields(child, skip=(child._meta.pk.attname,))
        values = ", ".join(
            f"(SELECT {_quote(using, pk.column)} FROM p)" if f.attname == fk else "%s"
            for f in fields
        )
        parts.append(
            f"c{n} AS (INSERT INTO {_quote(using, child._meta.db_table)} "
            f"({', '.join(_quote(using, f.column) for f in fields)}) VALUES ({values}) "
            f"RETURNING {_quote(using, child._meta.pk.column)})"
        )
    columns = [f"p.{_quote(using, c)}" for c in returned]
    columns += [
        f"(SELECT {_quote(using, c._meta.pk.column)} FROM c{n})"
        for n, (c, _) in enumerate(children)
    ]
    return f"WITH {', '.join(parts)} SELECT {', '.join(columns)} FROM p"


def _values(obj: models.Model, connection: BaseDatabaseWrapper, skip: str = "") -> list[Any]:
    """``obj``'s column values as ``save()`` sends them, its primary key and ``skip`` left out."""
    model = type(obj)
    return [
        field.get_db_prep_save(field.pre_save(obj, add=True), connection)
        for field in _fields(model, skip=(model._meta.pk.attname,))
        if field.attname != skip
    ]


def _inserted(obj: models.Model, using: str) -> None:
    obj._state.adding = False
    obj._state.db = using


def row_insert(
    obj: models.Model,
    *,
    computed: dict[str, tuple[str, list[Any]]] | None = None,
    children: Sequence[Child] = (),
) -> None:
    """INSERT ``obj`` as ``save(force_insert=True)`` would; ``computed`` gives columns the
    database works out as the row goes in (``{attname: (sql, params)}``), read back.

    ``children`` are rows that refer to ``obj`` (each with the attname of its foreign key
    to it), inserted with it: in the same statement on PostgreSQL (a report's submission,
    its key and its game in one round trip), one after the other elsewhere.
    """
    model, computed = type(obj), computed or {}
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    names = tuple(computed)
    together = bool(children) and connection.vendor == "postgresql"
    shape = tuple((n, computed[n][0]) for n in names)
    if together:
        sql = _family_sql(model, using, shape, tuple((type(c), fk) for c, fk in children))
    else:
        sql = _insert_sql(model, using, shape)
    params: list[Any] = []
    for field in _fields(model, skip=(model._meta.pk.attname,)):
        if field.attname in computed:
            params.extend(computed[field.attname][1])
        else:
            params.append(field.get_db_prep_save(field.pre_save(obj, add=True), connection))
    if together:
        for child, fk in children:
            params.extend(_values(child, connection, skip=fk))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        returned = cursor.fetchone()
    count = 1 + len(names)
    for attname, value in zip((model._meta.pk.attname, *names), returned[:count], strict=True):
        setattr(obj, attname, value)
    _inserted(obj, using)
    for n, (child, fk) in enumerate(children):
        setattr(child, fk, obj.pk)
        if together:
            setattr(child, type(child)._meta.pk.attname, returned[count + n])
            _inserted(child, using)
        else:
            row_insert(child)


@functools.cache
def _update_sql(model: type[models.Model], using: str, names: tuple[str, ...]) -> str:
    meta = model._meta
    assert meta.pk is not None
    sets = ", ".join(f"{_quote(using, column_field(model, n).column)} = %s" for n in names)
    return f"UPDATE {_quote(using, meta.db_table)} SET {sets} WHERE {_quote(using, meta.pk.column)} = %s"


def row_update(obj: models.Model, names: Sequence[str]) -> None:
    """UPDATE fields ``names`` of ``obj``'s row, as ``save(update_fields=names)`` would."""
    model = type(obj)
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    fields = [column_field(model, n) for n in names]
    params = [f.get_db_prep_save(f.pre_save(obj, add=False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, using, tuple(names)), [*params, obj.pk])


@functools.cache
def _link_key_sql() -> str:
    link, entry, event = (m._meta.db_table for m in (PlayerLink, Entry, Event))
    return (
        f'SELECT "key" FROM "{link}" WHERE "key" = %s '
        "UNION ALL "
        f'SELECT l."key" FROM "{entry}" e JOIN "{event}" ev ON ev."id" = e."event_id" '
        f'JOIN "{link}" l ON l."tournament_id" = ev."tournament_id" AND l."player_id" = e."player_id" '
        'WHERE e."report_key" = %s'
    )


def link_key_of(key: str) -> str | None:
    """The player link's key that ``key`` names: itself when it is a link's, its player's
    link when it is an entry's older per-event key, ``None`` when nothing holds it. One
    statement: the report path's rate limit asks it before anything else."""
    with connections[router.db_for_read(PlayerLink)].cursor() as cursor:
        cursor.execute(_link_key_sql(), [key, key])
        row = cursor.fetchone()
    return None if row is None else str(row[0])
