"""Reports sent again with their Idempotency-Key: answered as the first time, recorded once.

A phone that sends its offline queue may send a report twice (its answer lost on the way
back, the page and the service worker both sending); a script retries after a timeout.
The key makes the second copy harmless; keys are kept a weekend and then swept. Also the
phones' syncs: what they still hold, per match, for the director and the room board.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from matches.models import DeviceSync, Game, Match, ReportKey, Submission
from matches.selectors import device_syncs, matches_with_unsent
from matches.services.idempotency import KEPT_HOURS_MIN, report_keys_sweep
from tests.matches.test_api import DATA, Bracket, make_bracket

pytestmark = pytest.mark.django_db


@pytest.fixture
def bracket(db: None) -> Bracket:
    return make_bracket(length=25)


def post(client: APIClient, path: str, body: dict[str, Any], key: str | None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(path, body, format="json", **headers)


def game_body(match: Match, number: int, side: int = 1, cube: int = 1) -> dict[str, Any]:
    winner = (match.entry1 if side == 1 else match.entry2).player_id
    return {"winner": winner, "cube": cube, "result": "single", "game_number": number}


def counts(match: Match) -> tuple[int, int]:
    return (
        Game.objects.filter(match=match, voided=False).count(),
        Submission.objects.filter(match=match).count(),
    )


def test_a_game_sent_again_with_its_key_is_answered_the_same_and_recorded_once(
    bracket: Bracket,
) -> None:
    match, phone = bracket.first, bracket.link_client(bracket.first, 1)
    key = str(uuid.uuid4())
    path = f"/api/matches/{match.pk}/games/"
    first = post(phone, path, game_body(match, 1, cube=2), key)
    assert first.status_code == 201, first.json()
    assert "Idempotent-Replayed" not in first.headers
    assert counts(match) == (1, 1)
    again = post(phone, path, game_body(match, 1, cube=2), key)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["score"] == first.json()["score"] == [2, 0]
    assert again.json()["games"] == first.json()["games"]
    assert counts(match) == (1, 1)  # no game, no submission more
    # Without the key, the same body is a new report: refused as already recorded (kept).
    plain = post(phone, path, game_body(match, 1, cube=2), None)
    assert plain.status_code == 409
    assert plain.json()["code"] == "game-already-recorded"
    assert counts(match) == (1, 2)


def test_a_refused_report_sent_again_gets_the_same_refusal_and_is_stored_once(
    bracket: Bracket,
) -> None:
    match, phone = bracket.first, bracket.link_client(bracket.first, 1)
    path = f"/api/matches/{match.pk}/games/"
    key = str(uuid.uuid4())
    refused = post(phone, path, game_body(match, 3), key)  # game 1 comes first
    assert refused.status_code == 409
    assert refused.json()["code"] == "game-out-of-order"
    again = post(phone, path, game_body(match, 3), key)
    assert again.status_code == 409
    assert again.json() == refused.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert counts(match) == (0, 1)
    # Bad input too: stored once as rejected, answered 400 both times.
    bad_key = str(uuid.uuid4())
    bad = {"winner": "nobody", "game_number": 1}
    assert post(phone, path, bad, bad_key).status_code == 400
    assert post(phone, path, bad, bad_key).status_code == 400
    assert counts(match) == (0, 2)


def test_a_key_used_again_for_another_report_is_refused(bracket: Bracket) -> None:
    match, phone = bracket.first, bracket.link_client(bracket.first, 1)
    path = f"/api/matches/{match.pk}/games/"
    key = str(uuid.uuid4())
    assert post(phone, path, game_body(match, 1), key).status_code == 201
    other = post(phone, path, game_body(match, 2, side=2), key)
    assert other.status_code == 400
    assert other.json()["code"] == "idempotency-key-reused"
    assert other.json()["detail"]["field"] == "Idempotency-Key"
    assert counts(match)[0] == 1
    # The refusal is kept (as every report is), and does not take the key over.
    assert ReportKey.objects.filter(match=match, key=key).count() == 1


@pytest.mark.parametrize("key", ["x" * 101, "has space", "tab\there", "ünicode"])
def test_a_key_that_cannot_be_one_is_refused_naming_the_header(bracket: Bracket, key: str) -> None:
    match, phone = bracket.first, bracket.link_client(bracket.first, 1)
    answer = phone.post(
        f"/api/matches/{match.pk}/games/",
        game_body(match, 1),
        format="json",
        HTTP_IDEMPOTENCY_KEY=key.encode().decode("latin-1"),
    )
    assert answer.status_code == 400
    assert answer.json()["detail"]["field"] == "Idempotency-Key"
    assert counts(match) == (0, 1)  # the refused report is kept, as any bad input


def test_the_same_key_on_another_match_is_another_report(bracket: Bracket) -> None:
    key = str(uuid.uuid4())
    for match in (bracket.first, bracket.second):
        phone = bracket.link_client(match, 1)
        answer = post(phone, f"/api/matches/{match.pk}/games/", game_body(match, 1), key)
        assert answer.status_code == 201
        assert "Idempotent-Replayed" not in answer.headers


def test_confirm_and_dispute_sent_again_record_once(bracket: Bracket) -> None:
    match = bracket.first
    one, two = bracket.link_client(match, 1), bracket.link_client(match, 2)
    path = f"/api/matches/{match.pk}/games/"
    assert post(one, path, game_body(match, 1, cube=32), None).status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    key = str(uuid.uuid4())
    confirm = f"/api/matches/{match.pk}/confirm/"
    assert post(two, confirm, {}, key).status_code == 200
    again = post(two, confirm, {}, key)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Submission.objects.filter(match=match, kind="confirm").count() == 1


def test_a_match_file_sent_again_with_its_key_is_recorded_once(db: None) -> None:
    b = make_bracket(25, ("Anna Kowalska", "Cleo", "Dan", "Bert van Dijk"))  # Anna v Bert
    match = b.first
    phone = b.link_client(match, 1)
    url = f"/api/matches/{match.pk}/record/"

    def upload(name: str, key: str | None) -> Any:
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
        with (DATA / name).open("rb") as f:
            return phone.post(url, {"file": f}, format="multipart", **headers)

    key = str(uuid.uuid4())
    first = upload("anna_bert_25pt.mat", key)
    assert first.status_code == 201, first.json()
    assert "Idempotent-Replayed" not in first.headers
    assert counts(match) == (20, 1)
    again = upload("anna_bert_25pt.mat", key)
    assert again.status_code == 201, again.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["score"] == first.json()["score"] == [26, 16]
    assert again.json()["games"] == first.json()["games"]
    assert counts(match) == (20, 1)
    assert ReportKey.objects.filter(match=match, key=key).count() == 1


def test_a_refused_match_file_sent_again_is_refused_the_same_and_stored_once(db: None) -> None:
    b = make_bracket(25, ("Anna Kowalska", "Cleo", "Dan", "Bert van Dijk"))
    match = b.first
    phone = b.link_client(match, 1)
    url = f"/api/matches/{match.pk}/record/"
    key = str(uuid.uuid4())
    answers = []
    for _ in range(2):
        with (DATA / "anna_bert_25pt_illegal.mat").open("rb") as f:
            answers.append(
                phone.post(url, {"file": f}, format="multipart", HTTP_IDEMPOTENCY_KEY=key)
            )
    first, again = answers
    assert (first.status_code, first.json()["code"]) == (400, "illegal-move")
    assert again.status_code == 400
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert counts(match) == (0, 1)


def test_the_directors_resolve_sent_again_with_its_key_records_once(bracket: Bracket) -> None:
    match = bracket.first
    director = bracket.client_for(bracket.director)
    url = f"/api/matches/{match.pk}/resolve/"
    key = str(uuid.uuid4())
    games = [game_body(match, n) for n in range(1, 4)]
    body = {"games": games, "note": "from the scoresheet"}
    first = post(director, url, body, key)
    assert first.status_code == 200, first.json()
    again = post(director, url, body, key)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["games"] == first.json()["games"]
    assert Submission.objects.filter(match=match, kind="resolve").count() == 1
    assert Game.objects.filter(match=match).count() == 3  # none voided and entered again
    # The final score alone, on a match without games: the same.
    other = bracket.second
    url = f"/api/matches/{other.pk}/resolve/"
    score_key = str(uuid.uuid4())
    for _ in range(2):
        answer = post(director, url, {"score": [25, 3]}, score_key)
        assert answer.status_code == 200, answer.json()
    assert answer.headers["Idempotent-Replayed"] == "true"
    assert Submission.objects.filter(match=other).count() == 1
    # Another decision with the same key is refused, naming the header.
    reused = post(director, url, {"score": [25, 4], "confirm": True}, score_key)
    assert (reused.status_code, reused.json()["code"]) == (400, "idempotency-key-reused")


def test_the_form_on_the_private_link_page_is_recorded_once_when_sent_twice(
    bracket: Bracket, client: Any
) -> None:
    match = bracket.first
    key = match.entry1.report_key
    page = client.get(f"/r/{key}/")
    form_key = page.context["idempotency_key"]
    body = {
        "winner": match.entry1.player_id,
        "cube": 1,
        "result": "single",
        "ended_by": "play",
        "game_number": 1,
        "idempotency_key": str(form_key),
    }
    url = f"/r/{key}/matches/{match.pk}/game/"
    assert client.post(url, body).status_code == 302
    second = client.post(url, body, follow=True)
    assert "Game 1 was already recorded" in second.content.decode()
    assert counts(match) == (1, 1)


def test_the_private_links_confirm_and_dispute_forms_record_once_when_sent_twice(
    bracket: Bracket, client: Any
) -> None:
    """Each form of the link's page carries a key of its own, generated by the page: the
    same form sent again (a second tap, the browser's resend) records nothing and
    answers the same."""
    match, other = bracket.first, bracket.second
    for m in (match, other):
        phone = bracket.link_client(m, 1)
        assert post(phone, f"/api/matches/{m.pk}/games/", game_body(m, 1, cube=32), None)
    # Confirm: the opponent's page.
    key = match.entry2.report_key
    shown = client.get(f"/r/{key}/")
    confirm_key = str(shown.context["confirm_key"])
    assert f'name="idempotency_key" value="{confirm_key}"' in shown.content.decode()
    url = f"/r/{key}/matches/{match.pk}/confirm/"
    first = client.post(url, {"idempotency_key": confirm_key}, follow=True)
    again = client.post(url, {"idempotency_key": confirm_key}, follow=True)
    assert "Result confirmed" in first.content.decode()
    assert "Result confirmed" in again.content.decode()
    assert Submission.objects.filter(match=match, kind="confirm").count() == 1
    assert ReportKey.objects.filter(match=match, key=confirm_key).count() == 1
    # Dispute: the other match's opponent.
    key = other.entry2.report_key
    context = client.get(f"/r/{key}/").context
    dispute_key = str(context["dispute_key"])
    assert len({str(context[k]) for k in ("idempotency_key", "confirm_key", "dispute_key")}) == 3
    url = f"/r/{key}/matches/{other.pk}/dispute/"
    body = {"reason": "Game 1 was a single.", "idempotency_key": dispute_key}
    for _ in range(2):
        answer = client.post(url, body, follow=True)
        assert "The match is with the director" in answer.content.decode()
    assert Submission.objects.filter(match=other, kind="dispute").count() == 1
    # A form that does not validate, sent twice: one rejected report.
    bad = {"reason": "", "idempotency_key": str(uuid.uuid4())}
    assert client.post(url, bad).status_code == 400
    assert client.post(url, bad).status_code == 400
    assert Submission.objects.filter(match=other, kind="dispute").count() == 2


def test_the_private_links_upload_form_records_a_file_once_when_sent_twice(
    db: None, client: Any
) -> None:
    b = make_bracket(25, ("Anna Kowalska", "Cleo", "Dan", "Bert van Dijk"))
    match = b.first
    key = match.entry1.report_key
    record_key = str(client.get(f"/r/{key}/").context["record_key"])
    url = f"/r/{key}/matches/{match.pk}/record/"
    for _ in range(2):
        with (DATA / "anna_bert_25pt.mat").open("rb") as f:
            answer = client.post(url, {"file": f, "idempotency_key": record_key})
        assert answer.status_code == 302
    assert counts(match) == (20, 1)


def test_keys_are_kept_a_weekend_then_swept(bracket: Bracket, settings: Any) -> None:
    match, phone = bracket.first, bracket.link_client(bracket.first, 1)
    key = str(uuid.uuid4())
    assert post(phone, f"/api/matches/{match.pk}/games/", game_body(match, 1), key)
    settings.REPORT_KEY_HOURS = 1  # never under a weekend
    now = timezone.now()
    assert report_keys_sweep(now=now + dt.timedelta(hours=KEPT_HOURS_MIN - 1)) == 0
    assert ReportKey.objects.filter(key=key).exists()
    assert report_keys_sweep(now=now + dt.timedelta(hours=KEPT_HOURS_MIN + 1)) == 1
    assert not ReportKey.objects.exists()
    assert Submission.objects.filter(match=match).count() == 1  # the record stays


@override_settings(REPORT_LINK_RATE="100000/min")  # the link's rate limit is not tested here
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sends=st.lists(st.integers(min_value=-1, max_value=7), min_size=1, max_size=20))
def test_any_resends_of_a_queue_record_each_game_once(bracket: Bracket, sends: list[int]) -> None:
    """A queue of 8 games, each with its key, sent in order by two senders at once (the page
    and the service worker), each copy any number of times: each game is recorded once,
    in order, with one submission; nothing twice. ``-1`` sends the next game; ``k`` sends
    game ``k`` again if it went already (else the next)."""
    match = Match.objects.create(
        event=bracket.first.event,
        round=bracket.first.round,
        slot=Match.objects.filter(round=bracket.first.round).count() + 10,
        entry1=bracket.first.entry1,
        entry2=bracket.second.entry2,
        length=25,
        status=Match.Status.READY,
    )
    phone = bracket.link_client(match, 1)
    keys = [str(uuid.uuid4()) for _ in range(8)]
    path = f"/api/matches/{match.pk}/games/"
    sent = 0
    order = []
    for k in [*sends, *[-1] * 8, *range(8)]:  # then the rest of the queue, then all again
        if k == -1 or k >= sent:
            if sent == 8:
                continue
            k, sent = sent, sent + 1
        order.append(k)
        answer = post(phone, path, game_body(match, k + 1, side=1 + k % 2), keys[k])
        assert answer.status_code == 201, answer.json()
    numbers = list(Game.objects.filter(match=match).values_list("number", flat=True))
    assert numbers == list(range(1, 9))
    assert Submission.objects.filter(match=match).count() == 8
    assert ReportKey.objects.filter(match=match).count() == 8


def test_a_phone_syncs_what_it_holds_and_the_director_sees_it(bracket: Bracket) -> None:
    match = bracket.first
    client = APIClient()
    key = match.entry1.report_key
    other = bracket.second  # not this player's: left out
    answer = client.post(
        "/api/devices/sync/",
        {
            "matches": [
                {"match": match.pk, "unsent": 3, "attention": 1},
                {"match": other.pk, "unsent": 9},
            ]
        },
        format="json",
        HTTP_X_REPORT_KEY=key,
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["matches"] == [{"match": match.pk, "unsent": 3, "attention": 1}]
    syncs = device_syncs(match_ids=[match.pk, other.pk])
    assert list(syncs) == [match.pk]
    (row,) = syncs[match.pk]
    assert (row.entry_id, row.unsent, row.attention) == (match.entry1_id, 3, 1)
    assert matches_with_unsent(match_ids=[match.pk, other.pk]) == {match.pk}
    client.post(
        "/api/devices/sync/",
        {"matches": [{"match": match.pk, "unsent": 0}]},
        format="json",
        HTTP_X_REPORT_KEY=key,
    )
    assert DeviceSync.objects.get().unsent == 0
    assert matches_with_unsent(match_ids=[match.pk]) == set()


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        ({"matches": []}, {}, 401),
        ({"matches": []}, {"HTTP_X_REPORT_KEY": "nope"}, 404),
        ({"matches": [{"match": 1, "unsent": -1}]}, {"HTTP_X_REPORT_KEY": "k"}, 400),
        ({"matches": "x"}, {"HTTP_X_REPORT_KEY": "k"}, 400),
    ],
)
def test_a_sync_without_a_key_or_with_bad_counts_is_refused(
    bracket: Bracket, body: Any, headers: dict[str, str], status: int
) -> None:
    if headers.get("HTTP_X_REPORT_KEY") == "k":
        headers = {"HTTP_X_REPORT_KEY": bracket.first.entry1.report_key}
    answer = APIClient().post("/api/devices/sync/", body, format="json", **headers)
    assert answer.status_code == status
    assert "code" in answer.json()


def test_the_schema_documents_the_key_and_the_sync(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for path in (
        "/api/matches/{id}/games/",
        "/api/matches/{id}/report/",
        "/api/matches/{id}/confirm/",
        "/api/matches/{id}/dispute/",
        "/api/matches/{id}/record/",
        "/api/matches/{id}/resolve/",
    ):
        names = {p["name"] for p in paths[path]["post"]["parameters"]}
        assert "Idempotency-Key" in names, path
    games = next(
        p
        for p in paths["/api/matches/{id}/games/"]["post"]["parameters"]
        if p["name"] == "Idempotency-Key"
    )
    assert "Idempotent-Replayed" in games["description"]
    sync = paths["/api/devices/sync/"]["post"]
    assert sync["operationId"] == "devices_sync"
    assert set(sync["responses"]) >= {"200", "400", "401", "404"}
