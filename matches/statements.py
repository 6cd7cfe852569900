"""The report ledger's hot statements, compiled once per process instead of on every report.

Django builds a queryset's SQL each time it runs: for the match lock (the match with its
event, round, entries and players) that costs more CPU than PostgreSQL takes to run it,
and PostgreSQL in turn plans the seven-table join on every report. The few statements
every report runs are therefore prepared here:

* :class:`CompiledSelect` compiles a queryset once (per thread and database), then runs
  its SQL with new parameters and builds the same model instances the queryset would
  (``select_related`` objects and annotations included), with the queryset's own
  converters and populators;
* :func:`insert_row` and :func:`update_row` write one model instance with SQL built once
  from the model's fields, values prepared by the fields as ``save()`` does (``auto_now``
  included; no ``pre_save``/``post_save`` signals: nothing listens to these models').

On PostgreSQL they run through a server-side-binding cursor, so psycopg prepares them
after a few uses and PostgreSQL stops re-planning them (Django's own cursors bind on the
client and are never prepared; no connection pooler sits between us and PostgreSQL).
Either way they go through Django's cursor wrapper: errors are Django's, queries are
logged and counted in tests, and execute wrappers see them.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

#: The value a compiled queryset is built with, in place of its one parameter (in range
#: for any integer column: Django compiles an out-of-range lookup to "no rows").
MARKER = -1_234_567_891

#: psycopg prepares a server-side-binding statement after this many runs on a connection.
PREPARE_AFTER = 2


@contextmanager
def hot_cursor(connection: BaseDatabaseWrapper) -> Iterator[CursorWrapper]:
    """Django's cursor; on PostgreSQL one that binds parameters on the server, so that
    psycopg prepares the statements it runs again and again."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = connection.connection
        if raw.prepare_threshold is None:  # Django turns it off; its own cursors never prepare
            raw.prepare_threshold = PREPARE_AFTER
        cursor = ServerBindingCursor(raw)
        # As Django's create_cursor(): the session's time zone for timestamps, if it differs.
        loader = raw.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != loader.timezone:  # type: ignore[union-attr]
            register_tzloader(connection.timezone, cursor)
        wrapped = connection._prepare_cursor(cursor)  # type: ignore[attr-defined]
    with wrapped:
        yield wrapped


@dataclass(frozen=True, slots=True)
class _Plan:
    sql: str
    compiler: SQLCompiler
    converters: dict[int, Any]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]
    annotations: dict[str, int]
    fetch_mode: Any


