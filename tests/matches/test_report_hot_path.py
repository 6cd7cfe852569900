"""The game report's hot path (issue 5's benchmark) keeps its behaviour while it gets cheaper.

Page invalidation after a report needs no query and one cache round trip; on both
cache backends (local memory in the SQLite run, Redis in the PostgreSQL run). The
answer, built as a plain dict, is ``MatchDetailSerializer``'s, key for key. Bodies are
validated by one shared serializer per class, with a fresh one's results.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.serializers import Serializer
from rest_framework.test import APIClient

from matches.access import Actor
from matches.api import serializers as io
from matches.api.shapes import (
    GameOutSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    match_data,
    match_detail_data,
)
from matches.api.views import validator
from matches.models import Game, Match, Submission
from matches.selectors import match_detail
from matches.services.confirmation import match_resolve
from matches.services.reporting import DoubleInput, GameInput, game_report
from tests.factories import EventFactory, MatchFactory, RoundFactory
from tests.matches.conftest import META, Table, make_table
from tournament import page_cache
from tournament.models import Round

pytestmark = pytest.mark.django_db


def _versions(table: Table) -> tuple[int, int, int]:
    event = table.match.event
    return (
        page_cache.version("event", event.pk),
        page_cache.version("tournament", event.tournament_id),
        page_cache.version("site", 0),
    )


def test_a_report_bumps_its_event_tournament_and_site_pages_with_no_query_after_commit(
    table: Table, django_capture_on_commit_callbacks, django_assert_num_queries
) -> None:
    before = _versions(table)
    with django_capture_on_commit_callbacks() as callbacks:
        game_report(
            match_id=table.match.pk, actor=table.link1, game=GameInput(winner=table.p1), meta=META
        )
    assert _versions(table) == before  # nothing before the commit
    with django_assert_num_queries(0):
        for callback in callbacks:
            callback()
    assert _versions(table) == tuple(v + 1 for v in before)


def test_bump_many_increments_each_version_and_starts_a_missing_one_at_two() -> None:
    page_cache.version("event", 901)  # 1
    page_cache.bump("tournament", 902)  # missing: 2
    cache.delete(page_cache.version_key("site", 903))
    page_cache.bump_many(("event", 901), ("tournament", 902), ("site", 903))
    assert [
        cache.get(page_cache.version_key(s, i))
        for s, i in (("event", 901), ("tournament", 902), ("site", 903))
    ] == [2, 3, 2]
    assert page_cache.version("site", 903) == 2


def test_invalidate_event_without_its_tournament_bumps_the_event_and_the_site() -> None:
    before = [page_cache.version(s, i) for s, i in (("event", 911), ("tournament", 912))]
    site = page_cache.version("site", 0)
    page_cache.invalidate_event(911)
    after = [page_cache.version(s, i) for s, i in (("event", 911), ("tournament", 912))]
    assert after == [before[0] + 1, before[1]]
    assert page_cache.version("site", 0) == site + 1


# ---- the answer: a plain dict with MatchDetailSerializer's shape ---------------------


def _serialized(match_id: int) -> dict[str, object]:
    return dict(MatchDetailSerializer(match_detail(match_id=match_id)).data)


def _built(match_id: int) -> dict[str, object]:
    return match_detail_data(match_detail(match_id=match_id))


def _report(t: Table, actor: Actor, winner: int, **kw: object) -> Match:
    return game_report(
        match_id=t.match.pk, actor=actor, game=GameInput(winner=winner, **kw), meta=META
    )


def _matches_in_every_state() -> dict[str, int]:
    """Match ids by state: fresh, doubled games, Crawford, reported, complete, voided games,
    a bye, an empty slot, start scores with Holland in a named losers' round."""
    ids: dict[str, int] = {}
    ids["fresh"] = make_table().match.pk

    t = make_table()
    _report(t, t.link1, t.p1, cube=2, result="gammon", doubles=(DoubleInput(t.p1, 3),))
    _report(t, t.link2, t.p2, cube=4, doubles=(DoubleInput(t.p1, 2), DoubleInput(t.p2, 4)))
    ids["doubled"] = t.match.pk

    t = make_table()
    _report(t, t.link1, t.p1, cube=2, result="gammon")  # 4-0
    _report(t, t.link1, t.p1, cube=2)  # 6-0: the next game is Crawford
    ids["crawford-next"] = t.match.pk
    _report(t, t.link2, t.p2)  # 6-1, the Crawford game
    _report(t, t.link1, t.p1)  # 7-1
    ids["reported"] = t.match.pk

    t = make_table()
    _report(t, t.boss, t.p2, cube=2, result="gammon")  # 0-4
    _report(t, t.boss, t.p2, cube=2)  # 0-6
    _report(t, t.boss, t.p2)  # 0-7, the Crawford game: decided by a director
    ids["complete"] = t.match.pk

    t = make_table()
    _report(t, t.link1, t.p1)
    _report(t, t.link2, t.p2)
    match_resolve(
        match_id=t.match.pk, actor=t.boss, meta=META, games=[GameInput(winner=t.p2, cube=8)]
    )
    ids["voided"] = t.match.pk

    ids["bye"] = MatchFactory(
        entry2=None, is_bye=True, status=Match.Status.COMPLETE, decision=Match.Decision.BYE
    ).pk
    bye = Match.objects.get(pk=ids["bye"])
    bye.winner = bye.entry1
    bye.save(update_fields=["winner"])
    ids["empty-slot"] = MatchFactory(entry1=None, entry2=None, status=Match.Status.PENDING).pk

    round_ = RoundFactory(
        event=EventFactory(holland=True, match_lengths=[11]),
        bracket=Round.Bracket.LOSERS,
        number=3,
        name="Losers' semi-final",
    )
    t = make_table(round=round_, holland=True, start_score1=2, start_score2=5, score1=2, score2=5)
    _report(t, t.link2, t.p2, cube=2)
    ids["start-score"] = t.match.pk
    return ids


