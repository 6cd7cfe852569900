# ruff: noqa: F811  (the fixtures ``api`` and ``director`` are the tournament API test's)
"""What the console can do to a decided match, the API can do, with the console's rules and
messages: reopen a walkover or forfeit, correct a score (re-seating the next round); and a
"your next match" email that such a change takes back is corrected."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.api.test_tournament_api import all_pages, api, director, ok  # noqa: F401
from tests.tournament.conftest import winning_games
from tournament.models import Notice, PlayerLink

pytestmark = pytest.mark.django_db


def _main(api: Any, players: int = 4) -> tuple[dict[str, Any], dict[int, str]]:
    """A Main of ``players`` with emails, drawn by rating, its first two rounds started;
    the player ids and their emails."""
    ok(api.post("/api/tournaments/", {"name": "Odense Open", "slug": "odense"}), 201)
    event = ok(
        api.post(
            "/api/tournaments/odense/events/",
            {"name": "Main", "format": "single-elimination", "match_lengths": [3]},
        ),
        201,
    )
    emails = {}
    for k in range(players):
        email = f"p{k}@example.org"
        player = ok(
            api.post("/api/players/", {"name": f"P{k}", "rating": 1500 + k, "email": email}), 201
        )
        emails[player["id"]] = email
        ok(api.post(f"/api/events/{event['id']}/entries/", {"player": player["id"]}), 201)
    ok(api.post(f"/api/events/{event['id']}/draw/", {"method": "rating"}), 201)
    for r in ok(api.get(f"/api/events/{event['id']}/"))["round_list"][:2]:
        ok(api.post(f"/api/rounds/{r['id']}/start/"))
    return event, emails


def _report(api: Any, match: dict[str, Any], side: int) -> None:
    winner = match["player1"] if side == 1 else match["player2"]
    games = winning_games(3, (0, 0), 1)
    body = {"games": [{"winner": winner, "cube": g.cube, "result": g.result} for g in games]}
    ok(api.post(f"/api/matches/{match['id']}/report/", body), 201)


def _to(mailoutbox: list, email: str, word: str) -> list:
    return [m for m in mailoutbox if m.to == [email] and word in m.subject]


def test_reopening_a_walkover_through_the_api_corrects_the_final_notices(
    api: Any, mailoutbox: list
) -> None:
    event, emails = _main(api)
    first, second = all_pages(api, f"/api/matches/?event={event['id']}&round=1")
    walked = first["player1"]
    ok(api.post(f"/api/matches/{first['id']}/walkover/", {"winner": walked}))
    _report(api, second, 1)
    final = all_pages(api, f"/api/matches/?event={event['id']}&round=2")[0]
    assert final["status"] == "ready"
    other = second["player1"]
    assert {final["player1"], final["player2"]} == {walked, other}
    assert len(_to(mailoutbox, emails[other], "Final)")) == 1
    assert Notice.objects.filter(match_id=final["id"], corrected_at=None).count() == 2

    mailoutbox.clear()
    body = ok(api.post(f"/api/matches/{first['id']}/reopen/", {"reason": "he came after all"}))
    assert body["status"] == "ready"
    assert body["winner"] is None
    final = ok(api.get(f"/api/matches/{final['id']}/"))
    assert walked not in (final["player1"], final["player2"])
    assert final["status"] == "pending"

    # Both finalists told their final is off, and what holds now.
    (to_other,) = _to(mailoutbox, emails[other], "Correction")
    assert "P" in to_other.subject
    assert "is off" in to_other.subject
    assert "your opponent is not known yet" in to_other.body
    (to_walked,) = _to(mailoutbox, emails[walked], "Correction")
    assert "Main, Semi-final: P" in to_walked.body  # their reopened first-round match
    assert Notice.objects.filter(match_id=final["id"], corrected_at=None).count() == 0

    # The private link shows the current state: no final against the walkover winner.
    link = PlayerLink.objects.get(player_id=other, tournament__slug="odense")
    page = Client().get(f"/r/{link.key}/").content.decode()
    walked_name = ok(api.get(f"/api/players/{walked}/"))["name"]
    assert f"v {walked_name}" not in page

    # Played after all: the final is on again, and announced again (a fresh notice).
    mailoutbox.clear()
    first = ok(api.get(f"/api/matches/{first['id']}/"))
    _report(api, first, 1)
    assert len(_to(mailoutbox, emails[other], "Your next match")) == 1
    assert Notice.objects.filter(match_id=final["id"], corrected_at=None).count() == 2


def test_the_reopen_refusals_are_the_consoles(api: Any) -> None:
    event, _ = _main(api)
    first, second = all_pages(api, f"/api/matches/?event={event['id']}&round=1")
    _report(api, first, 1)
    refused = api.post(f"/api/matches/{first['id']}/reopen/", {})
    assert refused.status_code == 400
    assert refused.json()["code"] == "not-reopenable"
    assert "was not decided by forfeit or walkover" in refused.json()["message"]
    ok(api.post(f"/api/matches/{second['id']}/forfeit/", {"winner": second["player2"]}))
    final = all_pages(api, f"/api/matches/?event={event['id']}&round=2")[0]
    _report(api, final, 1)
    refused = api.post(f"/api/matches/{second['id']}/reopen/", {})
    assert refused.status_code == 400
    assert refused.json()["code"] == "next-match-started"
    assert refused.json()["detail"]["match"] == final["id"]
    bad = api.post(f"/api/matches/{second['id']}/reopen/", {"reason": "x" * 501})
    assert bad.status_code == 400
    assert "reason" in bad.json()["detail"]


def test_a_score_correction_through_the_api_reseats_and_corrects(
    api: Any, mailoutbox: list
) -> None:
    event, emails = _main(api)
    first, second = all_pages(api, f"/api/matches/?event={event['id']}&round=1")
    _report(api, first, 1)
    _report(api, second, 1)
    final = all_pages(api, f"/api/matches/?event={event['id']}&round=2")[0]
    assert final["status"] == "ready"
    mailoutbox.clear()
    # The real score of the first match: player 2 won 3-1.
    bad = api.post(f"/api/matches/{first['id']}/score/", {"score": [3, 3]})
    assert bad.status_code == 400
    assert bad.json()["code"] == "score-mismatch"
    assert bad.json()["detail"]["field"] == "score"
    unlikely = api.post(f"/api/matches/{first['id']}/score/", {"score": [1, 30]})
    assert unlikely.status_code == 400
    assert unlikely.json()["code"] == "unlikely-score"
    body = ok(api.post(f"/api/matches/{first['id']}/score/", {"score": [1, 3]}))
    assert body["winner"] == first["player2"]
    assert body["decision"] == "score"
    final = ok(api.get(f"/api/matches/{final['id']}/"))
    assert first["player2"] in (final["player1"], final["player2"])
    assert first["player1"] not in (final["player1"], final["player2"])
    # The old finalist is told the final is off; the new one, and the other finalist,
    # get the new "your next match".
    assert _to(mailoutbox, emails[first["player1"]], "Correction")
    assert _to(mailoutbox, emails[second["player1"]], "Correction")
    assert _to(mailoutbox, emails[first["player2"]], "Your next match")
    assert _to(mailoutbox, emails[second["player1"]], "Your next match")


def test_the_schema_has_the_new_operations(api: Any) -> None:
    schema = Client().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert "post" in paths["/api/matches/{id}/reopen/"]
    score = paths["/api/matches/{id}/score/"]["post"]
    assert score["operationId"] == "matches_score"
    assert {"400", "409"} <= set(score["responses"])


def _operation(paths: dict[str, Any], path: str, operation_id: str) -> dict[str, Any]:
    operation = paths[path]["post"]
    assert operation["operationId"] == operation_id
    assert {"400", "403", "404", "409"} <= set(operation["responses"])
    return operation


def _said(operation: dict[str, Any]) -> str:
    return " ".join((operation.get("summary", ""), operation.get("description", "")))


def test_the_schema_states_the_undo_the_corrections_and_what_a_forfeit_feeds(api: Any) -> None:
    """Undo, reopen and every correction are in the schema with their rules: the one-step
    cascade of an undo and a reopen, the refusal that names the match played, the cascade
    of a correction, and what a forfeit or walkover in a Main does to its Consolation."""
    paths = Client().get("/api/schema/?format=json").json()["paths"]
    undo = _said(_operation(paths, "/api/entries/{id}/withdraw/undo/", "entries_withdraw_undo"))
    for said in ("one step", "every walkover", "Consolation", "place-given-away", "correction"):
        assert said in undo, said
    reopen = _said(_operation(paths, "/api/matches/{id}/reopen/", "matches_reopen"))
    for said in ("one step", "next-match-started", "correction", "/withdraw/undo/"):
        assert said in reopen, said
    correct = _operation(paths, "/api/matches/{id}/correct/", "matches_correct")
    for said in ("re-seated", "next-match-started", "`cascade`", "correction"):
        assert said in _said(correct), said
    body = correct["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = Client().get("/api/schema/?format=json").json()["components"]["schemas"]
    assert {"winner", "cascade", "confirm"} <= set(fields[body.rsplit("/", 1)[1]]["properties"])
    for path, operation_id in (
        ("/api/matches/{id}/forfeit/", "matches_forfeit"),
        ("/api/matches/{id}/walkover/", "matches_walkover"),
    ):
        said = _said(_operation(paths, path, operation_id))
        assert "loser still goes into the Consolation" in said, operation_id
        assert "withdrawn instead" in said, operation_id
        assert "/reopen/" in said, operation_id


def test_a_withdrawal_tells_the_opponent_and_its_undo_puts_the_match_back_on(
    api: Any, mailoutbox: list
) -> None:
    event, emails = _main(api)
    first, _ = all_pages(api, f"/api/matches/?event={event['id']}&round=1")
    stays, leaves = first["player1"], first["player2"]
    assert len(_to(mailoutbox, emails[stays], "Your next match")) == 1
    entry = next(
        e for e in ok(api.get(f"/api/events/{event['id']}/entries/")) if e["player"] == leaves
    )
    mailoutbox.clear()
    ok(api.post(f"/api/entries/{entry['id']}/withdraw/", {}))
    (told,) = _to(mailoutbox, emails[stays], "Correction")
    assert "is off" in told.body
    assert "by walkover" in told.body
    assert not _to(mailoutbox, emails[leaves], "Correction")  # they withdrew: they know

    mailoutbox.clear()
    ok(api.post(f"/api/entries/{entry['id']}/withdraw/undo/", {}))
    match = ok(api.get(f"/api/matches/{first['id']}/"))
    assert match["status"] == "ready"
    # On again: the player told it would not be played is told it is ready, once.
    assert len(_to(mailoutbox, emails[stays], "Your next match")) == 1
    assert not _to(mailoutbox, emails[leaves], "Your next match")  # their notice stands
