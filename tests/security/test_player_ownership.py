"""A player record no tournament holds yet is its maker's (and staff's) until entered.

The attack: director A makes a player through the API and has not entered it yet;
director B guesses its id and enters it in B's own event, which made B a director of
every tournament it is in, free to change its email. Now such a record answers B
exactly like a missing one: entering it, reading it, changing it, importing its email.
"""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, grant_tournament_creation, token_client
from tournament.models import Entry, Player
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    a, b = grant_tournament_creation(UserFactory()), grant_tournament_creation(UserFactory())
    ta = tournament_create(name="A Open", slug="a-open", director=a)
    tb = tournament_create(name="B Open", slug="b-open", director=b)
    ea = event_create(tournament=ta, name="Main", match_lengths=[3])
    eb = event_create(tournament=tb, name="Main", match_lengths=[3])
    made = token_client(a).post(
        "/api/players/", {"name": "Quiet One", "email": "quiet@example.org"}, format="json"
    )
    assert made.status_code == 201, made.json()
    return token_client(a), token_client(b), ea, eb, Player.objects.get(pk=made.json()["id"])


def test_another_director_cannot_take_an_unentered_player(scene):
    a, b, ea, eb, player = scene
    missing = player.pk + 1000
    took = b.post(f"/api/events/{eb.pk}/entries/", {"player": player.pk}, format="json")
    none = b.post(f"/api/events/{eb.pk}/entries/", {"player": missing}, format="json")
    assert took.status_code == none.status_code == 404
    assert took.json() == none.json()
    assert b.get(f"/api/players/{player.pk}/").status_code == 404
    changed = b.patch(f"/api/players/{player.pk}/", {"email": "mine@example.org"}, format="json")
    assert changed.status_code == 404
    listed = b.get("/api/players/", {"search": "Quiet"}).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert all(r["id"] != player.pk for r in rows)
    imported = b.post(
        "/api/players/import/",
        {"csv": "name,email\nQuiet One,quiet@example.org\n", "event": eb.pk},
        format="json",
    )
    assert imported.status_code == 400
    assert not Entry.objects.filter(player=player).exists()
    player.refresh_from_db()
    assert player.email == "quiet@example.org"
    # its maker enters it; staff may too
    assert a.get(f"/api/players/{player.pk}/").status_code == 200
    assert a.post(f"/api/events/{ea.pk}/entries/", {"player": player.pk}).status_code == 201


def test_staff_may_enter_an_unentered_player(scene):
    _, _, _, eb, player = scene
    staff = token_client(UserFactory(is_staff=True))
    assert staff.post(f"/api/events/{eb.pk}/entries/", {"player": player.pk}).status_code == 201


def test_the_service_refuses_it_through_any_door(scene):
    _, _, _, eb, player = scene
    from matches.errors import Invalid

    with pytest.raises(Invalid) as refused:
        entry_register(event=eb, player=player, by=eb.tournament.directors.get())
    assert (refused.value.status, refused.value.code) == (404, "not-found")
