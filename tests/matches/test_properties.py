"""Whatever players and directors send, in any order, the stored match stays consistent."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from matches.errors import AppError
from matches.models import Game
from matches.rules.errors import RulesError
from matches.services.confirmation import match_confirm, match_dispute, match_resolve
from matches.services.reporting import GameInput, game_report
from tests.matches.conftest import META, make_table

pytestmark = pytest.mark.django_db

REFUSED = (RulesError, AppError)

actions = st.lists(
    st.tuples(
        st.sampled_from(["link1", "link2", "boss"]),
        st.sampled_from(["game", "game", "game", "confirm", "dispute", "resolve"]),
        st.sampled_from([1, 2]),
        st.sampled_from([1, 1, 2, 3, 4, 8]),
        st.sampled_from(["single", "single", "gammon", "backgammon"]),
        st.sampled_from(["play", "play", "drop", "resign"]),
        st.sampled_from([None, -1, 0, 0, 1]),
    ),
    max_size=14,
)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=actions,
    length=st.sampled_from([1, 3, 5, 7]),
    start=st.sampled_from([(0, 0), (0, 2), (1, 0)]),
)
def test_any_sequence_of_reports_leaves_a_consistent_match(
    db: None, steps: list[tuple], length: int, start: tuple[int, int]
) -> None:
    assume(max(start) < length)  # a start at or past the length is a forfeit, not play
    t = make_table(
        length=length,
        start_score1=start[0],
        start_score2=start[1],
        score1=start[0],
        score2=start[1],
    )
    players = {1: t.p1, 2: t.p2}
    for who, kind, winner, cube, result, ended_by, offset in steps:
        actor = getattr(t, who)
        live = Game.objects.filter(match=t.match, voided=False).count()
        number = None if offset is None else live + 1 + offset
        game = GameInput(
            winner=players[winner], cube=cube, result=result, ended_by=ended_by, game_number=number
        )
        try:
            if kind == "game":
                game_report(match_id=t.match.pk, actor=actor, game=game, meta=META)
            elif kind == "confirm":
                match_confirm(match_id=t.match.pk, actor=actor, meta=META)
            elif kind == "dispute":
                match_dispute(match_id=t.match.pk, actor=actor, reason="no", meta=META)
            elif who == "boss":
                match_resolve(match_id=t.match.pk, actor=actor, meta=META)
        except REFUSED:
            pass
    match = t.refresh()
    games = list(Game.objects.filter(match=match, voided=False).order_by("number"))
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    won = {1: 0, 2: 0}
    score = list(start)
    for g in games:
        assert [g.score_before1, g.score_before2] == score
        score[g.winner_side - 1] += g.points
        won[g.winner_side] += g.points
    assert (match.score1, match.score2) == (start[0] + won[1], start[1] + won[2])
    assert sum(g.crawford for g in games) <= 1
    decided = max(match.score1, match.score2) >= length
    if decided:
        assert match.status in ("reported", "complete", "disputed")
        expected = match.entry1_id if match.score1 >= length else match.entry2_id
        assert match.winner_id == expected
    else:
        assert match.status in ("ready", "playing", "disputed")
        assert match.winner_id is None
    attempts = sum(1 for who, kind, *_ in steps if kind != "resolve" or who == "boss")
    versions = list(match.submissions.order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, attempts + 1))
