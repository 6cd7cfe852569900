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
