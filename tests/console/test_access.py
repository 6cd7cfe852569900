"""Who may use the console: logged-in directors of a tournament, staff; nobody else."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import (
    DEFAULT_PASSWORD,
    EntryFactory,
    EventFactory,
    TournamentFactory,
    UserFactory,
    grant_tournament_creation,
)
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tournaments():
    mine = EventFactory(tournament=TournamentFactory(name="Mine Open", slug="mine"), slug="main")
    theirs = EventFactory(
        tournament=TournamentFactory(name="Their Open", slug="theirs"), slug="main"
    )
    return mine, theirs


def test_console_needs_a_login(client):
    response = client.get("/director/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_home_lists_only_the_tournaments_one_directs(client, two_tournaments):
    mine, _ = two_tournaments
    client.force_login(mine.tournament.directors.get())
    page = client.get("/director/").content.decode()
    assert "Mine Open" in page
    assert "Their Open" not in page


def test_staff_see_every_tournament(client, two_tournaments):
    client.force_login(UserFactory(is_staff=True))
    page = client.get("/director/").content.decode()
    assert "Mine Open" in page
    assert "Their Open" in page
    assert client.get("/director/t/theirs/events/main/").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/director/t/theirs/",
        "/director/t/theirs/new-event/",
        "/director/t/theirs/import/",
        "/director/t/theirs/events/main/",
        "/director/t/theirs/events/main/matches/",
    ],
)
def test_another_tournaments_pages_are_not_found(client, two_tournaments, path):
    mine, _ = two_tournaments
    client.force_login(mine.tournament.directors.get())
    assert client.get(path).status_code == 404


def test_another_tournaments_actions_are_refused_and_change_nothing(client, two_tournaments):
    mine, theirs = two_tournaments
    entry = EntryFactory(event=theirs)
    client.force_login(mine.tournament.directors.get())
    base = "/director/t/theirs/events/main"
    posts = {
        f"{base}/entries/{entry.pk}/check-in/": {"checked_in": "1"},
        f"{base}/entries/{entry.pk}/withdraw/": {},
        f"{base}/entries/": {"name": "Intruder"},
        f"{base}/draw/": {"method": "random", "seed": "1"},
        f"{base}/lengths/": {"match_lengths": "3"},
        "/director/t/theirs/new-event/": {"name": "Side", "format": "swiss", "match_lengths": "5"},
        "/director/t/theirs/import/": {"text": "name\nIntruder\n", "confirm": "1"},
        # Another tournament's entry through one's own event is not found either.
        f"/director/t/mine/events/main/entries/{entry.pk}/check-in/": {"checked_in": "1"},
    }
    for path, data in posts.items():
        assert client.post(path, data).status_code == 404, path
    entry.refresh_from_db()
    theirs.refresh_from_db()
    assert entry.status == "registered"
    assert theirs.status == "registration"
    assert theirs.entries.count() == 1
    assert theirs.tournament.events.count() == 1


def test_a_user_who_directs_nothing_sees_an_empty_console(client, two_tournaments):
    client.force_login(UserFactory())
    response = client.get("/director/")
    assert response.status_code == 200
    assert "You do not direct any tournament yet" in response.content.decode()
    assert client.get("/director/t/mine/").status_code == 404


def test_csrf_is_enforced():
    event = EventFactory(tournament=TournamentFactory(slug="csrf-open"), slug="main")
    entry = EntryFactory(event=event)
    director = event.tournament.directors.get()
    client = Client(enforce_csrf_checks=True)
    assert client.login(username=director.username, password=DEFAULT_PASSWORD)
    url = f"/director/t/csrf-open/events/main/entries/{entry.pk}/check-in/"
    assert client.post(url, {"checked_in": "1"}).status_code == 403
    entry.refresh_from_db()
    assert entry.status == "registered"
    # The page's own form carries the token: posting it works.
    client.get("/director/t/csrf-open/events/main/")
    token = client.cookies["csrftoken"].value
    response = client.post(url, {"checked_in": "1", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "checked-in"
    # htmx sends the token from the form too (hx-post submits the form's fields).
    response = client.post(
        url, {"checked_in": "0", "csrfmiddlewaretoken": token}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert 'id="entry-' in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == "registered"


def test_only_directors_and_staff_may_create_tournaments(client):
    player = UserFactory(username="just-a-player")
    client.force_login(player)
    assert client.get("/director/new/").status_code == 403
    assert client.post("/director/new/", {"name": "Rogue Open", "slug": "rogue"}).status_code == 403
    assert not Tournament.objects.filter(slug="rogue").exists()

    grant_tournament_creation(player)
    assert client.post("/director/new/", {"name": "Real Open", "slug": "real"}).status_code == 302
    assert Tournament.objects.get(slug="real").directors.filter(pk=player.pk).exists()
