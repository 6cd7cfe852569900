"""A director's decisions through the one writer: score-only results, consistent
corrections of a winner, unlikely scores confirmed, refused entries kept, and every
door that reports on a match storing its versioned submission."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from matches.errors import AppError
from matches.models import Match
from matches.rules.errors import RulesError
from tests.matches.test_api import Bracket, game, make_bracket
from tournament.services.results import (
    GameResult,
    match_award,
    match_result_enter,
    match_winner_correct,
)
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "reporting"


@pytest.fixture
def bracket(db: None) -> Bracket:
    return make_bracket()  # 7-point matches, Anna-Bert and Cleo-Dan, round 1 started


def _kinds(match: Match) -> list[tuple[int, str, str, bool]]:
    return list(
        match.submissions.order_by("version").values_list(
            "version", "kind", "status", "as_director"
        )
    )


def _console(bracket: Bracket) -> Client:
    client = Client()
    client.force_login(bracket.director)
    return client


def _console_url(match: Match, action: str = "") -> str:
    slug = match.event.tournament.slug
    return f"/director/t/{slug}/matches/{match.pk}/{action + '/' if action else ''}"


def _bracket_lines(client: Client, match: Match) -> list[tuple[str, str, str]]:
    """The public bracket's lines of ``match``: (state, name, score)."""
    event = match.event
    page = client.get(f"/t/{event.tournament.slug}/{event.slug}/").content.decode()
    lines = re.findall(
        r'<p class="line( won| lost)?"><span class="seed">[^<]*</span><span class="name">'
        r'<a href="[^"]*">([^<]*)</a>(?:<span class="sr-only"> \(winner\)</span>)?</span>'
        r'<span class="score">(\d*)</span>',
        page,
    )
    names = {match.entry1.player.name, match.entry2.player.name}
    return [(s.strip(), n, sc) for s, n, sc in lines if n in names][:2]


# ---- correcting the winner keeps winner and score consistent ---------------------------


def test_correcting_the_winner_swaps_the_score_everywhere(
    bracket: Bracket, django_capture_on_commit_callbacks, eager_tasks
) -> None:
    match = bracket.first
    director = bracket.client_for(bracket.director)
    with django_capture_on_commit_callbacks(execute=True):
        entered = director.post(
            f"/api/matches/{match.pk}/resolve/", {"score": [7, 5]}, format="json"
        )
    assert entered.status_code == 200, entered.json()
    one, two = match.entry1.player.name, match.entry2.player.name
    assert _bracket_lines(Client(), match) == [("won", one, "7"), ("lost", two, "5")]
    with django_capture_on_commit_callbacks(execute=True):
        corrected = director.post(
            f"/api/matches/{match.pk}/correct/",
            {"winner": match.entry2.player_id, "reason": "sheet misread"},
            format="json",
        )
    assert corrected.status_code == 200, corrected.json()
    shown = corrected.json()
    assert (shown["winner"], shown["score"], shown["decision"]) == (
        match.entry2.player_id,
        [5, 7],
        "score",
    )
    again = director.get(f"/api/matches/{match.pk}/").json()
    assert (again["winner"], again["score"]) == (match.entry2.player_id, [5, 7])
    assert _bracket_lines(Client(), match) == [("lost", one, "5"), ("won", two, "7")]
    final = Match.objects.get(pk=bracket.final.pk)
    assert final.entry1_id == match.entry2_id  # re-seated
    correction = match.submissions.get(kind="resolve")
    assert correction.payload["previous_score"] == [7, 5]
    assert correction.status == "accepted"


def test_a_correction_with_a_score_the_new_winner_did_not_win_is_refused_and_kept(
    bracket: Bracket, django_capture_on_commit_callbacks, eager_tasks
) -> None:
    match = bracket.first
    director = bracket.client_for(bracket.director)
    with django_capture_on_commit_callbacks(execute=True):
        director.post(f"/api/matches/{match.pk}/resolve/", {"score": [7, 2]}, format="json")
    wrong = director.post(
        f"/api/matches/{match.pk}/correct/",
        {"winner": match.entry2.player_id, "score": [7, 3]},
        format="json",
    )
    assert wrong.status_code == 400
    assert (wrong.json()["code"], wrong.json()["detail"]["field"]) == (
        "winner-score-mismatch",
        "score",
    )
    match.refresh_from_db()
    assert (match.winner_id, match.score1, match.score2) == (match.entry1_id, 7, 2)
    assert _kinds(match)[-1] == (2, "resolve", "rejected", True)
    right = director.post(
        f"/api/matches/{match.pk}/correct/",
        {"winner": match.entry2.player_id, "score": [3, 8]},
        format="json",
    )
    assert right.status_code == 200, right.json()
    assert right.json()["score"] == [3, 8]


