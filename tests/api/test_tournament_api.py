"""The tournament API alone, as a director's script drives a weekend: import players, build
a Main feeding a Consolation and a Last Chance, draw, start rounds, report, correct."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from tests.factories import PlayerFactory, TournamentFactory, UserFactory, token_client
from tests.tournament.conftest import winning_games
from tournament.models import Tournament, User

pytestmark = pytest.mark.django_db


@pytest.fixture
def director() -> User:
    """A director as the site's admin sets one up: allowed to create tournaments."""
    user = UserFactory(username="td")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def api(  # type: ignore[no-untyped-def]
    director: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
):
    """A director's client whose every request runs its on-commit work: the queued
    ``advance_match`` task runs in-process (also on the PostgreSQL + Redis run, where
    tests of the live worker live elsewhere), so the bracket moves on."""
    from tournament.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    client = token_client(director)

    class Committing:
        def __getattr__(self, method: str) -> Callable[..., Any]:
            call = getattr(client, method)

            def run(*args: Any, **kwargs: Any) -> Any:
                kwargs.setdefault("format", "json")
                with django_capture_on_commit_callbacks(execute=True):
                    return call(*args, **kwargs)

            return run

    yield Committing()
    app.conf.task_always_eager = eager


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def csv_of(count: int, start: int = 0) -> str:
    lines = ["name,email,rating,club"]
    lines += [
        f"Player {k:03d},p{k}@example.org,{1400 + (k * 53) % 500},Club {k % 4}"
        for k in range(start, start + count)
    ]
    return "\n".join(lines) + "\n"


