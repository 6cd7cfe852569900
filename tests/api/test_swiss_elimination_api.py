"""The elimination Swiss and forbidden pairings through the API alone, checked against
the served OpenAPI schema."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest
from django.test import Client

from tests.factories import UserFactory, token_client
from tests.tournament.conftest import winning_games
from tournament.models import User

from . import test_tournament_api as weekend
from .test_tournament_api import all_pages, csv_of, ok

pytestmark = pytest.mark.django_db

director = weekend.director
api = weekend.api


def schema() -> dict[str, Any]:
    return Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema's ``null`` type."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def check(body: Any, path: str, method: str, status: str, spec: dict[str, Any]) -> None:
    content = spec["paths"][path][method]["responses"][status]["content"]["application/json"]
    ref = content["schema"]
    name = ref.get("$ref", "").rsplit("/", 1)[-1]
    target = spec["components"]["schemas"][name] if name else ref
    jsonschema.validate(
        body,
        json_schema({**target, "components": spec["components"]}),
        format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER,
    )


def report(api: Any, match: dict[str, Any], side: int) -> None:
    games = winning_games(match["length"], tuple(match["score"]), side)
    winner = match["player1"] if side == 1 else match["player2"]
    loser = match["player2"] if side == 1 else match["player1"]
    body = {
        "games": [
            {"winner": winner if g.winner == side else loser, "cube": g.cube, "result": g.result}
            for g in games
        ]
    }
    ok(api.post(f"/api/matches/{match['id']}/report/", body), 201)


def test_a_32_player_swiss_elimination_through_the_api(api: Any, director: User) -> None:
    spec = schema()
    ok(api.post("/api/tournaments/", {"name": "Nordic Open", "slug": "nordic"}), 201)
    event = ok(
        api.post(
            "/api/tournaments/nordic/events/",
            {
                "name": "Main",
                "format": "swiss-elimination",
                "match_lengths": [1],
                "losses_to_eliminate": 3,
                "places_paid": 4,
                "avoid_same_club_first_round": True,
            },
        ),
        201,
    )
    assert event["losses_to_eliminate"] == 3
    assert event["avoid_same_club_first_round"] is True
    check(event, "/api/tournaments/{slug}/events/", "post", "201", spec)
    eid = event["id"]
    imported = ok(api.post("/api/players/import/", {"csv": csv_of(32), "event": eid}))
    players = [p["id"] for p in imported["created"]]
    pair = ok(
        api.post(
            f"/api/events/{eid}/forbidden-pairs/",
            {"players": [players[0], players[1]], "strength": "absolute", "rounds": "all"},
        ),
        201,
    )
    assert pair["players"] == sorted(players[:2])
    check(pair, "/api/events/{id}/forbidden-pairs/", "post", "201", spec)
    ok(
        api.post(
            f"/api/events/{eid}/forbidden-pairs/",
            {"players": [players[2], players[3]], "strength": "avoid", "rounds": "first"},
        ),
        201,
    )
    listed = ok(api.get(f"/api/events/{eid}/forbidden-pairs/"))
    assert len(listed) == 2
    check(listed, "/api/events/{id}/forbidden-pairs/", "get", "200", spec)
    draw = ok(api.post(f"/api/events/{eid}/draw/", {"method": "random", "seed": 2026}), 201)
    assert draw["draw"]["seed"] == 2026
    rng = random.Random(5)
    apart = frozenset(players[:2])
    rounds = 0
    for _ in range(40):
        detail = ok(api.get(f"/api/events/{eid}/"))
        check(detail, "/api/events/{id}/", "get", "200", spec)
        if detail["status"] == "finished":
            break
        before = {
            row["player"]: row for row in ok(api.get(f"/api/events/{eid}/standings/"))["rows"]
        }
        started = ok(api.post(f"/api/events/{eid}/rounds/next/"), 201)
        rounds += 1
        for match in started["matches"]:
            seated = {match["player1"], match["player2"]} - {None}
            for p in seated:
                assert before[p]["status"] == "alive"
            if len(seated) == 2:
                assert frozenset(seated) != apart
        for match in all_pages(api, f"/api/matches/?event={eid}&status=ready"):
            report(api, match, rng.choice([1, 2]))
        table = ok(api.get(f"/api/events/{eid}/standings/"))
        check(table, "/api/events/{id}/standings/", "get", "200", spec)
        for row in table["rows"]:
            assert (row["status"] == "alive") == (row["losses"] < 3)
            if before[row["player"]]["status"] == "alive" and row["status"] == "eliminated":
                assert row["eliminated_in_round"] == started["round"]["number"]
        counts = table["counts"]
        assert counts["alive"] + counts["out"] == 32
    detail = ok(api.get(f"/api/events/{eid}/"))
    assert detail["status"] == "finished"
    table = ok(api.get(f"/api/events/{eid}/standings/"))
    alive = [row for row in table["rows"] if row["status"] == "alive"]
    # One champion: the one player alive, or the winner of the playoff of those left.
    playoff = detail["playoff"]
    assert len(alive) == (1 if playoff is None else len(playoff["seeds"]))
    assert detail["champion"]["entry"] == alive[0]["entry"]
    assert alive[0]["playoff"] == (None if playoff is None else "won")
    assert detail["counts"] == {
        "alive": len(alive),
        "cashing": 4,  # the four places paid, as they stand at the end
        "out": 32 - len(alive),
        "losses_to_eliminate": 3,
    }
    assert detail["final"]["places"][0]["entry"] == alive[0]["entry"]
    assert rounds >= 5
    # The public draw log shows the seed.
    page = Client().get(f"/t/nordic/{detail['slug']}/draws/{draw['draw']['id']}/")
    assert page.status_code == 200
    assert b"2026" in page.content


def test_the_wisconsin_ending_and_a_kept_player_through_the_api(api: Any, director: User) -> None:
    spec = schema()
    ok(api.post("/api/tournaments/", {"name": "Open", "slug": "open"}), 201)
    event = ok(
        api.post(
            "/api/tournaments/open/events/",
            {
                "name": "Main",
                "format": "swiss-elimination",
                "match_lengths": [1],
                "losses_to_eliminate": 2,
                "wisconsin_after_rounds": 9,
                "three_player_playoff": False,
            },
        ),
        201,
    )
    assert (event["wisconsin_after_rounds"], event["three_player_playoff"]) == (9, False)
    assert event["playoff"] is None
    eid = event["id"]
    changed = ok(api.patch(f"/api/events/{eid}/", {"wisconsin_after_rounds": 3}))
    assert changed["wisconsin_after_rounds"] == 3
    bad = api.patch(f"/api/events/{eid}/", {"wisconsin_after_rounds": 0})
    assert bad.status_code == 400
    assert "wisconsin_after_rounds" in bad.content.decode()
    ok(api.post("/api/players/import/", {"csv": csv_of(11), "event": eid}))
    ok(api.post(f"/api/events/{eid}/draw/", {"method": "random", "seed": 3}), 201)
    kept_once = False
    for number in range(1, 20):
        table = ok(api.get(f"/api/events/{eid}/standings/"))
        rows = table["rows"]
        alive = [row for row in rows if row["status"] == "alive"]
        just_out = [row for row in rows if row["eliminated_in_round"] == number - 1]
        body: dict[str, Any] = {}
        if len(alive) % 2 and just_out and not kept_once and number <= 3:
            body = {"keep": [just_out[0]["player"]]}
            wrong = api.post(
                f"/api/events/{eid}/rounds/next/", {"keep": [row["player"] for row in alive]}
            )
            assert wrong.status_code == 400
            assert "keep" in wrong.content.decode()
            kept_once = True
        detail = ok(api.get(f"/api/events/{eid}/"))
        if detail["status"] == "finished":
            break
        started = ok(api.post(f"/api/events/{eid}/rounds/next/", body), 201)
        check(started, "/api/events/{id}/rounds/next/", "post", "201", spec)
        if body:
            assert not any(m["player2"] is None for m in started["matches"])  # no bye
            seated = {p for m in started["matches"] for p in (m["player1"], m["player2"])}
            assert body["keep"][0] in seated
        for match in all_pages(api, f"/api/matches/?event={eid}&status=ready"):
            report(api, match, 1)
    detail = ok(api.get(f"/api/events/{eid}/"))
    check(detail, "/api/events/{id}/", "get", "200", spec)
    assert detail["status"] == "finished"
    assert detail["playoff"]["kind"] == "knockout"
    assert detail["playoff"]["after_round"] == 3
    rounds = {r["number"]: r for r in detail["round_list"]}
    assert rounds[4]["bracket"] == "playoff"
    table = ok(api.get(f"/api/events/{eid}/standings/"))
    check(table, "/api/events/{id}/standings/", "get", "200", spec)
    won = [row for row in table["rows"] if row["playoff"] == "won"]
    assert [row["entry"] for row in won] == [detail["champion"]["entry"]]
    assert table["rows"][0]["entry"] == detail["champion"]["entry"]
    assert kept_once


def test_forbidden_pairs_are_for_directors_only(api: Any, director: User) -> None:
    ok(api.post("/api/tournaments/", {"name": "Open", "slug": "open"}), 201)
    event = ok(
        api.post(
            "/api/tournaments/open/events/",
            {"name": "Main", "format": "swiss", "match_lengths": [3]},
        ),
        201,
    )
    eid = event["id"]
    imported = ok(api.post("/api/players/import/", {"csv": csv_of(4), "event": eid}))
    players = [p["id"] for p in imported["created"]]
    ok(api.post(f"/api/events/{eid}/forbidden-pairs/", {"players": players[:2]}), 201)
    assert Client().get(f"/api/events/{eid}/forbidden-pairs/").status_code == 401
    stranger = token_client(UserFactory(username="someone"))
    assert stranger.get(f"/api/events/{eid}/forbidden-pairs/").status_code == 403
    answer = stranger.post(
        f"/api/events/{eid}/forbidden-pairs/", {"players": players[2:]}, format="json"
    )
    assert answer.status_code == 403
    for body, field in (
        ({"players": [players[0]]}, "players"),
        ({"players": [players[0], players[0]]}, "players"),
        ({"players": [players[0], 999999]}, "players"),
        ({"players": players[:2]}, "players"),  # already kept apart
        ({"players": players[2:], "strength": "never"}, "strength"),
        ({"players": players[2:], "rounds": "some"}, "rounds"),
    ):
        answer = api.post(f"/api/events/{eid}/forbidden-pairs/", body)
        assert answer.status_code == 400, (body, answer.content)
        assert field in answer.content.decode()
    # The public pages never name them.
    page = Client().get(f"/t/open/{event['slug']}/")
    assert b"forbidden" not in page.content.lower()


def test_bad_settings_are_400(api: Any, director: User) -> None:
    ok(api.post("/api/tournaments/", {"name": "Open", "slug": "open"}), 201)
    for value in (1, 7, "x", None):
        answer = api.post(
            "/api/tournaments/open/events/",
            {"name": "E", "format": "swiss-elimination", "losses_to_eliminate": value},
        )
        assert answer.status_code == 400
        assert "losses_to_eliminate" in answer.content.decode()


def test_the_schema_has_it_all() -> None:
    spec = schema()
    assert "/api/events/{id}/forbidden-pairs/" in spec["paths"]
    assert "/api/events/{id}/forbidden-pairs/{pair_id}/" in spec["paths"]
    assert "/api/events/{id}/end/" in spec["paths"]
    components = spec["components"]["schemas"]
    assert "swiss-elimination" in str(components["FormatEnum"])
    row = components["StandingRow"]["properties"]
    assert {"status", "losses", "eliminated_in_round"} <= set(row)
    assert "counts" in components["Standings"]["properties"]
    assert "counts" in components["EventDetail"]["properties"]
    create = components["EventCreateRequest"]["properties"]
    assert create["losses_to_eliminate"]["minimum"] == 2
    assert create["losses_to_eliminate"]["maximum"] == 6
    assert "avoid_same_club_first_round" in create
    request = spec["paths"]["/api/events/{id}/rounds/next/"]["post"]
    assert "requestBody" in request


def test_a_round_paired_in_the_background_shows_its_progress(api: Any, director: User) -> None:
    ok(api.post("/api/tournaments/", {"name": "Open", "slug": "open"}), 201)
    event = ok(
        api.post(
            "/api/tournaments/open/events/",
            {"name": "Main", "format": "swiss-elimination", "match_lengths": [1]},
        ),
        201,
    )
    eid = event["id"]
    ok(api.post("/api/players/import/", {"csv": csv_of(12), "event": eid}))
    assert ok(api.get(f"/api/events/{eid}/rounds/next/")) == {"state": "none"}
    ok(api.post(f"/api/events/{eid}/draw/", {"method": "random", "seed": 1}), 201)
    ok(api.post(f"/api/events/{eid}/rounds/next/"), 201)  # round 1 starts
    for match in all_pages(api, f"/api/matches/?event={eid}&status=ready"):
        report(api, match, 1)
    queued = ok(api.post(f"/api/events/{eid}/rounds/next/", {"background": True}), 202)
    assert queued["state"] in ("queued", "running", "done")
    job = ok(api.get(f"/api/events/{eid}/rounds/next/"))
    assert job["state"] == "done", job
    assert job["round"] == 2
    assert any("pairing 12 players" in m for m in job["messages"])
    assert Client().get(f"/api/events/{eid}/rounds/next/").status_code in (401, 403)