def test_correcting_a_played_winner_voids_the_games_that_no_longer_add_up(
    bracket: Bracket, django_capture_on_commit_callbacks
) -> None:
    match = bracket.first
    games = [GameResult(winner=1, cube=4)] * 2  # 4-0, then 8-0
    match_result_enter(match=match, games=games, by=bracket.director)
    match_winner_correct(match=match, winner=match.entry2, by=bracket.director)
    match.refresh_from_db()
    assert (match.winner_id, match.score1, match.score2, match.decision) == (
        match.entry2_id,
        0,
        8,
        "score",
    )
    assert match.games.filter(voided=False).count() == 0
    assert match.games.filter(voided=True).count() == 2


# ---- score only: entered and corrected, marked --------------------------------------


def test_a_score_only_result_is_stored_marked_and_shown_as_such(
    bracket: Bracket, django_capture_on_commit_callbacks
) -> None:
    match = bracket.first
    console = _console(bracket)
    with django_capture_on_commit_callbacks(execute=True):
        saved = console.post(_console_url(match, "score"), {"score1": "3", "score2": "7"})
    assert saved.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.decision, match.winner_id) == ("complete", "score", match.entry2_id)
    page = console.get(_console_url(match)).content.decode()
    assert "Score only" in page
    assert "Correct the final score" in page
    with django_capture_on_commit_callbacks(execute=True):
        fixed = console.post(_console_url(match, "score"), {"score1": "4", "score2": "7"})
    assert fixed.status_code == 302
    match.refresh_from_db()
    assert (match.score1, match.score2, match.winner_id) == (4, 7, match.entry2_id)
    assert _kinds(match) == [(1, "score", "accepted", True), (2, "score", "accepted", True)]
    assert [s.payload["final_score"] for s in match.submissions.order_by("version")] == [
        [3, 7],
        [4, 7],
    ]
    api = bracket.client_for(bracket.director).get(f"/api/matches/{match.pk}/").json()
    assert (api["decision"], api["score"], api["games"]) == ("score", [4, 7], [])
    assert "Score only" in Client().get(f"/matches/{match.pk}/").content.decode()


def test_the_resolve_endpoint_takes_a_score_alone_not_with_games(bracket: Bracket) -> None:
    match = bracket.first
    director = bracket.client_for(bracket.director)
    both = director.post(
        f"/api/matches/{match.pk}/resolve/",
        {"score": [7, 1], "games": [{"winner": match.entry1.player_id, "cube": 8}]},
        format="json",
    )
    assert both.status_code == 400
    assert "score" in both.json()["detail"]
    not_over = director.post(f"/api/matches/{match.pk}/resolve/", {"score": [6, 1]}, format="json")
    assert (not_over.status_code, not_over.json()["code"]) == (400, "match-not-over")
    assert [k[2] for k in _kinds(match)] == ["rejected", "rejected"]


# ---- unlikely scores: warned, accepted once confirmed ---------------------------------


def test_an_unlikely_score_is_refused_by_the_api_until_confirmed(bracket: Bracket) -> None:
    match = bracket.first
    director = bracket.client_for(bracket.director)
    url = f"/api/matches/{match.pk}/resolve/"
    warned = director.post(url, {"score": [25, 3]}, format="json")
    assert warned.status_code == 400
    body = warned.json()
    assert (body["code"], body["detail"]["field"], body["detail"]["plausible_max"]) == (
        "unlikely-score",
        "score",
        18,
    )
    match.refresh_from_db()
    assert match.status == "ready"
    plausible = director.post(url, {"score": [18, 3]}, format="json")  # 6 + a 4-cube backgammon
    assert plausible.status_code == 200
    assert _kinds(match) == [(1, "score", "rejected", True), (2, "score", "accepted", True)]


