"""The API of ratings, series and deadlines."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.factories import EventFactory, MatchFactory, RoundFactory, UserFactory
from tournament.models import Series
from tournament.services.ratings import match_rate

pytestmark = pytest.mark.django_db


def finished(match: Match) -> Match:
    match.status, match.decision, match.winner = Match.Status.COMPLETE, "play", match.entry1
    match.score1 = match.length
    match.decided_at = match.confirmed_at = dt.datetime(2030, 1, 5, tzinfo=dt.UTC)
    match.save()
    return match


def test_a_players_rating_history() -> None:
    match = finished(MatchFactory(length=9))
    match_rate(match_id=match.pk)
    client = APIClient()
    body = client.get(f"/api/players/{match.entry1.player_id}/ratings/").json()
    assert body["experience"] == 9
    (change,) = body["history"]
    assert change["match"] == match.pk
    assert change["event"] == match.event_id
    assert change["change"] == pytest.approx(body["rating"] - change["rating_before"])
    assert change["change"] > 0
    assert client.get("/api/players/999999/ratings/").status_code == 404


def test_a_series_leaderboard() -> None:
    series = Series.objects.create(name="Season", slug="season")
    event = EventFactory(tournament__series=series, status="running", match_lengths=[4])
    match = finished(MatchFactory(round__event=event, length=4))
    body = APIClient().get("/api/series/season/leaderboard/").json()
    assert body["scheme"] == "master-points"
    assert [r["player"] for r in body["rows"]] == [match.entry1.player_id, match.entry2.player_id]
    # sqrt(4) for the win, sqrt(4) * log2(2 / 1) for first place of two
    assert body["rows"][0]["points"] == pytest.approx(4.0)
    assert body["events"][0]["field"] == 2


def test_directors_set_a_deadline_with_its_zone() -> None:
    director = UserFactory()
    rnd = RoundFactory(event__tournament__director=director)
    url = f"/api/rounds/{rnd.pk}/deadline/"
    client = APIClient()
    assert client.put(url, {"deadline": None}, format="json").status_code == 401
    client.force_authenticate(UserFactory())
    assert client.put(url, {"deadline": None}, format="json").status_code == 403
    client.force_authenticate(director)
    naive = client.put(url, {"deadline": "2030-03-10T20:00:00"}, format="json")
    assert naive.status_code == 400
    assert "UTC offset" in naive.json()["detail"]["deadline"][0]
    ok = client.put(url, {"deadline": "2030-03-10T20:00:00+01:00"}, format="json")
    assert ok.status_code == 200
    rnd.refresh_from_db()
    assert rnd.deadline == dt.datetime(2030, 3, 10, 19, 0, tzinfo=dt.UTC)
    assert client.put(url, {"deadline": "soon"}, format="json").status_code == 400
    assert client.put(url, {"deadline": None}, format="json").status_code == 200
    rnd.refresh_from_db()
    assert rnd.deadline is None


def test_a_player_turns_emails_off_through_the_private_link() -> None:
    from django.test import Client

    from tests.factories import EntryFactory

    entry = EntryFactory(player__name="<i>Ann</i>")
    url = f"/r/{entry.report_key}/emails/"
    client = Client(enforce_csrf_checks=True)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "&lt;i&gt;Ann&lt;/i&gt;" in html
    assert 'value="on" checked' in html
    assert client.post(url, {"notify": "off"}).status_code == 403  # no CSRF token
    token = page.cookies["csrftoken"].value
    done = client.post(url, {"notify": "off", "csrfmiddlewaretoken": token})
    assert done.status_code == 200
    from tournament.models import PlayerLink

    link = PlayerLink.objects.get(tournament=entry.event.tournament, player=entry.player)
    assert link.notify is False  # this tournament's notices only
    entry.player.refresh_from_db()
    assert entry.player.notify is True
    bad = client.post(url, {"notify": "maybe", "csrfmiddlewaretoken": token})
    assert bad.status_code == 400
    assert client.get("/r/not-a-key/emails/").status_code == 404
