"""What a browser test that drives the live server leaves to clean up."""

from __future__ import annotations

from django.db import connection, connections


def release_server_connections() -> None:
    """Close the connections a test left open: its own (Playwright runs it in a greenlet
    with its own connection) and, on PostgreSQL, the idle ones of the live server's
    finished request threads, so that the test database can be flushed and dropped."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND state = 'idle'"
            )
    connections.close_all()