def test_an_unlikely_score_needs_the_directors_tick_in_the_console(bracket: Bracket) -> None:
    match = bracket.first
    console = _console(bracket)
    warned = console.post(_console_url(match, "score"), {"score1": "25", "score2": "3"})
    assert warned.status_code == 400
    page = warned.content.decode()
    assert "unlikely final score" in page
    assert 'type="checkbox" name="confirm"' in page
    match.refresh_from_db()
    assert match.status == "ready"
    confirmed = console.post(
        _console_url(match, "score"), {"score1": "25", "score2": "3", "confirm": "on"}
    )
    assert confirmed.status_code == 302
    match.refresh_from_db()
    assert (match.score1, match.score2, match.decision) == (25, 3, "score")
    assert [k[2] for k in _kinds(match)] == ["rejected", "accepted"]


def test_the_unlikely_score_rule() -> None:
    """The winner may end at most 12 points (a backgammon on a 4-cube) past length - 1."""
    from matches.services.decisions import final_score_check

    match = Match(length=7, start_score1=0, start_score2=0)
    assert final_score_check(match, (18, 6)).winner_side == 1
    with pytest.raises(AppError) as warned:
        final_score_check(match, (19, 0))
    assert warned.value.code == "unlikely-score"
    assert final_score_check(match, (0, 19), confirm=True).winner_side == 2
    for score, code in (((7, 7), "score-mismatch"), ((6, 6), "match-not-over")):
        with pytest.raises(AppError) as refused:
            final_score_check(match, score, confirm=True)
        assert (refused.value.code, refused.value.detail["field"]) == (code, "score")


# ---- a director's refused entry is kept ----------------------------------------------


def test_a_directors_refused_decisions_are_stored_as_rejected_submissions(
    bracket: Bracket,
) -> None:
    match = bracket.first
    director = bracket.client_for(bracket.director)
    forfeit = director.post(
        f"/api/matches/{match.pk}/forfeit/", {"winner": match.entry1.player_id}, format="json"
    )
    assert forfeit.status_code == 200
    again = director.post(
        f"/api/matches/{match.pk}/walkover/", {"winner": match.entry2.player_id}, format="json"
    )
    assert (again.status_code, again.json()["code"]) == (400, "match-decided")
    late = director.post(
        f"/api/matches/{match.pk}/penalty/",
        {"player": match.entry1.player_id, "points": 2},
        format="json",
    )
    assert (late.status_code, late.json()["code"]) == (400, "match-started")
    rows = list(match.submissions.order_by("version").values_list("kind", "status", "error_code"))
    assert rows == [
        ("forfeit", "accepted", ""),
        ("forfeit", "rejected", "match-decided"),
        ("resolve", "rejected", "match-started"),
    ]


# ---- every door goes through the one writer ------------------------------------------


