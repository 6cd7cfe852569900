"""One clock per tournament: forms read times in the tournament's zone; pages, emails and
CSVs show them in it; the API writes ISO 8601 with the offset. A Copenhagen tournament in
December (CET, UTC+01:00): 09:00 UTC is 10:00 there."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from matches.models import Analysis, AnalysisFigures, Match, Submission
from tests.factories import MatchFactory, PlayerFactory, UserFactory
from tests.tournament.conftest import winning_games
from tournament.models import Event, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.results import match_result_enter
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create
from tournament.tasks.notifications import match_ready_message

pytestmark = pytest.mark.django_db


def _settings(event: Event, **changes: str) -> dict[str, object]:
    """The event settings form as the console posts it, with ``changes``."""
    data: dict[str, object] = {
        "name": event.name,
        "slug": event.slug,
        "kind": event.kind,
        "format": event.format,
        "match_lengths": "3",
        "crawford": "on",
        "entry_fee": "20",
        "payout_split": "60, 40",
        "tiebreaks": ["wins"],
        "start_matches": "auto",
        "deadline_rule": "flag",
        "signup": "open",
        "signup_deadline": "",
        "entry_cap": "",
        "added_money": "",
        "prize_unit": "1",
    }
    data.update(changes)
    return data


NINE_UTC = dt.datetime(2030, 12, 5, 9, 0, tzinfo=dt.UTC)  # 10:00 in Copenhagen


@pytest.fixture
def cph(client: Client):
    director = UserFactory(username="td")
    t = tournament_create(name="Copenhagen Open", slug="cph", director=director)
    t.time_zone = "Europe/Copenhagen"
    t.save()
    event = event_create(
        tournament=t, name="Main", match_lengths=[3], slug="main", entry_fee=Decimal("20")
    )
    client.force_login(director)
    return event


def test_the_signup_deadline_typed_as_10_shows_10_everywhere(client: Client, cph: Event) -> None:
    answer = client.post(
        "/director/t/cph/events/main/settings/",
        _settings(cph, signup="open", signup_deadline="2030-12-05T10:00"),
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    cph.refresh_from_db()
    assert cph.signup_deadline == NINE_UTC
    form = client.get("/director/t/cph/events/main/settings/").content.decode()
    assert 'value="2030-12-05T10:00"' in form
    public = Client().get("/t/cph/main/signup/").content.decode()
    assert "10:00" in public
    assert "09:00" not in public
    assert 'datetime="2030-12-05T10:00:00+01:00"' in public
    api = Client().get(f"/api/events/{cph.pk}/").json()
    assert dt.datetime.fromisoformat(api["signup_deadline"]) == NINE_UTC  # ISO 8601, offset


def test_the_audit_and_last_login_are_on_the_tournaments_clock(client: Client, cph: Event) -> None:
    from tournament.models import User

    User.objects.filter(username="td").update(last_login=NINE_UTC)
    page = client.get("/director/t/cph/directors/").content.decode()
    assert "5 Dec 2030 10:00" in page
    match = MatchFactory(round__event=cph)
    Submission.objects.create(match=match, version=1, kind="game", status="accepted", payload={})
    Submission.objects.filter(match=match).update(created_at=NINE_UTC)
    audit = client.get(f"/director/matches/{match.pk}/audit/").content.decode()
    assert "10:00:00" in audit
    assert "09:00:00" not in audit


def test_the_next_match_email_names_the_deadline_on_the_tournaments_clock(cph: Event) -> None:
    match = MatchFactory(round__event=cph)
    Round.objects.filter(pk=match.round_id).update(deadline=NINE_UTC)
    match.refresh_from_db()
    body = match_ready_message(match, match.entry1, match.entry2).body
    assert "10:00 CET" in body
    assert "UTC" not in body


def test_results_csv_and_analysis_csv_carry_the_same_offset(client: Client, cph: Event) -> None:
    a, _b = (entry_register(event=cph, player=PlayerFactory()) for _ in range(2))
    draw_make(event=cph, method="rating")
    round_ = cph.rounds.get(number=1)
    round_start(round_=round_)
    match = Match.objects.get(round=round_, is_bye=False)
    match_result_enter(match=match, games=winning_games(3, (0, 0), 1))
    submission = match.submissions.first()
    assert submission is not None
    analysis = Analysis.objects.create(
        match=match,
        submission=submission,
        plies=0,
        status=Analysis.Status.DONE,
        finished_at=NINE_UTC,
    )
    numbers = dict.fromkeys(
        [
            "error_rate_memg",
            "chequer_error_rate_memg",
            "cube_error_rate_memg",
            "pr",
            "luck_rate_memg",
            "error_total_emg",
            "chequer_error_total_emg",
            "cube_error_total_emg",
            "luck_total_emg",
        ],
        1.0,
    )
    counts = dict.fromkeys(
        [
            "total_moves",
            "unforced_moves",
            "cube_decisions",
            "total_cube_decisions",
            "blunders",
            "errors",
            "doubtful",
            "cube_blunders",
            "cube_errors",
        ],
        1,
    )
    AnalysisFigures.objects.create(
        analysis=analysis, plies=0, side=1, player=a.player, **numbers, **counts
    )
    results = Client().get("/t/cph/main/results.csv").content.decode()
    analysed = Client().get("/api/tournaments/cph/analysis.csv").content.decode()
    assert "+01:00" in results
    assert "+00:00" not in results
    assert "2030-12-05T10:00:00+01:00" in analysed
