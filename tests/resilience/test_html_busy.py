"""A console form whose transaction PostgreSQL undoes for a lost race (a deadlock,
SQLSTATE 40P01) is answered with the styled "busy, send it again" page: 503 with
``Retry-After``, logged, not the generic 500."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from tests.factories import EntryFactory
from tournament.models import Player

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def deadlocking_player_updates():
    """PostgreSQL itself raises its deadlock error on any update of a player."""
    table = Player._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION test_deadlock() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$ "
            "LANGUAGE plpgsql"
        )
        cursor.execute(
            f"CREATE TRIGGER test_deadlock BEFORE UPDATE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION test_deadlock()"
        )
    yield
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TRIGGER test_deadlock ON {table}")
        cursor.execute("DROP FUNCTION test_deadlock()")


@pytest.mark.usefixtures("deadlocking_player_updates")
def test_a_deadlock_in_a_console_form_is_answered_busy(caplog) -> None:
    entry = EntryFactory()
    tournament, player = entry.event.tournament, entry.player
    client = Client(raise_request_exception=False)
    client.force_login(tournament.directors.first())
    response = client.post(
        f"/director/t/{tournament.slug}/players/{player.pk}/",
        {"name": "Anna Berg", "email": player.email, "club": player.club, "country": ""},
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    page = response.content.decode()
    assert "send the form again" in page
    assert 'class="error-box"' in page  # the site's own page, not Django's bare one
    assert "answered 503 busy" in caplog.text
    player.refresh_from_db()
    assert player.name != "Anna Berg"