def test_every_door_stores_a_versioned_submission(
    bracket: Bracket, django_capture_on_commit_callbacks
) -> None:
    """Player API, player link form, file upload, director console and director API: each
    report is one submission, numbered in turn, accepted or rejected, with who made it;
    refused input included, whichever door refused it."""
    match = bracket.first
    anna = bracket.link_client(match, 1)
    p1 = match.entry1.player_id
    # 1. player API: a game, and a refused one (a cube that cannot be)
    assert game(anna, match, winner=p1, cube=1, game_number=1).status_code == 201
    assert game(anna, match, winner=p1, cube=3, game_number=2).status_code == 400
    # 2. the player's private link form
    link = f"/r/{match.entry2.report_key}/matches/{match.pk}/game/"
    form = {"winner": p1, "cube": 1, "result": "single", "ended_by": "play", "game_number": 2}
    assert Client().post(link, form).status_code == 302
    # 3. an upload (the file is for a 25-point match: refused)
    with (DATA / "anna_bert_25pt.mat").open("rb") as f:
        upload = anna.post(f"/api/matches/{match.pk}/record/", {"file": f}, format="multipart")
    assert upload.status_code == 400
    # 4. the director's API: resolve (uphold the games: not over, play goes on)
    director = bracket.client_for(bracket.director)
    assert director.post(f"/api/matches/{match.pk}/resolve/", {}, format="json").status_code == 200
    # ... and a forfeit it refuses before deciding anything (no such player)
    bad = director.post(f"/api/matches/{match.pk}/forfeit/", {"winner": "x"}, format="json")
    assert bad.status_code == 400
    # 5. the director's console: a forfeit the form refuses (nobody chosen), then one
    assert _console(bracket).post(_console_url(match, "forfeit"), {}).status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        console = _console(bracket).post(
            _console_url(match, "forfeit"),
            {"winner": str(match.entry1_id), "decision": "forfeit", "reason": "left"},
        )
    assert console.status_code == 302
    # 6. the director's API again: a correction of the winner
    with django_capture_on_commit_callbacks(execute=True):
        corrected = director.post(
            f"/api/matches/{match.pk}/correct/", {"winner": match.entry2.player_id}, format="json"
        )
    assert corrected.status_code == 200, corrected.json()
    rows = list(
        match.submissions.order_by("version").values_list(
            "version", "kind", "status", "as_director", "via_entry_id"
        )
    )
    e1, e2 = match.entry1_id, match.entry2_id
    assert rows == [
        (1, "game", "accepted", False, e1),
        (2, "game", "rejected", False, e1),
        (3, "game", "accepted", False, e2),
        (4, "record", "rejected", False, e1),
        (5, "resolve", "accepted", True, None),
        (6, "forfeit", "rejected", True, None),
        (7, "forfeit", "rejected", True, None),
        (8, "forfeit", "accepted", True, None),
        (9, "resolve", "accepted", True, None),
    ]
    assert set(
        match.submissions.filter(as_director=True).values_list("submitted_by", flat=True)
    ) == {bracket.director.pk}
    match.refresh_from_db()
    assert (match.decision, match.winner_id) == ("forfeit", e2)  # a forfeit keeps its score


def test_the_game_by_game_entry_stores_doubles_in_the_one_shape(bracket: Bracket) -> None:
    match = bracket.first
    doubled = [{"by": 2, "turn": 3, "response": "take"}]
    games = [
        GameResult(winner=1, cube=2, doubles=doubled),  # 2-0
        GameResult(winner=1, cube=8),  # 10-0
    ]
    match_result_enter(match=match, games=games, by=bracket.director)
    shown = bracket.client_for(bracket.director).get(f"/api/matches/{match.pk}/").json()
    assert shown["games"][0]["doubles"] == [
        {"side": 2, "player": match.entry2.player_id, "turn": 3, "response": "take"}
    ]
    assert _kinds(match) == [(1, "match", "accepted", True)]
    p1, p2 = match.entry1.player_id, match.entry2.player_id
    assert match.submissions.get().payload["games"][0] == {
        "winner": p1,
        "cube": 2,
        "result": "single",
        "ended_by": "play",
        "doubles": [{"by": p2, "turn": 3, "response": "take"}],
    }  # as a player's whole-match report stores them: a director may adopt them


# ---- refused before the decision: kept all the same ----------------------------------


def _refused(match: Match) -> list[tuple[str, str, str, dict]]:
    return list(
        match.submissions.filter(status="rejected")
        .order_by("version")
        .values_list("kind", "error_code", "as_director", "payload")
    )


