"""The reporting API as two players on two phones and a director use it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import Match, Submission
from tests.factories import (
    EntryFactory,
    EventFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournament.models import Event, Round, User
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.rounds import round_start

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "reporting"


@dataclass
class Bracket:
    """A drawn four-player single-elimination event with round 1 started."""

    event: Event
    director: User
    first: Match  # round 1, slot 0
    second: Match  # round 1, slot 1
    final: Match

    def client_for(self, user: User) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        return client

    def link_client(self, match: Match, side: int) -> APIClient:
        entry = match.entry1 if side == 1 else match.entry2
        client = APIClient()
        client.credentials(HTTP_X_REPORT_KEY=entry.report_key)
        return client


def make_bracket(
    length: int = 7, names: tuple[str, ...] = ("Anna", "Bert", "Cleo", "Dan")
) -> Bracket:
    director = UserFactory()
    tournament = TournamentFactory(director=director)
    event = event_create(tournament=tournament, name="Main", match_lengths=[length])
    players = [PlayerFactory(name=name, email=f"{name.lower()}@example.org") for name in names]
    for player in players:
        EntryFactory(event=event, player=player)
    draw_make(event=event, method="manual", order=[p.pk for p in players])
    round_start(round_=event.rounds.get(number=1, bracket=Round.Bracket.MAIN))
    matches = Match.objects.filter(event=event).select_related("entry1__player", "entry2__player")
    first, second = matches.filter(round__number=1).order_by("slot")
    final = matches.get(round__number=2)
    return Bracket(event, director, first, second, final)


@pytest.fixture
def bracket(db: None) -> Bracket:
    return make_bracket()


def game(client: APIClient, match: Match, **body: Any):  # type: ignore[no-untyped-def]
    return client.post(f"/api/matches/{match.pk}/games/", body, format="json")


def test_two_phones_play_a_7_point_match_and_the_winner_moves_on(
    bracket: Bracket, django_capture_on_commit_callbacks, mailoutbox, eager_tasks
) -> None:
    match = bracket.first
    p1, p2 = match.entry1.player, match.entry2.player
    account = UserFactory()
    p1.user = account
    p1.save()
    anna = bracket.client_for(account)  # player 1 logged in with a token
    bert = bracket.link_client(match, 2)  # player 2 with the private report key
    plan = [  # (reporter, winner, cube, result, doubles)
        (anna, p1, 2, "gammon", [{"by": p1.pk, "turn": 3, "response": "take"}]),  # 4-0
        (bert, p2, 1, "single", None),  # 4-1
        (bert, p2, 2, "single", [{"by": p1.pk, "turn": 2}]),  # 4-3
        (anna, p1, 2, "single", [{"by": p2.pk, "turn": 5}]),  # 6-3: Anna 1-away
    ]
    for number, (client, winner, cube, result, doubles) in enumerate(plan, start=1):
        body = {"winner": winner.pk, "cube": cube, "result": result, "game_number": number}
        if doubles is not None:
            body["doubles"] = doubles
        answer = game(client, match, **body)
        assert answer.status_code == 201, answer.json()
    shown = answer.json()
    assert shown["score"] == [6, 3]
    assert shown["crawford_game_number"] == 5
    assert [g["number"] for g in shown["games"]] == [1, 2, 3, 4]

    doubled = game(
        bert,
        match,
        winner=p2.pk,
        cube=2,
        doubles=[{"by": p2.pk, "turn": 2, "response": "take"}],
        game_number=5,
    )
    assert doubled.status_code == 400
    error = doubled.json()
    assert error["code"] == "double-in-crawford"
    assert error["detail"]["game"] == 5
    assert error["detail"]["side"] == 1
    assert game(bert, match, winner=p2.pk, game_number=5).status_code == 201  # 6-4
    again = game(anna, match, winner=p2.pk, game_number=5)
    assert again.status_code == 409
    assert again.json()["code"] == "game-already-recorded"
    done = game(anna, match, winner=p1.pk, cube=2, game_number=6)  # 8-4, post-Crawford
    assert done.status_code == 201
    assert (done.json()["status"], done.json()["winner"]) == ("reported", p1.pk)
    assert bracket.final.__class__.objects.get(pk=bracket.final.pk).entry1_id is None

    own = anna.post(f"/api/matches/{match.pk}/confirm/")
    assert (own.status_code, own.json()["code"]) == (403, "own-report")
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = bert.post(f"/api/matches/{match.pk}/confirm/")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "complete"
    final = Match.objects.get(pk=bracket.final.pk)
    assert final.entry1_id == match.entry1_id  # the winner moved on, by the task
    assert Match.objects.get(pk=match.pk).advanced_at is not None

    # The director starts the final's round; the other semi-final is reported by the director:
    # the final becomes ready and both finalists are emailed their private links.
    round_start(round_=final.round)
    other = bracket.second
    boss = bracket.client_for(bracket.director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = game(boss, other, winner=other.entry2.player_id, cube=8)
    assert answer.json()["status"] == "complete"
    final.refresh_from_db()
    assert (final.entry2_id, final.status) == (other.entry2_id, "ready")
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        [match.entry1.player.email, other.entry2.player.email]
    )
    assert f"/r/{match.entry1.report_key}/" in next(
        m.body for m in mailoutbox if m.to == [match.entry1.player.email]
    )


def test_who_may_call_the_reporting_api(bracket: Bracket) -> None:
    match = bracket.first
    body = {"winner": match.entry1.player_id}
    assert APIClient().post(f"/api/matches/{match.pk}/games/", body).status_code == 401
    wrong_key = APIClient()
    wrong_key.credentials(HTTP_X_REPORT_KEY="nope")
    assert wrong_key.post(f"/api/matches/{match.pk}/games/", body).status_code == 403
    third = bracket.link_client(bracket.second, 1)
    answer = third.post(f"/api/matches/{match.pk}/games/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (403, "permission-denied")
    outsider = UserFactory()
    EventFactory(tournament__director=outsider)
    assert (
        bracket.client_for(outsider).post(f"/api/matches/{match.pk}/games/", body).status_code
        == 403
    )
    # The key may also come as a field of the body.
    own = APIClient().post(
        f"/api/matches/{match.pk}/games/",
        {**body, "key": match.entry1.report_key},
        format="json",
    )
    assert own.status_code == 201
    assert APIClient().post("/api/matches/999999/games/", body).status_code in (401, 404)
    assert not Submission.objects.filter(match=bracket.second).exists()
    player = bracket.link_client(match, 2)
    assert player.get(f"/api/matches/{match.pk}/submissions/").status_code == 403
    audit = bracket.client_for(bracket.director).get(f"/api/matches/{match.pk}/submissions/")
    assert audit.status_code == 200
    assert [s["kind"] for s in audit.json()] == ["game"]


def test_bad_input_is_a_400_with_a_code_and_is_stored(bracket: Bracket) -> None:
    match = bracket.first
    client = bracket.link_client(match, 1)
    for body in (
        {"winner": "Anna"},
        {"winner": match.entry1.player_id, "cube": 3},
        {"winner": match.entry1.player_id, "cube": 2**40},
        {"winner": match.entry1.player_id, "result": "double"},
        {"winner": 10**9},
        {"winner": match.entry1.player_id, "ended_by": "drop", "result": "gammon"},
        [1, 2],
        {"winner": "\x00", "key": "x\x00"},  # PostgreSQL stores no NUL: kept as U+FFFD
    ):
        answer = client.post(f"/api/matches/{match.pk}/games/", body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        payload = answer.json()
        assert set(payload) == {"code", "message", "detail"}
    codes = list(
        Submission.objects.filter(match=match)
        .order_by("version")
        .values_list("error_code", flat=True)
    )
    assert codes == [
        "invalid",
        "bad-cube-value",
        "invalid",
        "invalid",
        "not-in-match",
        "result-mismatch",
        "invalid",
        "invalid",
    ]
    assert Match.objects.get(pk=match.pk).score1 == 0


def test_a_whole_match_report_through_the_api(bracket: Bracket) -> None:
    match = bracket.first
    p1, p2 = match.entry1.player_id, match.entry2.player_id
    client = bracket.link_client(match, 2)
    body = {
        "games": [
            {"winner": p1, "cube": 2, "result": "gammon"},
            {"winner": p2, "cube": 4},
            {"winner": p1, "cube": 2},
            {"winner": p1},
        ],
        "score": [7, 4],
    }
    wrong = client.post(
        f"/api/matches/{match.pk}/report/", {**body, "score": [7, 3]}, format="json"
    )
    assert (wrong.status_code, wrong.json()["code"]) == (400, "score-mismatch")
    answer = client.post(f"/api/matches/{match.pk}/report/", body, format="json")
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["score"], answer.json()["status"]) == ([7, 4], "reported")
    assert [g["crawford"] for g in answer.json()["games"]] == [False, False, False, True]


def test_a_gnubg_file_through_the_api(db: None) -> None:
    b = make_bracket(25, ("Anna Kowalska", "Cleo", "Dan", "Bert van Dijk"))  # 1 v 4: Anna v Bert
    match = b.first
    client = b.link_client(match, 1)
    url = f"/api/matches/{match.pk}/record/"
    with (DATA / "anna_bert_25pt_illegal.mat").open("rb") as f:
        bad = client.post(url, {"file": f}, format="multipart")
    assert bad.status_code == 400
    error = bad.json()
    assert error["code"] == "illegal-move"
    assert (error["detail"]["game"], error["detail"]["move"], error["detail"]["side"]) == (3, 6, 0)
    with (
        override_settings(MATCH_FILE_MAX_BYTES=4096),
        (DATA / "anna_bert_25pt.mat").open("rb") as f,
    ):
        big = client.post(url, {"file": f}, format="multipart")
    assert (big.status_code, big.json()["code"]) == (413, "file-too-large")
    with (DATA / "anna_bert_25pt.mat").open("rb") as f:
        good = client.post(url, {"file": f}, format="multipart")
    assert good.status_code == 201, good.json()
    assert good.json()["score"] == [26, 16]
    assert len(good.json()["games"]) == 20
    kinds = list(match.submissions.order_by("version").values_list("status", "error_code"))
    assert kinds == [("rejected", "illegal-move"), ("rejected", "file-too-large"), ("accepted", "")]


def test_names_that_differ_need_first_is(db: None) -> None:
    b = make_bracket(25)
    match = b.first
    client = b.link_client(match, 1)
    url = f"/api/matches/{match.pk}/record/"
    with (DATA / "anna_bert_25pt.mat").open("rb") as f:
        unmatched = client.post(url, {"file": f}, format="multipart")
    assert unmatched.status_code == 400
    assert unmatched.json()["code"] == "players-unmatched"
    assert unmatched.json()["detail"]["file_players"] == ["Anna_Kowalska", "Bert_van_Dijk"]
    with (DATA / "anna_bert_25pt.mat").open("rb") as f:
        good = client.post(url, {"file": f, "first_is": match.entry2.player_id}, format="multipart")
    assert good.status_code == 201
    assert good.json()["score"] == [16, 26]


def test_dispute_and_resolve_through_the_api(bracket: Bracket) -> None:
    match = bracket.first
    anna, bert = bracket.link_client(match, 1), bracket.link_client(match, 2)
    p1 = match.entry1.player_id
    game(anna, match, winner=p1, cube=8)
    empty = bert.post(f"/api/matches/{match.pk}/dispute/", {}, format="json")
    assert empty.status_code == 400
    disputed = bert.post(f"/api/matches/{match.pk}/dispute/", {"reason": "It was 4"}, format="json")
    assert disputed.json()["status"] == "disputed"
    refused = anna.post(f"/api/matches/{match.pk}/resolve/", {}, format="json")
    assert refused.status_code == 403
    boss = bracket.client_for(bracket.director)
    resolved = boss.post(
        f"/api/matches/{match.pk}/resolve/",
        {"games": [{"winner": p1, "cube": 4}, {"winner": p1, "cube": 4}], "note": "agreed"},
        format="json",
    )
    assert resolved.status_code == 200, resolved.json()
    assert (resolved.json()["status"], resolved.json()["score"]) == ("complete", [8, 0])
    assert len(resolved.json()["games"]) == 2
    assert match.games.filter(voided=True).count() == 1


def test_the_schema_documents_the_reporting_endpoints(client) -> None:  # type: ignore[no-untyped-def]
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("games", "report", "record", "confirm", "dispute", "resolve", "submissions"):
        assert f"/api/matches/{{id}}/{path}/" in schema["paths"]
