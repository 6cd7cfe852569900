"""The Django admin cannot change a score, winner, status or game: those leave an audit
record only through the services."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Game, Match, Submission
from tests.factories import EntryFactory, MatchFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_match_scores_winner_status_and_games_are_read_only(admin_client: Client) -> None:
    match = MatchFactory()
    page = admin_client.get(f"/admin/matches/match/{match.pk}/change/").content.decode()
    for field in ("score1", "score2", "status", "winner", "decision", "start_score1"):
        assert f'name="{field}"' not in page, field
    response = admin_client.post(
        f"/admin/matches/match/{match.pk}/change/",
        {
            "score1": 7,
            "status": Match.Status.COMPLETE,
            "winner": match.entry1_id,
            "games-TOTAL_FORMS": 0,
            "games-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code in (200, 302)
    match.refresh_from_db()
    assert (match.score1, match.status, match.winner_id) == (0, Match.Status.READY, None)


def test_matches_games_and_reports_cannot_be_added_or_deleted(admin_client: Client) -> None:
    match = MatchFactory()
    for model in ("match", "game", "submission"):
        assert admin_client.get(f"/admin/matches/{model}/add/").status_code in (403, 404)
    assert admin_client.get(f"/admin/matches/match/{match.pk}/delete/").status_code == 403
    assert Match.objects.filter(pk=match.pk).exists()
    assert not Game.objects.exists()
    assert not Submission.objects.exists()


def test_event_entry_and_round_statuses_are_read_only(admin_client: Client) -> None:
    entry = EntryFactory()
    pages = {
        f"/admin/tournament/event/{entry.event_id}/change/": ("status", "champion"),
        f"/admin/tournament/entry/{entry.pk}/change/": ("status",),
    }
    for path, fields in pages.items():
        page = admin_client.get(path).content.decode()
        for field in fields:
            assert f'name="{field}"' not in page, (path, field)


def test_an_entrys_player_and_event_cannot_be_swapped(admin_client: Client) -> None:
    match = MatchFactory()
    entry = match.entry1
    stranger = EntryFactory()
    page = admin_client.get(f"/admin/tournament/entry/{entry.pk}/change/").content.decode()
    for field in ("player", "event"):
        assert f'name="{field}"' not in page, field
    response = admin_client.post(
        f"/admin/tournament/entry/{entry.pk}/change/",
        {
            "player": stranger.player_id,
            "event": stranger.event_id,
            "seed": 3,
            "report_key": entry.report_key,
        },
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert (entry.player_id, entry.event_id, entry.seed) == (
        match.entry1.player_id,
        match.event_id,
        3,
    )


def test_a_players_rating_and_account_are_read_only(admin_client: Client) -> None:
    from tests.factories import PlayerFactory

    player = PlayerFactory(rating=1500.0)
    account = UserFactory()
    page = admin_client.get(f"/admin/tournament/player/{player.pk}/change/").content.decode()
    for field in ("rating", "user", "experience"):
        assert f'name="{field}"' not in page, field
    response = admin_client.post(
        f"/admin/tournament/player/{player.pk}/change/",
        {
            "name": "Renamed",
            "email": player.email,
            "club": player.club,
            "country": "",
            "rating": 3999,
            "experience": 500,
            "user": account.pk,
            "notify": "on",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == "Renamed"
    assert (player.rating, player.experience, player.user_id) == (1500.0, 0, None)