@pytest.mark.parametrize(
    ("action", "body", "kind", "field"),
    [
        ("forfeit", {"winner": "x"}, "forfeit", "winner"),
        ("walkover", {"winner": "other-match"}, "forfeit", "winner"),
        ("penalty", {"player": "first", "points": -3}, "resolve", "points"),
        ("correct", {"winner": "other-match"}, "resolve", "winner"),
        ("correct", {}, "resolve", "winner"),
    ],
)
def test_the_directors_api_stores_the_input_it_refuses(
    bracket: Bracket, action: str, body: dict, kind: str, field: str
) -> None:
    """Bad input and a player of another match are answered 400 as before, naming the
    field, and kept as a rejected submission with the body as sent."""
    match = bracket.first
    names = {"first": match.entry1.player_id, "other-match": bracket.second.entry1.player_id}
    sent = {k: names.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    answer = bracket.client_for(bracket.director).post(
        f"/api/matches/{match.pk}/{action}/", sent, format="json"
    )
    assert answer.status_code == 400
    error = answer.json()
    code = "not-in-match" if body.get("winner") == "other-match" else "invalid"
    assert error["code"] == code
    assert field in error["message"] or error["detail"].get("field") == field
    assert _refused(match) == [(kind, code, True, sent)]
    assert match.submissions.get().submitted_by == bracket.director
    match.refresh_from_db()
    assert (match.status, match.score1, match.score2) == ("ready", 0, 0)


# ---- a director's game-by-game entry: doubles as a player's, refusals kept -----------


def test_no_doubles_offered_is_not_doubles_not_itemised(bracket: Bracket) -> None:
    """``doubles=[]`` says nobody doubled: a cube of 8 is refused, as the API refuses it;
    ``None`` (not itemised) takes any cube."""
    match = bracket.first
    with pytest.raises(RulesError) as refused:
        match_result_enter(match=match, games=[GameResult(winner=1, cube=8, doubles=[])])
    api = bracket.link_client(match, 1).post(
        f"/api/matches/{match.pk}/report/",
        {"games": [{"winner": match.entry1.player_id, "cube": 8, "doubles": []}]},
        format="json",
    )
    assert api.status_code == 400
    assert refused.value.code == api.json()["code"]
    stored = list(match.submissions.order_by("version").values_list("error_code", "payload"))
    game = {"winner": match.entry1.player_id, "cube": 8, "result": "single", "ended_by": "play"}
    assert stored[0] == (api.json()["code"], {"games": [{**game, "doubles": []}]})
    match_result_enter(match=match, games=[GameResult(winner=1, cube=8)])
    match.refresh_from_db()
    assert (match.status, match.score1) == ("complete", 8)


def test_a_refused_game_by_game_entry_is_stored_as_an_accepted_one_would_be(
    bracket: Bracket,
) -> None:
    match = bracket.first
    p1, p2 = match.entry1.player_id, match.entry2.player_id
    doubled = [{"by": 2, "turn": 3, "response": "take"}]
    with pytest.raises(AppError) as not_over:
        match_result_enter(
            match=match,
            games=[GameResult(winner=1, cube=2, doubles=doubled)],
            by=bracket.director,
        )
    assert not_over.value.code == "match-not-finished"
    with pytest.raises(AppError) as unreadable:  # game 2: a double by nobody of the match
        match_result_enter(
            match=match,
            games=[
                GameResult(winner=1, cube=2, doubles=doubled),
                GameResult(winner=1, cube=2, doubles=[{"by": 3, "turn": 1}]),
            ],
            by=bracket.director,
        )
    assert unreadable.value.code == "invalid"
    assert _refused(match) == [
        (
            "match",
            "match-not-finished",
            True,
            {
                "games": [
                    {
                        "winner": p1,
                        "cube": 2,
                        "result": "single",
                        "ended_by": "play",
                        "doubles": [{"by": p2, "turn": 3, "response": "take"}],
                    }
                ]
            },
        ),
        (
            "match",
            "invalid",
            True,
            {
                "games": [
                    {
                        "winner": p1,
                        "cube": 2,
                        "result": "single",
                        "ended_by": "play",
                        "doubles": [{"by": p2, "turn": 3, "response": "take"}],
                    },
                    {
                        "winner": 1,
                        "cube": 2,
                        "result": "single",
                        "ended_by": "play",
                        "doubles": [{"by": 3, "turn": 1}],
                    },
                ]
            },
        ),  # game 2 as entered: it names no player of the match; game 1 as accepted ones
    ]


def test_entering_a_decided_or_started_match_game_by_game_is_refused_and_kept(
    bracket: Bracket,
) -> None:
    match = bracket.first
    anna = bracket.link_client(match, 1)
    assert game(anna, match, winner=match.entry1.player_id, cube=1).status_code == 201
    games = [GameResult(winner=1, cube=8)]
    with pytest.raises(AppError) as started:
        match_result_enter(match=match, games=games, by=bracket.director)
    assert (started.value.code, started.value.status) == ("match-started", 400)
    other = bracket.second
    match_result_enter(match=other, games=games, by=bracket.director)  # played: 8-0
    with pytest.raises(AppError) as decided:
        match_result_enter(match=other, games=games, by=bracket.director)
    assert (decided.value.code, decided.value.status) == ("match-decided", 400)
    assert [row[:3] for row in _refused(match) + _refused(other)] == [
        ("match", "match-started", True),
        ("match", "match-decided", True),
    ]


def _console_games(rows: list[tuple[str, str]], total: int = 13) -> dict[str, str]:
    data = {
        "games-TOTAL_FORMS": str(total),
        "games-INITIAL_FORMS": "0",
        "games-MIN_NUM_FORMS": "0",
        "games-MAX_NUM_FORMS": str(total),
    }
    for i in range(total):
        winner, cube = rows[i] if i < len(rows) else ("", "1")
        data.update(
            {
                f"games-{i}-winner": winner,
                f"games-{i}-cube": cube,
                f"games-{i}-result": "single",
                f"games-{i}-ended_by": "play",
            }
        )
    return data


def test_the_consoles_refused_game_by_game_entries_are_kept(bracket: Bracket) -> None:
    """Refused by the rules (stored as an accepted entry would be) or by the form (the
    fields as sent: they could not be read)."""
    match = bracket.first
    console = _console(bracket)
    short = console.post(_console_url(match, "games"), _console_games([("1", "2")]))
    assert short.status_code == 400
    bad = console.post(_console_url(match, "games"), _console_games([("1", "x")]))
    assert bad.status_code == 400
    (rules, form) = _refused(match)
    p1 = match.entry1.player_id
    assert rules[:3] == ("match", "match-not-finished", True)
    assert rules[3] == {
        "games": [{"winner": p1, "cube": 2, "result": "single", "ended_by": "play"}]
    }  # cube 2, doubles not itemised (the form has no column for them)
    assert form[:3] == ("match", "invalid", True)
    assert form[3]["games-0-cube"] == "x"


def test_a_withdrawal_gives_the_walkover_through_the_one_writer(bracket: Bracket) -> None:
    match = bracket.first
    answer = bracket.client_for(bracket.director).post(
        f"/api/entries/{match.entry2_id}/withdraw/", {"reason": "ill"}, format="json"
    )
    assert answer.status_code == 200
    match.refresh_from_db()
    assert (match.status, match.decision, match.winner_id) == (
        "complete",
        "walkover",
        match.entry1_id,
    )
    walkover = match.submissions.get()
    assert (walkover.kind, walkover.status, walkover.as_director) == (
        "forfeit",
        "accepted",
        True,
    )
    assert walkover.submitted_by == bracket.director
    assert walkover.payload["decision"] == "walkover"
    assert walkover.payload["winner"] == match.entry1.player_id
    assert "ill" in walkover.payload["reason"]


def test_the_consoles_withdrawal_keeps_who_sent_it_like_the_apis(bracket: Bracket) -> None:
    match = bracket.first
    event = match.event
    url = (
        f"/director/t/{event.tournament.slug}/events/{event.slug}/entries/{match.entry2_id}"
        "/withdraw/"
    )
    answer = _console(bracket).post(url, REMOTE_ADDR="203.0.113.9", HTTP_USER_AGENT="TD laptop")
    assert answer.status_code == 302
    walkover = match.submissions.get()
    assert (walkover.payload["decision"], walkover.ip_address, walkover.user_agent) == (
        "walkover",
        "203.0.113.9",
        "TD laptop",
    )


def test_a_walkover_the_bracket_gives_a_withdrawn_player_is_stored_too(bracket: Bracket) -> None:
    """Anna wins, withdraws before her next opponent is known; when Cleo arrives, the
    bracket gives her the final by walkover through the one writer."""
    from tournament.services.advance import match_advance

    first, second, final = bracket.first, bracket.second, bracket.final
    match_award(decision="forfeit", match=first, winner=first.entry1, by=bracket.director)
    match_advance(match_id=first.pk)
    entry_withdraw(entry=first.entry1, by=bracket.director)
    assert not final.submissions.exists()  # no opponent yet: nothing to decide
    match_award(decision="forfeit", match=second, winner=second.entry1, by=bracket.director)
    match_advance(match_id=second.pk)
    final.refresh_from_db()
    assert (final.status, final.decision, final.winner_id) == (
        "complete",
        "walkover",
        second.entry1_id,
    )
    assert final.advanced_at is not None
    walkover = final.submissions.get()
    assert (walkover.kind, walkover.status, walkover.as_director) == (
        "forfeit",
        "accepted",
        True,
    )
    assert walkover.payload["winner"] == second.entry1.player_id
