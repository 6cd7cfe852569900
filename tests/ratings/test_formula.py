"""The FIBS formula (pure): known values, its doctests and properties that must always hold."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.formulas import ratings

ratings_ = st.floats(min_value=500, max_value=2500, allow_nan=False)
lengths = st.integers(min_value=1, max_value=25)
experiences = st.integers(min_value=0, max_value=5000)


def test_doctests() -> None:
    result = doctest.testmod(ratings)
    assert result.attempted > 10
    assert result.failed == 0


def test_fibs_example_values() -> None:
    # D = 100, n = 5: P_upset = 1 / (10 ** (100 * sqrt(5) / 2000) + 1) = 0.435994...
    assert ratings.upset_probability(100, 5) == pytest.approx(0.435994, abs=1e-6)
    fav, dog = ratings.rate(1600, 1500, 5, winner=1, experience1=400, experience2=400)
    assert fav.change == pytest.approx(4 * math.sqrt(5) * 0.435994, abs=1e-5)
    assert dog.change == pytest.approx(-fav.change)
    # The underdog winning gains 4 * sqrt(n) * (1 - P_upset), with a newcomer's K = 5.
    fav, dog = ratings.rate(1600, 1500, 5, winner=2, experience1=400, experience2=0)
    assert dog.change == pytest.approx(5 * 4 * math.sqrt(5) * (1 - 0.435994), abs=1e-5)
    assert fav.change == pytest.approx(-4 * math.sqrt(5) * (1 - 0.435994), abs=1e-5)


def test_experience_grows_by_the_match_length() -> None:
    a, b = ratings.rate(1500, 1500, 11, winner=1, experience1=3, experience2=0)
    assert (a.experience_after, b.experience_after) == (14, 11)


@pytest.mark.parametrize("length", [0, -3])
def test_a_match_has_a_length(length: int) -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        ratings.rate(1500, 1500, length, winner=1, experience1=0, experience2=0)


@given(ratings_, ratings_, lengths, experiences, experiences, st.sampled_from([1, 2]))
def test_winner_gains_loser_loses_within_bounds(
    r1: float, r2: float, n: int, e1: int, e2: int, winner: int
) -> None:
    one, two = ratings.rate(r1, r2, n, winner=winner, experience1=e1, experience2=e2)
    won, lost = (one, two) if winner == 1 else (two, one)
    assert won.change > 0 > lost.change
    for side, exp in ((one, e1), (two, e2)):
        assert abs(side.change) < 4 * ratings.experience_factor(exp) * math.sqrt(n)


@given(ratings_, ratings_, lengths, experiences, st.sampled_from([1, 2]))
def test_zero_sum_between_equally_experienced_players(
    r1: float, r2: float, n: int, exp: int, winner: int
) -> None:
    one, two = ratings.rate(r1, r2, n, winner=winner, experience1=exp, experience2=exp)
    assert one.change + two.change == pytest.approx(0, abs=1e-9)


@given(ratings_, ratings_, lengths)
def test_win_probabilities_are_complementary(r1: float, r2: float, n: int) -> None:
    p = ratings.win_probability(r1, r2, n)
    assert 0 < p < 1
    assert p + ratings.win_probability(r2, r1, n) == pytest.approx(1)
    if r1 > r2:
        assert p >= 0.5


@given(st.floats(min_value=1, max_value=1000), lengths)
def test_longer_matches_favour_the_favourite(difference: float, n: int) -> None:
    assert ratings.upset_probability(difference, n + 1) < ratings.upset_probability(difference, n)
