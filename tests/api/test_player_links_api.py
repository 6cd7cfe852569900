"""``GET /api/tournaments/{slug}/player-links/`` and ``.../regenerate/``: directors only;
the link's key reports any of the player's matches in the tournament through the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.console.test_player_links import Weekend, make_weekend
from tests.factories import UserFactory, token_client
from tournament.models import PlayerLink
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def weekend(db: None) -> Weekend:
    return make_weekend()


def test_directors_get_every_link_others_are_refused(weekend: Weekend) -> None:
    url = "/api/tournaments/links/player-links/"
    answer = token_client(weekend.director).get(url)
    assert answer.status_code == 200
    rows = answer.json()
    assert len(rows) == 8
    link = PlayerLink.objects.get(tournament=weekend.tournament, player_id=rows[0]["player"])
    assert rows[0]["key"] == link.key
    assert rows[0]["report_url"] == f"http://testserver/r/{link.key}/"
    assert token_client(None).get(url).status_code == 401
    assert token_client(UserFactory()).get(url).status_code == 403
    # The public entry list never carries a key.
    entries = token_client(None).get(f"/api/events/{weekend.main.pk}/entries/").content.decode()
    assert link.key not in entries


def test_regenerate_through_the_api(weekend: Weekend) -> None:
    link = PlayerLink.objects.filter(tournament=weekend.tournament).first()
    url = f"/api/tournaments/links/player-links/{link.player_id}/regenerate/"
    assert token_client(UserFactory()).post(url).status_code == 403
    answer = token_client(weekend.director).post(url)
    assert answer.status_code == 200
    assert answer.json()["key"] != link.key
    assert answer.json()["regenerated_by"] == "td"
    assert APIClient().get(f"/r/{link.key}/").status_code == 404
    missing = "/api/tournaments/links/player-links/999999/regenerate/"
    assert token_client(weekend.director).post(missing).status_code == 404


def test_the_link_key_reports_a_match_through_the_api(weekend: Weekend) -> None:
    round_start(round_=weekend.main.rounds.get(number=1))
    match = Match.objects.filter(event=weekend.main, status=Match.Status.READY).first()
    player = match.entry1.player
    link = PlayerLink.objects.get(tournament=weekend.tournament, player=player)
    link = services_regenerate(link)  # a key that is no entry's key any more
    client = APIClient()
    client.credentials(HTTP_X_REPORT_KEY=link.key)
    answer = client.post(
        f"/api/matches/{match.pk}/games/", {"winner": player.pk, "cube": 1}, format="json"
    )
    assert answer.status_code in (200, 201), answer.content
    other = APIClient()
    other.credentials(HTTP_X_REPORT_KEY=link.key)
    stranger = (
        Match.objects.filter(event=weekend.main, status=Match.Status.READY)
        .exclude(entry1__player=player)
        .exclude(entry2__player=player)
        .first()
    )
    body = {"winner": stranger.entry1.player_id, "cube": 1}
    assert other.post(f"/api/matches/{stranger.pk}/games/", body, format="json").status_code == 403


def services_regenerate(link: PlayerLink) -> PlayerLink:
    from tournament.services.player_links import player_link_regenerate

    return player_link_regenerate(link=link)


def test_an_entry_carries_the_players_link_for_the_tournaments_directors_only(
    weekend: Weekend,
) -> None:
    url = f"/api/events/{weekend.main.pk}/entries/"
    keys = dict(
        PlayerLink.objects.filter(tournament=weekend.tournament).values_list("player_id", "key")
    )
    rows = token_client(weekend.director).get(url).json()
    assert len(rows) == 8
    for row in rows:
        assert row["link_key"] == keys[row["player"]]
        assert row["link"] == f"http://testserver/r/{keys[row['player']]}/"
    # Anyone else: no link, no key; a director of another tournament neither, nor a
    # player with an account (one of the entered players).
    other_director = UserFactory()
    tournament_create(name="Elsewhere", slug="elsewhere", director=other_director)
    entered = PlayerLink.objects.filter(tournament=weekend.tournament).first().player
    entered.user = UserFactory()
    entered.save(update_fields=["user"])
    for caller in (None, other_director, entered.user):
        answer = token_client(caller).get(url)
        assert answer.status_code == 200
        assert all(row["link"] is None and row["link_key"] is None for row in answer.json())
        assert not any(key in answer.content.decode() for key in keys.values())
    # The entry answers of the director's writes carry it too.
    entry = weekend.main.entries.order_by("pk").first()
    withdrawn = token_client(weekend.director).post(f"/api/entries/{entry.pk}/withdraw/")
    assert withdrawn.status_code == 200, withdrawn.content
    assert withdrawn.json()["link_key"] == keys[entry.player_id]
    side = event_create(tournament=weekend.tournament, name="Side", slug="side")
    added = token_client(weekend.director).post(
        f"/api/events/{side.pk}/entries/", {"player": entry.player_id}, format="json"
    )
    assert added.status_code == 201, added.content
    assert added.json()["link"] == f"http://testserver/r/{keys[entry.player_id]}/"


def test_the_entry_list_reads_the_links_in_one_query_however_many_entries(
    weekend: Weekend,
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    side = event_create(tournament=weekend.tournament, name="Side", slug="side")
    client = token_client(weekend.director)
    counts = {}
    for size in (20, 60):
        while side.entries.count() < size:
            player = player_create(name=f"Side player {side.entries.count()}")
            entry_register(event=side, player=player)
        with CaptureQueriesContext(connection) as ctx:
            rows = client.get(f"/api/events/{side.pk}/entries/").json()
        assert len(rows) == size
        assert all(row["link_key"] for row in rows)
        counts[size] = len(ctx.captured_queries)
    assert counts[20] == counts[60], counts
