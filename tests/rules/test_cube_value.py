"""The cube value of a reported game against its itemised doubles and automatic doubles.

``doubles`` absent means "not itemised" (any power of two goes); a list, even an empty
one, is every double of the game, so the cube must be what it leaves.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.rules.errors import BadCubeValue, MoneyOptionInMatch, ParseError, ResultMismatch
from matches.rules.match import (
    DoubleReport,
    GameReport,
    MatchRules,
    MatchState,
    check_game_report,
)


def test_an_empty_doubles_list_means_the_cube_stayed_at_one() -> None:
    state, rules = MatchState.start(7), MatchRules(7)
    with pytest.raises(BadCubeValue) as caught:
        check_game_report(state, rules, GameReport(winner=0, cube=2, doubles=[]))
    assert (caught.value.code, caught.value.game) == ("bad-cube-value", 1)
    assert "no double was reported" in str(caught.value)
    assert check_game_report(state, rules, GameReport(winner=0, cube=1, doubles=[])).points == 1


def test_doubles_not_itemised_still_take_any_cube() -> None:
    report = GameReport(winner=1, cube=4, result="gammon")
    assert check_game_report(MatchState.start(7), MatchRules(7), report).points == 8


def test_an_empty_doubles_list_cannot_end_by_a_drop() -> None:
    with pytest.raises(ResultMismatch):
        check_game_report(
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, cube=1, ended_by="drop", doubles=[]),
        )


def test_automatic_doubles_come_before_a_taken_double_in_money_play() -> None:
    rules = MatchRules(0, auto_doubles=2)
    report = GameReport(winner=0, cube=4, doubles=[DoubleReport(1, 2)], automatic_doubles=1)
    checked = check_game_report(MatchState.start(0), rules, report)
    assert (checked.cube, checked.points, checked.cube_turned) == (4, 4, True)
    # Without the automatic double the taken double leaves the cube at 2, not 4.
    with pytest.raises(BadCubeValue):
        check_game_report(
            MatchState.start(0), rules, GameReport(winner=0, cube=4, doubles=[DoubleReport(1, 2)])
        )


def test_automatic_doubles_obey_the_session_limit_and_match_play() -> None:
    with pytest.raises(MoneyOptionInMatch) as caught:
        check_game_report(
            MatchState.start(0),
            MatchRules(0, auto_doubles=1),
            GameReport(winner=0, cube=4, doubles=[], automatic_doubles=2),
        )
    assert caught.value.game == 1
    with pytest.raises(MoneyOptionInMatch):
        check_game_report(
            MatchState.start(7), MatchRules(7), GameReport(winner=0, cube=2, automatic_doubles=1)
        )
    with pytest.raises(ParseError):
        check_game_report(
            MatchState.start(0), MatchRules(0), GameReport(winner=0, automatic_doubles=-1)
        )


def test_unitemised_doubles_cannot_undercut_the_automatic_doubles() -> None:
    rules = MatchRules(0, auto_doubles=3)
    with pytest.raises(BadCubeValue):
        check_game_report(
            MatchState.start(0), rules, GameReport(winner=0, cube=2, automatic_doubles=2)
        )
    checked = check_game_report(
        MatchState.start(0), rules, GameReport(winner=0, cube=4, automatic_doubles=2)
    )
    assert (checked.points, checked.cube_turned) == (4, False)


# -- property: the cube is 2 ** (automatic doubles + taken doubles), nothing else ------


@st.composite
def money_games(draw: st.DrawFn) -> tuple[int, list[DoubleReport]]:
    """Automatic doubles, then alternating taken doubles at increasing turns."""
    autos = draw(st.integers(0, 3))
    count = draw(st.integers(0, 5))
    first = draw(st.integers(0, 1))
    turns = sorted(draw(st.lists(st.integers(1, 40), min_size=count, max_size=count, unique=True)))
    doubles = [DoubleReport(by=(first + i) % 2, turn=t) for i, t in enumerate(turns)]
    return autos, doubles


@settings(max_examples=200, deadline=None)
@given(game=money_games(), cube_exp=st.integers(0, 10), winner=st.integers(0, 1))
def test_the_cube_is_what_the_itemised_doubles_leave(
    game: tuple[int, list[DoubleReport]], cube_exp: int, winner: int
) -> None:
    autos, doubles = game
    rules = MatchRules(0, auto_doubles=3)
    report = GameReport(winner=winner, cube=2**cube_exp, doubles=doubles, automatic_doubles=autos)
    expected = 2 ** (autos + len(doubles))
    if 2**cube_exp == expected:
        checked = check_game_report(MatchState.start(0), rules, report)
        assert checked.points == expected
        assert checked.cube_turned == bool(doubles)
    else:
        with pytest.raises(BadCubeValue) as caught:
            check_game_report(MatchState.start(0), rules, report)
        assert caught.value.game == 1


@settings(max_examples=200, deadline=None)
@given(
    length=st.integers(2, 25),
    cube_exp=st.integers(0, 10),
    winner=st.integers(0, 1),
    result=st.sampled_from(["single", "gammon", "backgammon"]),
)
def test_no_itemised_double_leaves_a_match_cube_at_one(
    length: int, cube_exp: int, winner: int, result: str
) -> None:
    report = GameReport(winner=winner, cube=2**cube_exp, result=result, doubles=[])
    state, rules = MatchState.start(length), MatchRules(length)
    if cube_exp == 0:
        assert check_game_report(state, rules, report).points == {"single": 1, "gammon": 2}.get(
            result, 3
        )
    else:
        with pytest.raises(BadCubeValue):
            check_game_report(state, rules, report)
