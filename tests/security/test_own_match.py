"""A director who plays in a match may not decide it (403 ``own-match``) through any
door; another director may. Each refused attempt is kept as a rejected submission."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Match, Submission
from tests.factories import MatchFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene() -> tuple[Match, object, object]:
    match = MatchFactory()
    tournament = match.event.tournament
    playing = tournament.directors.first()
    player = match.entry1.player
    player.user = playing
    player.save()
    other = UserFactory()
    tournament.directors.add(other)
    return match, playing, other


def _api(user: object) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _refusals(match: Match) -> list[str]:
    return list(
        Submission.objects.filter(match=match, status=Submission.Status.REJECTED).values_list(
            "error_code", flat=True
        )
    )


@pytest.mark.parametrize("action", ["forfeit", "walkover", "resolve"])
def test_the_api_refuses_a_director_deciding_their_own_match(scene, action: str) -> None:
    match, playing, other = scene
    body = {"winner": match.entry1.player_id, "reason": "mine"} if action != "resolve" else {}
    response = _api(playing).post(f"/api/matches/{match.pk}/{action}/", body, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "own-match"
    match.refresh_from_db()
    assert match.status == Match.Status.READY
    assert _refusals(match) == ["own-match"]
    if action != "resolve":
        answer = _api(other).post(f"/api/matches/{match.pk}/{action}/", body, format="json")
        assert answer.status_code == 200
        match.refresh_from_db()
        assert match.winner_id == match.entry1_id


def test_the_api_refuses_correcting_ones_own_match(scene) -> None:
    match, playing, _ = scene
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.COMPLETE, winner_id=match.entry1_id
    )
    flip = {"winner": match.entry2.player_id}
    refused = _api(playing).post(f"/api/matches/{match.pk}/correct/", flip)
    assert refused.status_code == 403
    assert refused.json()["code"] == "own-match"
    assert _refusals(match) == ["own-match"]
    refused_attempt = Submission.objects.get(match=match)
    assert refused_attempt.submitted_by == playing
    assert refused_attempt.kind == Submission.Kind.RESOLVE
    assert refused_attempt.payload["correct_winner_entry"] == match.entry2_id
    match.refresh_from_db()
    assert match.winner_id == match.entry1_id


def test_the_console_refuses_it_too(scene) -> None:
    match, playing, _ = scene
    client = Client()
    client.force_login(playing)
    slug = match.event.tournament.slug
    response = client.post(
        f"/director/t/{slug}/matches/{match.pk}/forfeit/",
        {"winner": match.entry1_id, "decision": "forfeit", "reason": ""},
    )
    assert response.status_code in (400, 403)
    assert "another director" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.READY
    assert _refusals(match) == ["own-match"]


def test_a_director_cannot_win_their_own_match_by_withdrawing_the_opponent(scene) -> None:
    match, playing, other = scene
    opponent = match.entry2
    refused = _api(playing).post(f"/api/entries/{opponent.pk}/withdraw/", {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "own-match"
    opponent.refresh_from_db()
    assert opponent.status != "withdrawn"
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.READY, None)
    assert _refusals(match) == ["own-match"]
    attempt = Submission.objects.get(match=match)
    assert (attempt.submitted_by, attempt.as_director) == (playing, True)
    assert attempt.payload["decision"] == "walkover"
    assert attempt.payload["winner_entry"] == match.entry1_id
    # Another director may; the walkover is stored as theirs.
    answer = _api(other).post(f"/api/entries/{opponent.pk}/withdraw/", {}, format="json")
    assert answer.status_code == 200
    match.refresh_from_db()
    assert (match.decision, match.winner_id) == ("walkover", match.entry1_id)
    given = Submission.objects.get(match=match, status=Submission.Status.ACCEPTED)
    assert given.submitted_by == other


def test_a_director_may_withdraw_themselves_from_their_match(scene) -> None:
    match, playing, _ = scene
    answer = _api(playing).post(f"/api/entries/{match.entry1_id}/withdraw/", {}, format="json")
    assert answer.status_code == 200
    match.refresh_from_db()
    assert (match.decision, match.winner_id) == ("walkover", match.entry2_id)
    assert _refusals(match) == []
