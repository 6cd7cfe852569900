"""A player's name, club and country show in every tournament they are in: a director
of only some of those tournaments may not change them (403 ``player-not-yours``; the
console shows them read-only and says why). A director of every one of them, or staff,
may."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import (
    EntryFactory,
    EventFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    token_client,
)
from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared() -> tuple[Player, object, object]:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    player = PlayerFactory(name="Shared Sue", club="Oslo BG", country="NO")
    EntryFactory(event=EventFactory(tournament=TournamentFactory(director=alice)), player=player)
    bob_event = EventFactory(tournament=TournamentFactory(director=bob))
    EntryFactory(event=bob_event, player=player)
    return player, alice, bob


@pytest.mark.parametrize("change", [{"name": "Mallory"}, {"club": "Evil Club"}, {"country": "XX"}])
def test_a_director_of_some_of_the_players_tournaments_cannot_change_what_all_show(
    shared: tuple[Player, object, object], change: dict[str, str]
) -> None:
    player, _, bob = shared
    answer = token_client(bob).patch(f"/api/players/{player.pk}/", change, format="json")
    assert answer.status_code == 403, answer.content
    body = answer.json()
    assert body["code"] == "player-not-yours"
    assert "tournaments you do not direct" in str(body), body
    fresh = Player.objects.get(pk=player.pk)
    assert (fresh.name, fresh.club, fresh.country) == ("Shared Sue", "Oslo BG", "NO")


def test_the_console_shows_them_read_only_and_says_why(
    shared: tuple[Player, object, object],
) -> None:
    player, _, bob = shared
    client = Client()
    client.force_login(bob)  # type: ignore[arg-type]
    slug = player.entries.filter(event__tournament__directors=bob).get().event.tournament.slug
    url = f"/director/t/{slug}/players/{player.pk}/"
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="identity-locked"' in html
    assert "tournaments you do not direct" in html
    assert 'name="name"' in html
    assert "disabled" in html.split('name="name"')[1].split(">")[0]
    # A forged form changes nothing of them; this tournament's contact is still B's.
    form = {"name": "Mallory", "club": "Evil", "country": "XX", "email": "b@example.org"}
    assert client.post(url, form).status_code == 302
    fresh = Player.objects.get(pk=player.pk)
    assert (fresh.name, fresh.club, fresh.country) == ("Shared Sue", "Oslo BG", "NO")
    assert fresh.links.get(tournament__slug=slug).contact_email == "b@example.org"


def test_a_director_of_every_tournament_the_player_is_in_and_staff_may(
    shared: tuple[Player, object, object],
) -> None:
    player, _alice, bob = shared
    staff = UserFactory(is_staff=True)
    done = token_client(staff).patch(
        f"/api/players/{player.pk}/", {"name": "Susan Shared"}, format="json"
    )
    assert done.status_code == 200, done.content
    solo = PlayerFactory(name="Only Bob's")
    EntryFactory(event=EventFactory(tournament=TournamentFactory(director=bob)), player=solo)
    done = token_client(bob).patch(
        f"/api/players/{solo.pk}/", {"name": "Only Bobs", "club": "Bergen"}, format="json"
    )
    assert done.status_code == 200, done.content
    page = Client()
    page.force_login(bob)  # type: ignore[arg-type]
    slug = solo.entries.get().event.tournament.slug
    assert (
        'id="identity-locked"'
        not in page.get(f"/director/t/{slug}/players/{solo.pk}/").content.decode()
    )
