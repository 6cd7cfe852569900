"""The console's score and game-by-game forms carry a key the page generates (as the API
takes ``Idempotency-Key``): the same form sent twice, by a second tap or by the match
page's offline queue, is recorded once and answered the same. The queue asks for JSON
and gets the API's shape of answer."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from matches.models import Game, Match, ReportKey, Submission
from tests.console.test_match_actions import drawn, first_ready, url

pytestmark = pytest.mark.django_db
__all__ = ["drawn"]  # the fixture, used by name

WON = [("1", "1", "single", "play")] * 5  # player 1 wins a 5-point match 5-0


def games_form(rows: list[tuple[str, str, str, str]], total: int = 9) -> dict[str, str]:
    """The game-by-game form's fields: ``rows`` of (winner side, cube, result, ended by)."""
    data = {
        "games-TOTAL_FORMS": str(total),
        "games-INITIAL_FORMS": "0",
        "games-MIN_NUM_FORMS": "0",
        "games-MAX_NUM_FORMS": str(total),
    }
    for i in range(total):
        winner, cube, result, ended_by = rows[i] if i < len(rows) else ("", "1", "single", "play")
        data |= {
            f"games-{i}-winner": winner,
            f"games-{i}-cube": cube,
            f"games-{i}-result": result,
            f"games-{i}-ended_by": ended_by,
        }
    return data


def page_key(client: Any, match: Match, form: str) -> str:
    """The key the match page put in the ``form`` form (score or games)."""
    page = client.get(url(match)).content.decode()
    action = re.escape(url(match, form))
    found = re.search(
        rf'action="{action}"[^>]*>.*?name="idempotency_key" value="([^"]+)"', page, re.S
    )
    assert found, f"no key in the {form} form"
    return found.group(1)


def test_the_score_form_sent_twice_is_recorded_once_and_answered_the_same(client, drawn):
    match = first_ready(drawn)
    key = page_key(client, match, "score")
    assert key != page_key(client, match, "games")
    body = {"score1": "5", "score2": "2", "idempotency_key": key}
    first = client.post(url(match, "score"), body, follow=True)
    again = client.post(url(match, "score"), body, follow=True)
    assert first.redirect_chain == again.redirect_chain
    assert "Result saved." in again.content.decode()
    assert Submission.objects.filter(match=match).count() == 1
    assert ReportKey.objects.filter(match=match, key=key).count() == 1
    match.refresh_from_db()
    assert (match.status, match.score1, match.score2) == ("complete", 5, 2)


def test_the_games_form_sent_twice_is_recorded_once(client, drawn):
    match = first_ready(drawn)
    key = page_key(client, match, "games")
    body = {**games_form(WON), "idempotency_key": key}
    for _ in range(2):
        assert client.post(url(match, "games"), body).status_code == 302
    assert Submission.objects.filter(match=match).count() == 1
    assert Game.objects.filter(match=match).count() == 5
    # A refused form sent twice: one rejected report, the same refusal.
    other = first_ready(drawn)
    bad = {**games_form([("1", "1", "single", "play")]), "idempotency_key": str(uuid.uuid4())}
    refusals = [client.post(url(other, "games"), bad) for _ in range(2)]
    assert [r.status_code for r in refusals] == [400, 400]
    assert Submission.objects.filter(match=other).count() == 1


def test_the_offline_queue_gets_json_answers(client, drawn):
    """As the match page's queue sends a kept form: recorded (201), the same again
    (replayed), refused with the service's code and message, a form's error as invalid."""
    match = first_ready(drawn)
    key = str(uuid.uuid4())
    queue = {"HTTP_ACCEPT": "application/json"}
    body = {**games_form(WON), "idempotency_key": key}
    done = client.post(url(match, "games"), body, **queue)
    assert (done.status_code, done.json()) == (201, {"ok": True, "replayed": False})
    again = client.post(url(match, "games"), body, **queue)
    assert (again.status_code, again.json()) == (201, {"ok": True, "replayed": True})
    # The match is decided: the games sent again under another key (another device's
    # queue) are refused, with the service's code and message; sent again, the same.
    late_body = {**games_form(WON), "idempotency_key": "k-1"}
    late = client.post(url(match, "games"), late_body, **queue)
    assert late.status_code in (400, 409), late.content
    assert late.json()["code"] not in ("", "invalid")
    assert late.json()["message"]
    replay = client.post(url(match, "games"), late_body, **queue)
    assert replay.json() == late.json()
    assert replay["Idempotent-Replayed"] == "true"
    assert Game.objects.filter(match=match).count() == 5
    bad = client.post(url(first_ready(drawn), "score"), {"score1": "x"}, **queue)
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid"
    assert "score1" in bad.json()["message"]
