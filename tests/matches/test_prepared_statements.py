"""On PostgreSQL a game report's statements are prepared once per connection (psycopg's
``prepare_threshold`` with server-side binding, settings ``DATABASE_PREPARED_STATEMENTS``),
and none with the setting off (PgBouncer's transaction pooling); page versions are bumped
through one client of the cache's own Redis server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection

from matches.services.reporting import GameInput, game_report
from tests.matches.conftest import META, make_table
from tournament import page_cache

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_lock_of_a_report_is_prepared_after_five_reports_on_one_connection() -> None:
    _report_six_games()
    locks = [sql for sql in _prepared() if "FOR NO KEY UPDATE OF m" in sql]
    assert len(locks) == 1, _prepared()
    assert "$1" in locks[0]  # bound by the server, so one statement serves every match


def _report_six_games() -> None:
    table = make_table(length=25)
    for number in range(1, 7):
        winner = table.p1 if number % 2 else table.p2
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=winner), meta=META
        )


@pytest.fixture
def unprepared(transactional_db: None) -> Iterator[None]:
    """The connection as ``DATABASE_PREPARED_STATEMENTS=0`` configures it: the two options
    the setting adds are left out (Django then turns psycopg's preparing off)."""
    options = connection.settings_dict.setdefault("OPTIONS", {})
    saved = dict(options)
    connection.close()
    options.pop("server_side_binding", None)
    options.pop("prepare_threshold", None)
    try:
        yield
    finally:
        connection.close()
        options.clear()
        options.update(saved)


def test_with_prepared_statements_off_no_statement_is_left_on_the_connection(
    unprepared: None,
) -> None:
    _report_six_games()  # past psycopg's threshold of five, were it on
    assert _prepared() == []


def test_page_versions_are_bumped_through_one_client_of_the_cache_s_redis() -> None:
    client = page_cache._redis_client()
    assert client is not None
    assert page_cache._redis_client() is client  # made once, then reused
    location = settings.CACHES["default"]["LOCATION"]
    assert client.connection_pool.connection_kwargs["db"] == int(location.rsplit("/", 1)[1] or 0)
    before = page_cache.version("event", 99_001)
    page_cache.bump_many(("event", 99_001))
    assert page_cache.version("event", 99_001) == before + 1  # seen through Django's cache