class CompiledSelect[M: models.Model]:
    """A queryset of one parameter whose SQL is compiled once and run with new values.

    ``build(using)`` returns the queryset with :data:`MARKER` as its only parameter (for
    example ``Match.objects.select_related(...).filter(pk=MARKER)``); it is compiled on
    first use in each thread for each database (inside a transaction when it locks rows).
    """

    def __init__(self, model: type[M], build: Callable[[str], models.QuerySet[M]]) -> None:
        self.model = model
        self.build = build
        self._local = threading.local()

    def _plan(self, using: str) -> _Plan:
        plans: dict[str, _Plan] = self._local.__dict__.setdefault("plans", {})
        plan = plans.get(using)
        if plan is None:
            plan = plans[using] = self._compile(using)
        return plan

    def _compile(self, using: str) -> _Plan:
        queryset = self.build(using).using(using)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        if tuple(params) != (MARKER,):
            raise ValueError(f"a compiled select takes exactly one parameter, not {params!r}")
        info = compiler.klass_info
        assert info is not None
        assert info["model"] is self.model
        fields = info["select_fields"]
        columns = [s[0] for s in compiler.select[: compiler.col_count]]
        return _Plan(
            sql=sql,
            compiler=compiler,
            converters=compiler.get_converters(columns),
            init_list=[s[0].target.attname for s in compiler.select[fields[0] : fields[-1] + 1]],
            start=fields[0],
            end=fields[-1] + 1,
            populators=get_related_populators(info, compiler.select, using, queryset._fetch_mode),
            annotations=dict(compiler.annotation_col_map or {}),
            fetch_mode=queryset._fetch_mode,
        )

    def rows(self, value: Any, *, using: str | None = None) -> list[M]:
        """The queryset's objects with ``value`` in place of the marker."""
        using = using or router.db_for_write(self.model)
        plan = self._plan(using)
        with hot_cursor(connections[using]) as cursor:
            cursor.execute(plan.sql, [value])
            rows: Sequence[Any] = cursor.fetchall()
        if plan.converters:
            rows = list(plan.compiler.apply_converters(rows, plan.converters))
        objects = []
        for row in rows:
            obj = self.model.from_db(
                using, plan.init_list, row[plan.start : plan.end], fetch_mode=plan.fetch_mode
            )
            for populator in plan.populators:
                populator.populate(row, obj)
            for name, position in plan.annotations.items():
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects

    def first(self, value: Any, *, using: str | None = None) -> M | None:
        found = self.rows(value, using=using)
        return found[0] if found else None


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(
    model: type[models.Model], using: str, computed: tuple[tuple[str, str], ...]
) -> tuple[str, list[models.Field[Any, Any]], list[models.Field[Any, Any]]]:
    """The INSERT of a ``model`` row (``computed``: attname and SQL), its fields in the
    order of their values, and the computed fields it returns after the primary key."""
    quote = connections[using].ops.quote_name
    sqls = dict(computed)
    fields = _fields(model)
    returned = [f for f in fields if f.attname in sqls]
    pk = model._meta.pk
    assert pk is not None
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} "
        f"({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES ({', '.join(f'({sqls[f.attname]})' if f in returned else '%s' for f in fields)}) "
        f"RETURNING {', '.join(quote(f.column) for f in [pk, *returned])}"
    )
    return sql, fields, returned


def insert_row(obj: models.Model, *, computed: dict[str, tuple[str, list[Any]]]) -> None:
    """INSERT ``obj`` (a new row, its primary key from the database), like ``save()``.

    ``computed`` gives columns the database computes as the row goes in:
    ``{attname: (sql, params)}``, e.g. the next version number of a locked parent's rows.
    """
    model = type(obj)
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    sql, fields, returned = _insert_sql(
        model, using, tuple((name, sql) for name, (sql, _) in computed.items())
    )
    params: list[Any] = []
    for field in fields:
        if field.attname in computed:
            params.extend(computed[field.attname][1])
        else:
            params.append(field.get_db_prep_save(field.pre_save(obj, add=True), connection))
    with hot_cursor(connection) as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    for field, value in zip([model._meta.pk, *returned], row, strict=True):
        setattr(obj, field.attname, value)  # type: ignore[union-attr]
    obj._state.adding = False
    obj._state.db = using


@functools.cache
def _update_sql(
    model: type[models.Model], using: str, names: tuple[str, ...]
) -> tuple[str, list[models.Field[Any, Any]]]:
    """The UPDATE of fields ``names`` of a ``model`` row by primary key, and those fields."""
    quote = connections[using].ops.quote_name
    meta = model._meta
    targets: list[models.Field[Any, Any]] = [meta.get_field(n) for n in names]  # type: ignore[misc]
    assert meta.pk is not None
    sql = (
        f"UPDATE {quote(meta.db_table)} "
        f"SET {', '.join(f'{quote(f.column)} = %s' for f in targets)} "
        f"WHERE {quote(meta.pk.column)} = %s"
    )
    return sql, targets


def update_row(obj: models.Model, fields: Sequence[str]) -> None:
    """UPDATE ``fields`` of ``obj``'s row, like ``save(update_fields=fields)``."""
    model = type(obj)
    using = router.db_for_write(model, instance=obj)
    connection = connections[using]
    sql, targets = _update_sql(model, using, tuple(fields))
    params = [f.get_db_prep_save(f.pre_save(obj, add=False), connection) for f in targets]
    params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))  # type: ignore[union-attr]
    with hot_cursor(connection) as cursor:
        cursor.execute(sql, params)
