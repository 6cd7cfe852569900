"""On PostgreSQL a game report's statements are prepared once per connection (psycopg's
``prepare_threshold`` with server-side binding, settings ``DATABASE_PREPARED_STATEMENTS``),
and the Redis cache builds one client per connection pool, not one per call."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection

from matches.services.reporting import GameInput, game_report
from tests.matches.conftest import META, make_table

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_lock_of_a_report_is_prepared_after_five_reports_on_one_connection() -> None:
    table = make_table(length=25)
    for number in range(1, 7):
        winner = table.p1 if number % 2 else table.p2
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=winner), meta=META
        )
    locks = [sql for sql in _prepared() if "FOR NO KEY UPDATE OF m" in sql]
    assert len(locks) == 1, _prepared()
    assert "$1" in locks[0]  # bound by the server, so one statement serves every match


def test_the_cache_keeps_one_redis_client_per_pool() -> None:
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client("any key", write=True) is client
    assert cache.add("prepared-test-counter", 1, 5)
    assert cache.incr("prepared-test-counter") == 2
    assert cache._cache.get_client(write=True) is client
    cache.delete("prepared-test-counter")
