"""Deeply nested JSON and NUL characters in query parameters get 400, never a 500;
private-link pages are not stored by caches."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import MatchFactory, TournamentFactory
from tournament.api.json_parser import MAX_DEPTH

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deeply_nested_json_is_a_400(depth: int) -> None:
    match = MatchFactory()
    body = "[" * depth + "]" * depth
    response = Client(raise_request_exception=False).post(
        f"/api/matches/{match.pk}/games/",
        body,
        content_type="application/json",
        headers={"X-Report-Key": match.entry1.report_key},
    )
    assert response.status_code == 400
    assert "nested" in response.json()["message"]


def test_json_as_deep_as_a_report_still_parses() -> None:
    match = MatchFactory()
    response = Client().post(
        f"/api/matches/{match.pk}/games/",
        {"winner": match.entry1.player_id, "cube": 1, "result": "single", "game_number": 1},
        content_type="application/json",
        headers={"X-Report-Key": match.entry1.report_key},
    )
    assert response.status_code == 201


@pytest.mark.parametrize(
    "path", ["/api/players/?q=a%00b", "/api/tournaments/?q=%00", "/?q=%00", "/api/players/?%00=1"]
)
def test_a_nul_in_a_query_parameter_is_a_clear_400(path: str) -> None:
    TournamentFactory()
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    if path.startswith("/api/"):
        assert response.json()["code"] == "invalid"


def test_private_link_pages_are_not_stored() -> None:
    match = MatchFactory()
    response = Client().get(f"/r/{match.entry1.report_key}/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]
    # A request made from the page names the site as its referrer, never the key.
    assert response["Referrer-Policy"] == "strict-origin"
    assert Client().get("/").get("Referrer-Policy") != "strict-origin"


def test_pages_that_show_private_links_are_not_stored() -> None:
    from tests.factories import UserFactory

    match = MatchFactory()
    tournament = match.event.tournament
    player = match.entry1.player
    player.user = UserFactory()
    player.save()
    me = Client()
    me.force_login(player.user)
    director = Client()
    director.force_login(tournament.directors.first())
    pages = {
        "/me/": me,
        f"/director/t/{tournament.slug}/player-links/": director,
        f"/api/tournaments/{tournament.slug}/player-links/": director,
    }
    for path, client in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        assert "no-store" in response.get("Cache-Control", ""), path
        assert response.get("Referrer-Policy") == "strict-origin", path


def test_a_players_ratings_are_hidden_like_the_player() -> None:
    from tests.factories import EntryFactory, EventFactory

    private = TournamentFactory(is_public=False)
    hidden = EntryFactory(event=EventFactory(tournament=private)).player
    anonymous = Client()
    assert anonymous.get(f"/api/players/{hidden.pk}/").status_code == 404
    assert anonymous.get(f"/api/players/{hidden.pk}/ratings/").status_code == 404
    director = Client()
    director.force_login(private.directors.first())
    assert director.get(f"/api/players/{hidden.pk}/ratings/").status_code == 200
