"""Two players of the same name are told apart in the console's menus of players: the
register form's "A player of this tournament" and both forbidden-pairing selects read
"Hans Meier (Club Nord)" and "Hans Meier (Club Süd)", not "Hans Meier" twice."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import UserFactory
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def _options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, name
    return [label.strip() for label in re.findall(r"<option[^>]*>([^<]*)</option>", select[1])]


def test_namesakes_are_told_apart_in_the_menus_of_players(client: Client) -> None:
    director = UserFactory()
    t = tournament_create(name="Open", slug="namesakes", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    side = event_create(tournament=t, name="Side", match_lengths=[3], slug="side")
    north = player_create(name="Hans Meier", club="Club Nord", confirm_new=True)
    south = player_create(name="Hans Meier", club="Club Süd", confirm_new=True)
    for player in (north, south, player_create(name="Ann Lee")):
        entry_register(event=main, player=player)
    client.force_login(director)
    html = client.get("/director/t/namesakes/events/main/").content.decode()
    for select in ("player_a", "player_b"):
        assert _options(html, select) == [
            "Ann Lee",
            "Hans Meier (Club Nord)",
            "Hans Meier (Club Süd)",
        ]
    html = client.get("/director/t/namesakes/events/side/").content.decode()
    assert "Hans Meier (Club Nord)" in _options(html, "player")
    assert "Hans Meier (Club Süd)" in _options(html, "player")
    assert side.entries.count() == 0
