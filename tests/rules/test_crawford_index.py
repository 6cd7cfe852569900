"""``crawford_game_index``, the one derivation of the Crawford game, against the rule as
match-rules.md states it, over random score histories."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.rules.match import MatchRules, MatchState, crawford_game_index


@st.composite
def histories(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """A length and the score before each game, from a random start, until the match ends."""
    length = draw(st.integers(1, 15))
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    scores = [score]
    for winner, points in draw(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 6)))):
        if max(score) >= length:
            break
        score = (score[0] + points, score[1]) if winner == 0 else (score[0], score[1] + points)
        scores.append(score)
    return length, scores


@settings(max_examples=300, deadline=None)
@given(history=histories(), crawford=st.booleans())
def test_the_crawford_game_is_the_first_with_exactly_one_player_one_away(
    history: tuple[int, list[tuple[int, int]]], crawford: bool
) -> None:
    length, scores = history
    expected = None
    if crawford and length > 1:
        for i, (a, b) in enumerate(scores):
            if a >= length or b >= length:
                break
            if (a == length - 1) != (b == length - 1):
                expected = i
                break
    assert crawford_game_index(scores, length=length, crawford=crawford) == expected
    state = MatchState(length, tuple(scores))
    number = state.crawford_game_number(MatchRules(length, crawford=crawford))
    assert number == (None if expected is None else expected + 1)
    assert state.is_crawford_game(MatchRules(length, crawford=crawford)) == (
        expected == len(scores) - 1 and max(scores[-1]) < length
    )