def all_pages(api: Any, url: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while url:
        body = ok(api.get(url))
        items += body["results"]
        url = body["next"]
    return items


def play_event(api: Any, event_id: int, choose: Callable[[dict[str, Any]], int]) -> None:
    """Start rounds as they come and report every ready match until the event is over."""
    for _ in range(200):
        event = ok(api.get(f"/api/events/{event_id}/"))
        if event["status"] == "finished":
            return
        rounds = sorted(event["round_list"], key=lambda r: (r["bracket"], r["number"]))
        started = {(r["bracket"], r["number"]) for r in rounds if r["status"] != "pending"}
        for r in rounds:
            if r["status"] == "pending" and (
                r["number"] == 1 or (r["bracket"], r["number"] - 1) in started
            ):
                ok(api.post(f"/api/rounds/{r['id']}/start/"))
                started.add((r["bracket"], r["number"]))
        ready = all_pages(api, f"/api/matches/?event={event_id}&status=ready")
        for match in ready:
            side = choose(match)
            games = winning_games(match["length"], tuple(match["score"]), side)
            winner = match["player1"] if side == 1 else match["player2"]
            loser = match["player2"] if side == 1 else match["player1"]
            body = {
                "games": [
                    {
                        "winner": winner if g.winner == side else loser,
                        "cube": g.cube,
                        "result": g.result,
                    }
                    for g in games
                ]
            }
            ok(api.post(f"/api/matches/{match['id']}/report/", body), 201)
    raise AssertionError(f"event {event_id} did not finish")


def test_a_37_player_weekend_through_the_api_alone(api: Any, director: User) -> None:
    tournament = ok(api.post("/api/tournaments/", {"name": "Spring Open"}), 201)
    assert tournament["slug"] == "spring-open"
    main = ok(
        api.post(
            "/api/tournaments/spring-open/events/",
            {
                "name": "Main",
                "format": "single-elimination",
                "match_lengths": [11, 11, 11, 13, 13, 17],
            },
        ),
        201,
    )
    consolation = ok(
        api.post(
            "/api/tournaments/spring-open/events/",
            {
                "name": "Consolation",
                "format": "single-elimination",
                "match_lengths": [9],
                "feeds": {"from": main["id"], "rounds": [1, 2]},
            },
        ),
        201,
    )
    assert consolation["kind"] == "consolation"
    assert consolation["feeds"] == {"from": main["id"], "rounds": [1, 2]}
    imported = ok(api.post("/api/players/import/", {"csv": csv_of(37), "event": main["id"]}))
    assert (len(imported["created"]), imported["entered"]) == (37, 37)

    drawn = ok(api.post(f"/api/events/{main['id']}/draw/", {"method": "random", "seed": 7}), 201)
    assert drawn["draw"]["seed"] == 7
    assert drawn["round"]["number"] == 1
    assert len(drawn["matches"]) == 32
    assert sum(m["is_bye"] for m in drawn["matches"]) == 27

    play_event(api, main["id"], choose=lambda m: 1 if m["id"] % 3 else 2)
    play_event(api, consolation["id"], choose=lambda m: 2)

    main_done = ok(api.get(f"/api/events/{main['id']}/"))
    consolation_done = ok(api.get(f"/api/events/{consolation['id']}/"))
    assert main_done["status"] == consolation_done["status"] == "finished"
    assert main_done["champion"] is not None
    assert consolation_done["champion"] is not None
    assert consolation_done["entry_count"] == 21

    bracket = ok(api.get(f"/api/events/{main['id']}/bracket/"))
    final = bracket["parts"][0]["rounds"][-1]
    assert final["name"] == "Final"
    assert final["match_length"] == 17
    assert final["matches"][0]["winner"] == main_done["champion"]["player"]
    assert bracket["fed_events"] == [
        {"event": consolation["id"], "name": "Consolation", "rounds": [1, 2]}
    ]

    # The Last Chance: players knocked out of both brackets, plus a late arrival.
    last = ok(
        api.post(
            "/api/tournaments/spring-open/events/",
            {
                "name": "Last Chance",
                "format": "single-elimination",
                "match_lengths": [5],
                "kind": "last-chance",
            },
        ),
        201,
    )
    out = [
        e
        for e in ok(api.get(f"/api/events/{consolation['id']}/entries/"))
        if e["status"] == "eliminated"
    ]
    for entry in out[:6]:
        ok(api.post(f"/api/events/{last['id']}/entries/", {"player": entry["player"]}), 201)
    late = ok(api.post("/api/players/", {"name": "Late Larry", "rating": 2400}), 201)
    ok(api.post(f"/api/events/{last['id']}/entries/", {"player": late["id"]}), 201)
    ok(api.post(f"/api/events/{last['id']}/draw/", {"method": "rating"}), 201)
    play_event(api, last["id"], choose=lambda m: 1)
    last_done = ok(api.get(f"/api/events/{last['id']}/"))
    assert last_done["status"] == "finished"
    assert last_done["champion"]["player"] == late["id"]  # best rated, and the top line won


def _small_main(api: Any, players: int = 8) -> dict[str, Any]:
    ok(api.post("/api/tournaments/", {"name": "Club Night", "slug": "club-night"}), 201)
    event = ok(
        api.post(
            "/api/tournaments/club-night/events/",
            {"name": "Main", "format": "single-elimination", "match_lengths": [5]},
        ),
        201,
    )
    for k in range(players):
        player = ok(api.post("/api/players/", {"name": f"P{k}", "rating": 1500 + k}), 201)
        ok(api.post(f"/api/events/{event['id']}/entries/", {"player": player["id"]}), 201)
    ok(api.post(f"/api/events/{event['id']}/draw/", {"method": "rating"}), 201)
    for r in ok(api.get(f"/api/events/{event['id']}/"))["round_list"][:2]:
        ok(api.post(f"/api/rounds/{r['id']}/start/"))
    return event


def test_forfeit_penalty_and_corrections_through_the_api(api: Any) -> None:
    event = _small_main(api)
    first, second = all_pages(api, f"/api/matches/?event={event['id']}&round=1")[:2]
    # Penalty points for a late arrival, then a forfeit past half the length.
    late = first["player1"]
    body = ok(api.post(f"/api/matches/{first['id']}/penalty/", {"player": late, "points": 2}))
    assert body["start_score"] == [0, 2]
    assert body["score"] == [0, 2]
    body = ok(api.post(f"/api/matches/{first['id']}/penalty/", {"player": late, "points": 1}))
    assert body["status"] == "complete"
    assert body["decision"] == "forfeit"
    assert body["winner"] == first["player2"]
    # A forfeit by the director.
    body = ok(
        api.post(
            f"/api/matches/{second['id']}/forfeit/",
            {"winner": second["player1"], "reason": "left early"},
        )
    )
    assert body["winner"] == second["player1"]
    semi = all_pages(api, f"/api/matches/?event={event['id']}&round=2")[0]
    assert semi["player1"] == first["player2"]
    assert semi["player2"] == second["player1"]
    assert semi["status"] == "ready"
    # Correcting the first match re-seats the semi-final while it has not started.
    body = ok(api.post(f"/api/matches/{first['id']}/correct/", {"winner": first["player1"]}))
    assert body["winner"] == first["player1"]
    semi = ok(api.get(f"/api/matches/{semi['id']}/"))
    assert semi["player1"] == first["player1"]
    # Once the semi-final is played, the same correction is refused unless cascaded.
    games = winning_games(5, (0, 0), 1)
    ok(
        api.post(
            f"/api/matches/{semi['id']}/report/",
            {
                "games": [
                    {"winner": semi["player1"], "cube": g.cube, "result": g.result} for g in games
                ]
            },
        ),
        201,
    )
    refused = api.post(f"/api/matches/{first['id']}/correct/", {"winner": first["player2"]})
    assert refused.status_code == 400
    assert refused.json()["code"] == "next-match-started"
    assert refused.json()["detail"]["match"] == semi["id"]
    body = ok(
        api.post(
            f"/api/matches/{first['id']}/correct/", {"winner": first["player2"], "cascade": True}
        )
    )
    semi = ok(api.get(f"/api/matches/{semi['id']}/"))
    assert semi["player1"] == first["player2"]
    assert semi["games"] == []
    assert semi["status"] == "ready"


def test_bad_input_gets_field_level_400s(api: Any) -> None:
    ok(api.post("/api/tournaments/", {"name": "Cup", "slug": "cup"}), 201)
    bad = api.post(
        "/api/tournaments/cup/events/",
        {"name": "Main", "format": "knockout", "match_lengths": [0, "x"]},
    )
    assert bad.status_code == 400
    body = bad.json()
    assert body["code"] == "invalid"
    assert {"format", "match_lengths"} <= set(body["detail"])
    bad = api.post(
        "/api/tournaments/cup/events/",
        {
            "name": "C",
            "format": "single-elimination",
            "match_lengths": [5],
            "feeds": {"from": 999999, "rounds": [1]},
        },
    )
    assert bad.status_code == 400
    assert bad.json()["detail"]["field"] == "feeds"
    bad = api.post("/api/players/import/", {"csv": "name,email,rating\n,x@,abc\nAnn,,99999\n"})
    assert bad.status_code == 400
    errors = bad.json()["detail"]["errors"]
    assert {(e["row"], e["field"]) for e in errors} == {
        (2, "name"),
        (2, "email"),
        (2, "rating"),
        (3, "rating"),
    }
    assert api.get("/api/matches/?event=abc").status_code == 400
    event = ok(
        api.post(
            "/api/tournaments/cup/events/",
            {"name": "Main", "format": "single-elimination", "match_lengths": [5]},
        ),
        201,
    )
    bad = api.post(f"/api/events/{event['id']}/draw/", {"method": "rating"})
    assert bad.status_code == 400
    assert bad.json()["code"] == "too-few-entrants"


def test_another_tournaments_director_gets_403_and_anonymous_401(api: Any) -> None:
    event = _small_main(api, players=4)
    match = all_pages(api, f"/api/matches/?event={event['id']}&round=1")[0]
    round_2 = ok(api.get(f"/api/events/{event['id']}/"))["round_list"][1]
    rival = UserFactory(username="rival-td")
    TournamentFactory(director=rival)
    other = token_client(rival)
    player = PlayerFactory()
    attempts = [
        (
            "post",
            "/api/tournaments/club-night/events/",
            {"name": "X", "format": "swiss", "match_lengths": [5]},
        ),
        ("post", f"/api/events/{event['id']}/entries/", {"player": player.pk}),
        ("post", f"/api/events/{event['id']}/draw/", {"method": "rating"}),
        ("patch", f"/api/events/{event['id']}/", {"match_lengths": [3]}),
        ("patch", "/api/tournaments/club-night/", {"name": "Taken over"}),
        ("post", f"/api/rounds/{round_2['id']}/start/", {}),
        ("patch", f"/api/rounds/{round_2['id']}/", {"match_length": 3}),
        ("post", f"/api/matches/{match['id']}/forfeit/", {"winner": match["player1"]}),
        ("post", f"/api/matches/{match['id']}/walkover/", {"winner": match["player1"]}),
        ("post", f"/api/matches/{match['id']}/penalty/", {"player": match["player1"], "points": 1}),
        ("post", f"/api/matches/{match['id']}/correct/", {"winner": match["player1"]}),
        ("post", f"/api/events/{event['id']}/rounds/next/", {}),
    ]
    for method, url, body in attempts:
        response = getattr(other, method)(url, body, format="json")
        assert response.status_code == 403, (url, response.content)
        assert response.json()["code"] == "permission-denied"
        anonymous = getattr(token_client(None), method)(url, body, format="json")
        assert anonymous.status_code == 401, (url, anonymous.content)
    # Reading is public.
    assert token_client(None).get(f"/api/events/{event['id']}/bracket/").status_code == 200
    assert token_client(None).get(f"/api/matches/{match['id']}/").status_code == 200


def test_private_tournaments_are_hidden_from_others(director: User) -> None:
    tournament: Tournament = TournamentFactory(director=director, is_public=False, slug="secret")
    assert token_client(None).get("/api/tournaments/secret/").status_code == 404
    assert token_client(director).get("/api/tournaments/secret/").status_code == 200
    slugs = [t["slug"] for t in token_client(None).get("/api/tournaments/").json()["results"]]
    assert tournament.slug not in slugs


def test_swiss_rounds_and_standings_through_the_api(api: Any) -> None:
    ok(api.post("/api/tournaments/", {"name": "League", "slug": "league"}), 201)
    swiss = ok(
        api.post(
            "/api/tournaments/league/events/",
            {"name": "Swiss", "format": "swiss", "match_lengths": [3], "rounds": 3},
        ),
        201,
    )
    ok(api.post("/api/players/import/", {"csv": csv_of(7), "event": swiss["id"]}))
    ok(api.post(f"/api/events/{swiss['id']}/draw/", {"method": "rating"}), 201)
    for number in (1, 2, 3):
        started = ok(api.post(f"/api/events/{swiss['id']}/rounds/next/"), 201)
        assert started["round"]["number"] == number
        for match in started["matches"]:
            if match["status"] != "ready":
                continue
            games = winning_games(3, (0, 0), 1)
            ok(
                api.post(
                    f"/api/matches/{match['id']}/report/",
                    {
                        "games": [
                            {"winner": match["player1"], "cube": g.cube, "result": g.result}
                            for g in games
                        ]
                    },
                ),
                201,
            )
    table = ok(api.get(f"/api/events/{swiss['id']}/standings/"))
    assert table["rows"][0]["rank"] == 1
    assert sum(row["wins"] for row in table["rows"]) == 3 * 3 + 3  # 3 matches + 1 bye a round
    assert table["tiebreaks"][0] == "wins"
    event = ok(api.get(f"/api/events/{swiss['id']}/"))
    assert event["status"] == "finished"
    assert event["champion"]["entry"] == table["rows"][0]["entry"]


def test_schema_is_valid_and_documents_every_tournament_endpoint(client: Any) -> None:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    paths = set(schema["paths"])
    for path in [
        "/api/players/",
        "/api/players/import/",
        "/api/tournaments/",
        "/api/tournaments/{slug}/events/",
        "/api/events/{id}/",
        "/api/events/{id}/entries/",
        "/api/events/{id}/draw/",
        "/api/events/{id}/rounds/next/",
        "/api/events/{id}/bracket/",
        "/api/events/{id}/standings/",
        "/api/matches/",
        "/api/matches/{id}/",
        "/api/matches/{id}/forfeit/",
    ]:
        assert path in paths, path
    match = schema["components"]["schemas"]["Match"]["properties"]
    for name in [
        "id",
        "event",
        "round",
        "player1",
        "player2",
        "length",
        "score",
        "status",
        "winner",
        "crawford_game_number",
    ]:
        assert name in match


MALFORMED = [
    [],
    "x",
    5,
    None,
    {"winner": "a"},
    {"winner": 10**20},
    {"player": -1, "points": 10**9},
    {"player": 10**20},
    {"method": "manual", "order": [1, 1]},
    {"method": "random", "seed": -5},
    {"match_length": "a"},
    {"match_lengths": []},
    {"cascade": "maybe", "winner": 1},
    {"name": "x" * 500, "format": "swiss", "match_lengths": [5], "feeds": {"from": None}},
    {"csv": "\x00\x01"},
    {"event": "x", "csv": "name\nA"},
]


def test_malformed_requests_get_4xx_never_5xx() -> None:
    director = UserFactory()
    tournament = TournamentFactory(director=director, slug="t")
    from tournament.services.draws import draw_make
    from tournament.services.entries import entry_register
    from tournament.services.events import event_create

    event = event_create(tournament=tournament, name="Main", match_lengths=[5])
    for _ in range(5):
        entry_register(event=event, player=PlayerFactory())
    draw_make(event=event, method="rating")
    first = event.rounds.get(number=1)
    match = first.matches.filter(is_bye=False).first()
    bye = first.matches.filter(is_bye=True).first()
    entry = event.entries.first()
    client = token_client(director)
    posts = [
        "/api/players/",
        "/api/players/import/",
        "/api/tournaments/",
        "/api/tournaments/t/events/",
        f"/api/events/{event.pk}/entries/",
        f"/api/events/{event.pk}/draw/",
        f"/api/events/{event.pk}/rounds/next/",
        f"/api/entries/{entry.pk}/check-in/",
        f"/api/entries/{entry.pk}/withdraw/",
        f"/api/rounds/{first.pk}/start/",
        f"/api/matches/{match.pk}/forfeit/",
        f"/api/matches/{bye.pk}/forfeit/",
        f"/api/matches/{match.pk}/walkover/",
        f"/api/matches/{match.pk}/penalty/",
        f"/api/matches/{match.pk}/correct/",
        f"/api/matches/{bye.pk}/correct/",
    ]
    answers = []
    for url in posts:
        answers += [(url, client.post(url, body, format="json").status_code) for body in MALFORMED]
    for url in [f"/api/events/{event.pk}/", f"/api/rounds/{first.pk}/"]:
        answers += [(url, client.patch(url, body, format="json").status_code) for body in MALFORMED]
    for query in [
        "?event=-1",
        "?round=0",
        "?status=zzz",
        "?player=1e9",
        "?bracket=x",
        "?event=99999999999999999999",
    ]:
        answers.append((query, client.get(f"/api/matches/{query}").status_code))
    for url in ["/api/events/99999999999999999999/", "/api/matches/99999999999999999999/"]:
        answers.append((url, client.get(url).status_code))
    assert [a for a in answers if a[1] >= 500] == []


def test_a_director_changes_tournament_and_event_settings_through_the_api(api: Any) -> None:
    ok(api.post("/api/tournaments/", {"name": "Club Night", "slug": "club-night"}), 201)
    body = ok(api.patch("/api/tournaments/club-night/", {"venue": "The Cellar", "slug": "x"}))
    assert body["venue"] == "The Cellar"
    assert body["name"] == "Club Night"  # not sent: kept
    assert body["slug"] == "club-night"  # the pages' address stays
    refused = api.patch(
        "/api/tournaments/club-night/", {"starts_on": "2026-12-05", "ends_on": "2026-12-04"}
    )
    assert refused.status_code == 400
    assert "ends_on" in refused.json()["detail"]
    refused = api.patch("/api/tournaments/club-night/", {"time_zone": "Mars/Olympus"})
    assert refused.status_code == 400
    assert refused.json()["detail"] == {"field": "time_zone"}

    swiss = ok(
        api.post(
            "/api/tournaments/club-night/events/",
            {"name": "Swiss", "format": "swiss", "match_lengths": [5], "rounds": 4},
        ),
        201,
    )
    url = f"/api/events/{swiss['id']}/"
    body = ok(api.patch(url, {"name": "Friday Swiss", "holland": True, "rounds": 3}))
    assert (body["name"], body["holland"], body["rounds"]) == ("Friday Swiss", True, 3)
    assert body["match_lengths"] == [5]  # not sent: kept
    assert body["crawford"] is True
    for k in range(6):
        player = ok(api.post("/api/players/", {"name": f"S{k}", "rating": 1500 + k}), 201)
        ok(api.post(f"{url}entries/", {"player": player["id"]}), 201)
    ok(api.post(f"{url}draw/", {"method": "rating"}), 201)

    locked = api.patch(url, {"format": "round-robin"})
    assert locked.status_code == 400
    assert locked.json()["code"] == "setting-locked"
    assert locked.json()["detail"] == {"field": "format"}
    assert "draw" in locked.json()["message"]
    fewer = api.patch(url, {"rounds": 0})
    assert fewer.status_code == 400
    assert "rounds" in fewer.json()["detail"]
    main = ok(
        api.post(
            "/api/tournaments/club-night/events/",
            {"name": "Main", "format": "single-elimination", "match_lengths": [5]},
        ),
        201,
    )
    fed = api.patch(url, {"feeds": {"from": main["id"], "rounds": [1]}})
    assert fed.status_code == 400
    assert fed.json()["detail"] == {"field": "feeds"}  # named as the request names it
    body = ok(api.patch(url, {"match_lengths": [7], "entry_fee": "20.00"}))
    assert body["match_lengths"] == [7]
    assert body["entry_fee"] == "20.00"
    pending = [r for r in body["round_list"] if r["status"] == "pending"]
    assert pending
    assert all(r["match_length"] == 7 for r in pending)


def test_a_tournament_currency_is_an_iso_code_or_none(api: Any, client: Any) -> None:
    """The currency its fees and prizes are shown in: an ISO 4217 code Babel knows,
    upper-cased; anything else is a field-level 400, never a 500."""
    body = ok(
        api.post("/api/tournaments/", {"name": "Euro Night", "slug": "euro", "currency": "eur"}),
        201,
    )
    assert body["currency"] == "EUR"
    for bad in ("EURO", "XYZ", "E1", "€"):
        refused = api.patch("/api/tournaments/euro/", {"currency": bad})
        assert refused.status_code == 400, (bad, refused.content)
        answer = refused.json()
        assert answer["code"] == "invalid"
        assert set(answer["detail"]) == {"currency"}
        assert "ISO 4217" in answer["detail"]["currency"][0]
        assert answer["message"].startswith("currency: ")
    refused = api.post("/api/tournaments/", {"name": "Bad", "slug": "bad", "currency": "XYZ"})
    assert (refused.status_code, set(refused.json()["detail"])) == (400, {"currency"})
    assert Tournament.objects.get(slug="euro").currency == "EUR"
    assert not Tournament.objects.filter(slug="bad").exists()

    assert ok(api.patch("/api/tournaments/euro/", {"currency": " dkk "}))["currency"] == "DKK"
    assert ok(api.patch("/api/tournaments/euro/", {"venue": "Hall"}))["currency"] == "DKK"
    assert ok(api.get("/api/tournaments/euro/"))["currency"] == "DKK"
    assert ok(api.patch("/api/tournaments/euro/", {"currency": ""}))["currency"] == ""

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    assert "currency" in components["Tournament"]["properties"]
    assert (
        "ISO 4217" in components["TournamentCreateRequest"]["properties"]["currency"]["description"]
    )
    assert "currency" in components["PatchedTournamentSettingsRequest"]["properties"]
