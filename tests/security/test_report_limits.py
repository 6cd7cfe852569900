"""One private link cannot fill the disk: rejected reports keep capped content, only a
budget of them per hour keeps any, and the report endpoints are rate-limited per link."""

from __future__ import annotations

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from core.ratelimit import window_wait
from matches.models import Match, Submission
from matches.services.report_budget import BUDGET_PREFIX, STORED_PAYLOAD_MAX, STORED_TEXT_MAX
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def match() -> Match:
    return MatchFactory()


def _keyed(match: Match) -> Client:
    return Client(HTTP_X_REPORT_KEY=match.entry1.report_key)


def _rejected(match: Match) -> list[Submission]:
    return list(
        Submission.objects.filter(match=match, status=Submission.Status.REJECTED).order_by(
            "version"
        )
    )


def test_a_rejected_files_text_is_stored_only_up_to_a_size(match: Match) -> None:
    junk = SimpleUploadedFile("junk.mat", b"not a match file\n" * 40_000)  # 680 kB
    response = _keyed(match).post(f"/api/matches/{match.pk}/record/", {"file": junk})
    assert response.status_code == 400
    (stored,) = _rejected(match)
    assert STORED_TEXT_MAX <= len(stored.file_text) < STORED_TEXT_MAX + 100
    assert stored.file_text.endswith("characters not stored]")


def test_a_rejected_payload_is_stored_only_up_to_a_size(match: Match) -> None:
    body = {"winner": "nobody", "junk": "x" * (2 * STORED_PAYLOAD_MAX)}
    response = _keyed(match).post(
        f"/api/matches/{match.pk}/games/", body, content_type="application/json"
    )
    assert response.status_code == 400
    (stored,) = _rejected(match)
    assert stored.payload["not_stored"] == "payload too large"
    assert stored.error_code == "invalid"


@override_settings(REPORT_REJECTED_KEPT_PER_HOUR=2)
def test_past_the_hourly_budget_a_rejection_keeps_no_content(match: Match) -> None:
    client = _keyed(match)
    with time_machine.travel("2030-01-01 12:00:10", tick=False):
        for n in range(3):
            body = {"winner": "nobody", "n": n}
            client.post(f"/api/matches/{match.pk}/games/", body, content_type="application/json")
    first, second, third = _rejected(match)
    assert first.payload["n"] == 0
    assert second.payload["n"] == 1
    assert "n" not in third.payload  # still kept: who, when and why, but not the content
    assert third.payload["not_stored"].startswith("too many rejected reports")
    assert third.error_code == "invalid"


@override_settings(REPORT_REJECTED_KEPT_PER_HOUR=2)
def test_the_hourly_budget_is_counted_by_the_one_rate_counter(match: Match) -> None:
    """The budget is ``core.ratelimit``'s window per link: what it counted is spent.
    (An hour of its own: the cache outlives a test, and entry ids are reused.)"""
    with time_machine.travel("2030-01-02 09:00:10", tick=False):
        for _ in range(2):
            window_wait(BUDGET_PREFIX, f"entry:{match.entry1.pk}", (2, 3600))
        body = {"winner": "nobody", "n": 0}
        _keyed(match).post(f"/api/matches/{match.pk}/games/", body, content_type="application/json")
    (stored,) = _rejected(match)
    assert "n" not in stored.payload
    assert stored.payload["not_stored"].startswith("too many rejected reports")


@override_settings(REPORT_LINK_RATE="3/min")
def test_the_api_report_endpoints_are_rate_limited_per_link(match: Match) -> None:
    client = _keyed(match)
    with time_machine.travel("2030-01-01 12:00:10", tick=False):
        codes = [
            client.post(
                f"/api/matches/{match.pk}/games/", {"winner": "x"}, content_type="application/json"
            ).status_code
            for _ in range(4)
        ]
        other = Client(HTTP_X_REPORT_KEY=match.entry2.report_key).post(
            f"/api/matches/{match.pk}/games/", {"winner": "x"}, content_type="application/json"
        )
    assert codes == [400, 400, 400, 429]
    assert other.status_code == 400  # another link has its own count
    assert len(_rejected(match)) == 4


@override_settings(REPORT_LINK_RATE="3/min")
def test_the_private_link_forms_are_rate_limited(match: Match) -> None:
    key = match.entry1.report_key
    client = Client()
    with time_machine.travel("2030-01-01 12:00:10", tick=False):
        codes = [
            client.post(f"/r/{key}/matches/{match.pk}/game/", {"winner": "9"}).status_code
            for _ in range(4)
        ]
        last = client.post(f"/r/{key}/matches/{match.pk}/dispute/", {"reason": "x"})
    assert codes[:3] != [429] * 3
    assert codes[3] == 429
    assert last.status_code == 429
    assert int(last["Retry-After"]) > 0
    assert len(_rejected(match)) == 3


def _director_with_fresh_keys(match: Match):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(match.event.tournament.directors.first())
    keys = iter(f"made-up-key-{n:04d}" for n in range(1000))

    def post(body: dict) -> int:
        return client.post(
            f"/api/matches/{match.pk}/resolve/",
            body,
            format="json",
            HTTP_X_REPORT_KEY=next(keys),
        ).status_code

    return post


@override_settings(REPORT_LINK_RATE="3/min")
def test_a_director_is_rate_limited_whatever_report_key_they_send(match: Match) -> None:
    post = _director_with_fresh_keys(match)
    with time_machine.travel("2030-01-01 12:00:10", tick=False):
        codes = [post({"games": "nonsense"}) for _ in range(8)]
    assert codes[:3] == [400, 400, 400]
    assert codes[3:] == [429] * 5
    assert len(_rejected(match)) == 3


@override_settings(REPORT_REJECTED_KEPT_PER_HOUR=2, REPORT_LINK_RATE="100/min")
def test_a_directors_stored_budget_ignores_the_report_key_they_send(match: Match) -> None:
    post = _director_with_fresh_keys(match)
    with time_machine.travel("2030-01-01 12:00:10", tick=False):
        codes = [post({"games": "nonsense", "n": n}) for n in range(4)]
    assert codes == [400] * 4
    stored = _rejected(match)
    assert [s.payload.get("n") for s in stored] == [0, 1, None, None]
    assert all(s.payload["not_stored"].startswith("too many") for s in stored[2:])


@override_settings(REPORT_LINK_RATE="3/min")
def test_padding_the_key_in_a_json_body_buys_no_new_count(match: Match) -> None:
    """The key is stripped before it is looked up: so it is before it is counted. The
    player's link key and their entry's older key are one player too."""
    from tournament.services.player_links import player_link_ensure

    key = match.entry1.report_key
    link = player_link_ensure(
        tournament_id=match.event.tournament_id, player_id=match.entry1.player_id
    )
    client = Client()
    spellings = [key, f" {key}", f"{key}\n", f"\t{key} ", f"  {key}  ", link.key]
    with time_machine.travel("2030-01-01 12:00:10", tick=False):
        codes = [
            client.post(
                f"/api/matches/{match.pk}/games/",
                {"key": padded, "winner": "x"},
                content_type="application/json",
            ).status_code
            for padded in spellings
        ]
    assert codes == [400, 400, 400, 429, 429, 429]
    assert len(_rejected(match)) == 3
