"""Match rules and state, reported games (no moves) and replayed game records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.rules.errors import (
    BadCubeValue,
    BadDice,
    DoubleInCrawford,
    DoubleNotOwner,
    GameAfterMatchEnd,
    HollandViolation,
    IllegalMove,
    MoneyOptionInMatch,
    OutOfTurn,
    PointsMismatch,
    ResultMismatch,
    RulesError,
    ScoreMismatch,
    Truncated,
)
from matches.rules.match import (
    DoubleReport,
    GameReport,
    MatchRules,
    MatchState,
    check_game_report,
    validate_game_report,
)
from matches.rules.matfile import read_mat
from matches.rules.outcome import EndedBy, Result
from matches.rules.record import GameRecord, RollPlay, Win, replay_game

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"

# -- rules and state --------------------------------------------------------------------


def test_money_options_are_refused_in_match_play() -> None:
    for option in ({"jacoby": True}, {"beavers": True}, {"auto_doubles": 1}):
        with pytest.raises(MoneyOptionInMatch):
            MatchRules(length=5, **option)  # type: ignore[arg-type]
    money = MatchRules(length=0, jacoby=True, beavers=True, raccoons=True, auto_doubles=2)
    assert money.money
    with pytest.raises(MoneyOptionInMatch, match="raccoons need beavers"):
        MatchRules(length=0, raccoons=True)


def test_crawford_is_on_and_holland_off_by_default() -> None:
    rules = MatchRules(length=7)
    assert (rules.crawford, rules.holland) == (True, False)


@pytest.mark.parametrize(
    ("length", "results", "start", "crawford_game"),
    [
        (5, [(0, 4)], (0, 0), 2),  # the game after 4-0 is the Crawford game
        (5, [(0, 2), (1, 4)], (0, 0), 3),  # the trailer can reach 4 first
        (5, [(0, 2), (0, 2), (1, 1)], (0, 0), 3),
        (5, [(0, 3), (0, 2)], (0, 0), None),  # jumped from 3 past 4: no Crawford game
        (1, [(0, 1)], (0, 0), None),  # a 1-point match has none
        (5, [], (4, 0), 1),  # late penalty points can bring a player to 4
        (5, [], (4, 4), None),  # both at match point: no Crawford game
        (0, [(0, 8), (1, 2)], (0, 0), None),  # money
    ],
)
def test_which_game_is_crawford_is_derived_from_the_scores(
    length: int, results: list[tuple[int, int]], start: tuple[int, int], crawford_game: int | None
) -> None:
    state = MatchState.replay(length, results, start)
    assert state.crawford_game_number(MatchRules(length)) == crawford_game


def test_the_crawford_game_can_be_turned_off() -> None:
    state = MatchState.replay(5, [(0, 4)])
    assert state.is_crawford_game(MatchRules(5))
    assert not state.is_crawford_game(MatchRules(5, crawford=False))
    assert not state.is_post_crawford(MatchRules(5, crawford=False))


def test_match_over_at_or_past_the_length_and_no_game_after() -> None:
    state = MatchState.replay(5, [(1, 3), (1, 4)])
    assert (state.score, state.is_over, state.winner) == ((0, 7), True, 1)
    with pytest.raises(GameAfterMatchEnd) as caught:
        validate_game_report(state, MatchRules(5), GameReport(winner=0))
    assert caught.value.game == 3


game_results = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from([1, 2, 3, 4, 6, 8])), max_size=20
)


@given(st.integers(1, 25), game_results, st.booleans())
def test_at_most_one_crawford_game(
    length: int, results: list[tuple[int, int]], crawford: bool
) -> None:
    rules = MatchRules(length, crawford=crawford)
    state = MatchState.start(length)
    crawford_games = []
    for winner, points in results:
        if state.is_over:
            break
        if state.is_crawford_game(rules):
            crawford_games.append(state.game_number)
            points = min(points, 3)  # the cube stays at 1
        assert not (state.is_crawford_game(rules) and state.is_post_crawford(rules))
        state = state.after_game(winner, points)
    assert len(crawford_games) <= (1 if crawford and length > 1 else 0)
    if crawford_games:
        before = state.scores[crawford_games[0] - 1]
        assert (before[0] == length - 1) != (before[1] == length - 1)


# -- reported games (the REST API's shape) -------------------------------------------------

POST_CRAWFORD = MatchState.replay(5, [(0, 4), (1, 1)])


def test_a_simple_report_moves_the_score() -> None:
    state = validate_game_report(
        MatchState.start(7), MatchRules(7), GameReport(winner=1, cube=4, result="backgammon")
    )
    assert state.score == (0, 12)


@pytest.mark.parametrize(
    ("state", "rules", "report", "error"),
    [
        (MatchState.start(7), MatchRules(7), GameReport(winner=0, cube=3), BadCubeValue),
        (MatchState.start(7), MatchRules(7), GameReport(winner=0, cube=0), BadCubeValue),
        (
            MatchState.start(5, (4, 1)),
            MatchRules(5),
            GameReport(winner=1, cube=2),
            DoubleInCrawford,
        ),
        (
            MatchState.start(5, (4, 1)),
            MatchRules(5),
            GameReport(
                winner=1, doubles=[DoubleReport(by=1, turn=3, response="drop")], ended_by="drop"
            ),
            DoubleInCrawford,
        ),
        (
            MatchState.start(5, (1, 4)),
            MatchRules(5),
            GameReport(winner=0, ended_by="drop"),
            DoubleInCrawford,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, result="gammon", ended_by="drop"),
            ResultMismatch,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, cube=2, result="gammon", points=2),
            PointsMismatch,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, cube=4, doubles=[DoubleReport(0, 2), DoubleReport(0, 4)]),
            DoubleNotOwner,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, cube=2, doubles=[DoubleReport(0, 2, "beaver")]),
            MoneyOptionInMatch,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, cube=4, doubles=[DoubleReport(0, 2)]),
            BadCubeValue,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=1, cube=1, ended_by="drop", doubles=[DoubleReport(0, 2, "take")]),
            ResultMismatch,
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=0, cube=1, ended_by="drop", doubles=[DoubleReport(0, 2, "drop")]),
            ResultMismatch,  # side 1 dropped, so side 0 won... reported the wrong way round below
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=1, cube=4, doubles=[DoubleReport(0, 0), DoubleReport(1, 0)]),
            OutOfTurn,  # whoever opened, one of them doubled before the opening roll
        ),
        (
            MatchState.start(7),
            MatchRules(7),
            GameReport(winner=1, cube=4, doubles=[DoubleReport(0, 3), DoubleReport(1, 2)]),
            OutOfTurn,  # the redouble comes before the double it answers
        ),
    ],
)
def test_reports_that_break_the_rules(
    state: MatchState, rules: MatchRules, report: GameReport, error: type[RulesError]
) -> None:
    if report.ended_by == "drop" and report.winner == 0 and report.doubles:
        report = GameReport(winner=1, cube=1, ended_by="drop", doubles=report.doubles)
        with pytest.raises(ResultMismatch):
            validate_game_report(state, rules, report)
        return
    with pytest.raises(error) as caught:
        validate_game_report(state, rules, report)
    assert caught.value.game == state.game_number


def test_drops_are_worth_the_cube_before_the_refused_double() -> None:
    report = GameReport(
        winner=0,
        cube=2,
        ended_by="drop",
        doubles=[
            DoubleReport(0, 3, "take"),
            DoubleReport(1, 4, "take"),
            DoubleReport(0, 6, "drop"),
        ],
    )
    with pytest.raises(BadCubeValue):  # after two takes the cube is at 4, not 2
        validate_game_report(MatchState.start(11), MatchRules(11), report)
    ok = GameReport(winner=0, cube=4, ended_by="drop", doubles=report.doubles)
    assert validate_game_report(MatchState.start(11), MatchRules(11), ok).score == (4, 0)


def test_holland_example_from_the_rules() -> None:
    """A opens; turns go A1 B1 A2 B2 A3: A may first double before A3, B before B3."""
    rules = MatchRules(5, holland=True)
    assert POST_CRAWFORD.is_post_crawford(rules)
    for by in (0, 1):
        ok = GameReport(winner=by, cube=1, ended_by="drop", doubles=[DoubleReport(by, 2, "drop")])
        assert validate_game_report(POST_CRAWFORD, rules, ok).score[by] > POST_CRAWFORD.score[by]
        early = GameReport(
            winner=by, cube=1, ended_by="drop", doubles=[DoubleReport(by, 1, "drop")]
        )
        with pytest.raises(HollandViolation) as caught:
            validate_game_report(POST_CRAWFORD, rules, early)
        assert (caught.value.code, caught.value.side) == ("holland", by)
    # without Holland, or before the Crawford game, the early double is fine
    early = GameReport(winner=1, cube=1, ended_by="drop", doubles=[DoubleReport(1, 1, "drop")])
    validate_game_report(POST_CRAWFORD, MatchRules(5), early)
    validate_game_report(MatchState.start(5), rules, early)


def test_jacoby_counts_gammons_single_while_the_cube_is_not_turned() -> None:
    money = MatchRules(0, jacoby=True, beavers=True)
    state = MatchState.start(0)
    assert check_game_report(state, money, GameReport(winner=0, result="gammon")).points == 1
    turned = GameReport(winner=0, cube=2, result="gammon", doubles=[DoubleReport(1, 1, "take")])
    assert check_game_report(state, money, turned).points == 4
    beaver = GameReport(
        winner=1, cube=4, result="backgammon", doubles=[DoubleReport(0, 3, "beaver")]
    )
    assert check_game_report(state, money, beaver).points == 12
    no_jacoby = MatchRules(0)
    assert check_game_report(state, no_jacoby, GameReport(winner=0, result="gammon")).points == 2


def test_a_dropped_beaver_is_worth_twice_the_cube() -> None:
    money = MatchRules(0, beavers=True)
    report = GameReport(winner=1, cube=2, ended_by="drop", doubles=[DoubleReport(0, 4, "beaver")])
    checked = check_game_report(MatchState.start(0), money, report)
    assert (checked.points, checked.ended_by, checked.result) == (2, EndedBy.DROP, Result.SINGLE)


# -- replaying records --------------------------------------------------------------------

HEAD = " 5 point match\n\n Game 1\n A : {a}                          B : {b}\n"


def replay(
    moves: str, *, score: tuple[int, int] = (0, 0), rules: MatchRules | None = None
) -> object:
    record = read_mat(HEAD.format(a=score[0], b=score[1]) + moves)
    return replay_game(MatchState.start(5, score), rules or MatchRules(5), record.games[0])


def error_of(moves: str, **kwargs: object) -> RulesError:
    with pytest.raises(RulesError) as caught:
        replay(moves, **kwargs)  # type: ignore[arg-type]
    return caught.value


def test_a_dropped_double_ends_the_game() -> None:
    played = replay(
        "  1)                             31: 8/5 6/5\n"
        "  2) 52: 13/8 24/22               Doubles => 2\n"
        "  3)  Drops                       Wins 1 point\n"
    )
    assert (played.winner, played.points, played.ended_by, played.cube) == (1, 1, EndedBy.DROP, 1)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("moves", "error", "move", "side"),
    [
        ("  1) 33: 8/5(2) 6/3(2)\n", BadDice, 1, 0),
        ("  1) 71: 8/1 6/5\n", BadDice, 1, 0),
        (
            "  1) 31: 8/5 6/5                 52: 13/8 13/11\n  2)                             42: 8/4 6/4\n",
            OutOfTurn,
            2,
            1,
        ),
        ("  1) 31: 8/5 6/5                 52: 13/8 13/10\n", IllegalMove, 1, 1),
        ("  1) 31: 8/5 6/5                 52:\n  2) 21: 13/11 6/5\n", IllegalMove, 1, 1),
        ("  1) 31: 8/5 6/5                 52: 13/8 13/11\n", Truncated, 1, None),
        ("  1) 31: 8/5 6/5                 52: 13/8 13/1", Truncated, 1, None),
        ("  1) 31: 8/5 6/5                 52: 13/8 13/11\n  2) 6", Truncated, 2, None),
        ("  1) 31: 8/5 6/5                  Doubles => 2\n  2) 52: 13/8 13/11\n", OutOfTurn, 2, 0),
        (
            "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes                      52: 13/8 13/11\n  3) 42: 8/4 6/4                  Doubles => 4\n",
            DoubleNotOwner,
            3,
            1,
        ),
        ("  1) 31: 8/5 6/5                  Doubles => 4\n", BadCubeValue, 1, 1),
        (
            "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops\n      Wins 1 point\n",
            ResultMismatch,
            2,
            0,
        ),
        (
            "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops                       Wins 2 points\n",
            PointsMismatch,
            2,
            1,
        ),
        (
            "  1) 31: 8/5 6/5                 52: 13/8 13/11\n                                  Wins 5 points\n",
            PointsMismatch,
            1,
            1,
        ),
        (
            "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Beavers => 4\n",
            MoneyOptionInMatch,
            2,
            0,
        ),
        ("  1)  Doubles => 2\n", OutOfTurn, 1, 0),
    ],
)
def test_records_that_break_the_rules(
    moves: str, error: type[RulesError], move: int | None, side: int | None
) -> None:
    caught = error_of(moves)
    assert isinstance(caught, error), caught
    assert (caught.game, caught.move, caught.side) == (1, move, side)


def test_a_roll_then_a_resignation() -> None:
    played = replay(
        "  1) 31: 8/5 6/5                 52:\n                                  Wins 3 points\n"
    )
    assert (played.winner, played.points, played.result, played.ended_by) == (  # type: ignore[attr-defined]
        1,
        3,
        Result.BACKGAMMON,
        EndedBy.RESIGN,
    )


def test_no_double_in_the_crawford_game_and_holland_after_it() -> None:
    caught = error_of("  1) 31: 8/5 6/5                  Doubles => 2\n", score=(4, 1))
    assert (caught.code, caught.game, caught.move, caught.side) == ("double-in-crawford", 1, 1, 1)
    holland = MatchRules(5, holland=True)
    early = "  1) 31: 8/5 6/5                 52: 13/8 13/11\n  2)  Doubles => 2\n"
    state = MatchState.replay(5, [(0, 4), (1, 1)])
    record = read_mat(HEAD.format(a=4, b=1) + early).games[0]
    with pytest.raises(HollandViolation) as held:
        replay_game(state, holland, record)
    assert (held.value.move, held.value.side) == (2, 0)


def test_score_line_must_match_the_state() -> None:
    record = GameRecord(2, (1, 0), (RollPlay(0, (3, 1), "8/5 6/5"), Win(0, 1)))
    with pytest.raises(ScoreMismatch) as caught:
        replay_game(MatchState.replay(5, [(0, 2)]), MatchRules(5), record)
    assert (caught.value.code, caught.value.game) == ("score-mismatch", 2)


def test_automatic_doubles_in_money_play() -> None:
    """A .mat file does not record automatic doubles; SGF does (CV in the root node)."""
    played_out = read_mat((CORPUS / "m19_5pt.mat").read_bytes()).games[0]  # a gammon, cube 1
    doubled = replace(played_out, actions=(*played_out.actions[:-1], Win(1, 4, None)))
    money = MatchState.start(0)
    with pytest.raises(PointsMismatch):
        replay_game(money, MatchRules(0), doubled)
    assert replay_game(money, MatchRules(0, auto_doubles=1), doubled).cube == 2
    with pytest.raises(PointsMismatch):  # SGF said: no automatic double
        replay_game(money, MatchRules(0, auto_doubles=1), replace(doubled, auto_doubles=0))
    with pytest.raises(MoneyOptionInMatch) as caught:
        replay_game(MatchState.start(5), MatchRules(5), replace(played_out, auto_doubles=1))
    assert caught.value.game == 1