def test_the_built_answer_is_the_serializers_key_for_key_in_every_state(table: Table) -> None:
    states = _matches_in_every_state()
    shown = {state: _built(match_id) for state, match_id in states.items()}
    assert {m["status"] for m in shown.values()} == {
        "ready", "playing", "reported", "complete", "pending"
    }  # fmt: skip
    assert shown["crawford-next"]["crawford_game_number"] == 3
    assert Game.objects.filter(match_id=states["voided"], voided=True).count() == 2
    for state, match_id in states.items():
        built, serialized = shown[state], _serialized(match_id)
        assert built == serialized, state
        assert list(built) == list(serialized), state
        assert [list(g) for g in built["games"]] == [list(g) for g in serialized["games"]]  # type: ignore[union-attr]
        assert JSONRenderer().render(built) == JSONRenderer().render(serialized), state
        # The schema's declared fields are the keys the builders make, in their order.
        assert list(MatchDetailSerializer().fields) == list(built), state
        for game in built["games"]:  # type: ignore[union-attr]
            assert list(GameOutSerializer().fields) == list(game)
        listed = match_data(match_detail(match_id=match_id))
        assert list(MatchSerializer().fields) == list(listed)
        assert listed == {k: v for k, v in built.items() if k in listed}


def test_the_answer_to_a_report_is_the_match_as_get_shows_it(table: Table) -> None:
    client = APIClient()
    client.credentials(HTTP_X_REPORT_KEY=table.match.entry1.report_key)  # type: ignore[union-attr]
    url = f"/api/matches/{table.match.pk}/games/"
    client.post(url, {"winner": table.p1, "cube": 2}, format="json")
    answer = client.post(url, {"winner": table.p2, "game_number": 2}, format="json")
    assert answer.status_code == 201
    shown = APIClient().get(f"/api/matches/{table.match.pk}/")
    assert answer.content == shown.content


def test_the_answer_to_a_report_reads_neither_the_match_nor_its_games_again(table: Table) -> None:
    """The ledger hands the games over with the match (``Match.games_after``): the answer
    is built from them, with no second read of the match or its games."""
    client = APIClient()
    client.credentials(HTTP_X_REPORT_KEY=table.match.entry1.report_key)  # type: ignore[union-attr]
    url = f"/api/matches/{table.match.pk}/games/"
    client.post(url, {"winner": table.p1, "cube": 2}, format="json")
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(url, {"winner": table.p2, "game_number": 2}, format="json")
    assert answer.status_code == 201
    assert [g["number"] for g in answer.json()["games"]] == [1, 2]
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len([s for s in reads if 'FROM "matches_match"' in s]) == 1, reads  # the lock
    assert len([s for s in reads if 'FROM "matches_game"' in s]) == 1, reads  # the decision's


# ---- parsing: one shared validator per report serializer -----------------------------

BODIES: list[dict[str, object]] = [
    {"winner": 5, "cube": 2, "doubles": [{"by": 5, "turn": 3}], "game_number": 2},
    {"winner": "x", "cube": 3.5},
    {"winner": 5, "doubles": [{"by": 5, "turn": -1, "response": "maybe"}, {}]},
    {"winner": 5},
    {"cube": 2, "result": "triple", "game_number": 0},
    {"winner": 6, "result": "gammon", "ended_by": "resign", "key": "k" * 65},
    {"winner": 7, "ended_by": "drop", "doubles": [{"by": 7, "turn": 2, "response": "drop"}]},
]


def _fresh(serializer_class: type[Serializer], body: dict[str, object]) -> tuple[bool, object]:
    serializer = serializer_class(data=body)
    valid = serializer.is_valid()
    return valid, dict(serializer.validated_data) if valid else serializer.errors


def _shared(serializer_class: type[Serializer], body: dict[str, object]) -> tuple[bool, object]:
    try:
        return True, dict(validator(serializer_class).run_validation(body))
    except ValidationError as exc:
        return False, exc.detail


@pytest.mark.parametrize(
    "serializer_class", [io.GameReportSerializer, io.MatchReportSerializer, io.ResolveSerializer]
)
def test_the_shared_validator_answers_as_a_fresh_serializer_in_any_order(
    serializer_class: type[Serializer],
) -> None:
    bodies = [*BODIES, {"games": BODIES[:2]}, {"games": [BODIES[0], BODIES[3]], "score": [1, 2]}]
    for body in bodies + bodies[::-1]:
        assert _shared(serializer_class, body) == _fresh(serializer_class, body), body


def test_a_valid_report_after_an_invalid_one_is_accepted_and_the_invalid_one_stored(
    table: Table,
) -> None:
    client = APIClient()
    client.credentials(HTTP_X_REPORT_KEY=table.match.entry1.report_key)  # type: ignore[union-attr]
    url = f"/api/matches/{table.match.pk}/games/"
    bad = client.post(url, {"winner": table.p1, "cube": "two"}, format="json")
    good = client.post(url, {"winner": table.p1, "cube": 2, "game_number": 1}, format="json")
    assert (bad.status_code, good.status_code) == (400, 201)
    assert bad.json()["code"] == "invalid"
    stored = list(Submission.objects.filter(match=table.match).values_list("status", "error_code"))
    assert stored == [("rejected", "invalid"), ("accepted", "")]
