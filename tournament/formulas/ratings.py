"""FIBS ratings: the formula alone, pure Python (no Django).

For a match of length ``n`` between players rated ``a`` and ``b``, with ``D = |a - b|``:

* the underdog's chance of winning is ``P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)``;
* the winner gains ``4 * K * sqrt(n) * P`` and the loser loses ``4 * K * sqrt(n) * P``,
  where ``P`` is the chance the loser had of winning (``P_upset`` when the favourite
  wins, ``1 - P_upset`` when the underdog does) and ``K`` is each player's own
  experience factor ``max(1, 5 - experience / 100)``;
* experience is the sum of the lengths of the rated matches a player has played;
  everybody starts at 1500 with no experience.

Both changes are ``4 * K * sqrt(n) * (S - E)`` with ``S`` the result (1 won, 0 lost)
and ``E`` the player's own expected chance, which is how :func:`rating_change` computes
them. Newcomers move up to five times faster than players with 400 points of experience.

>>> round(win_probability(1500, 1500, 7), 4)
0.5
>>> round(upset_probability(200, 11), 4)
0.3178

The example FIBS gives: 1600 beats 1500 in a 5-point match, both experienced:

>>> a, b = rate(1600.0, 1500.0, 5, winner=1, experience1=1000, experience2=1000)
>>> round(a.change, 2), round(b.change, 2)
(3.9, -3.9)
>>> round(a.rating_after, 4), a.experience_after
(1603.8996, 1005)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
"""Every player's rating before their first rated match."""

FULL_EXPERIENCE = 400
"""Experience from which a player's changes are no longer boosted (K reaches 1)."""


def upset_probability(difference: float, length: int) -> float:
    """The underdog's chance to win a ``length``-point match, ``difference`` points below.

    >>> upset_probability(0, 1)
    0.5
    >>> round(upset_probability(400, 9), 4)
    0.2008
    >>> upset_probability(-1, 1)
    Traceback (most recent call last):
    ...
    ValueError: the rating difference is never negative (got -1)
    """
    if difference < 0:
        raise ValueError(f"the rating difference is never negative (got {difference})")
    _check_length(length)
    return 1.0 / (math.pow(10.0, difference * math.sqrt(length) / 2000.0) + 1.0)


def win_probability(rating: float, opponent: float, length: int) -> float:
    """The chance that a player rated ``rating`` beats ``opponent`` over ``length`` points.

    >>> round(win_probability(1700, 1500, 11), 4)
    0.6822
    >>> round(win_probability(1500, 1700, 11), 4)
    0.3178
    """
    upset = upset_probability(abs(rating - opponent), length)
    return upset if rating < opponent else 1.0 - upset


def experience_factor(experience: int) -> float:
    """K: ``max(1, 5 - experience / 100)``; 5 for a newcomer, 1 from 400 points on.

    >>> experience_factor(0), experience_factor(150), experience_factor(400), experience_factor(9000)
    (5.0, 3.5, 1.0, 1.0)
    """
    if experience < 0:
        raise ValueError(f"experience is never negative (got {experience})")
    return max(1.0, 5.0 - experience / 100.0)


def rating_change(
    rating: float, opponent: float, length: int, *, won: bool, experience: int
) -> float:
    """The change of one player's rating after a ``length``-point match (signed).

    >>> round(rating_change(1500, 1500, 1, won=True, experience=0), 3)
    10.0
    >>> round(rating_change(1500, 1500, 1, won=False, experience=400), 3)
    -2.0
    """
    expected = win_probability(rating, opponent, length)
    score = 1.0 if won else 0.0
    return 4.0 * experience_factor(experience) * math.sqrt(length) * (score - expected)


@dataclass(frozen=True)
class Rated:
    """One player's side of a rated match."""

    rating_before: float
    rating_after: float
    experience_before: int
    experience_after: int

    @property
    def change(self) -> float:
        """The signed change of rating."""
        return self.rating_after - self.rating_before


def rate(
    rating1: float,
    rating2: float,
    length: int,
    *,
    winner: int,
    experience1: int,
    experience2: int,
) -> tuple[Rated, Rated]:
    """Both players' new ratings and experience after a match that ``winner`` (1 or 2) won.

    The winner's gain and the loser's loss differ only by their experience factors:

    >>> new, old = rate(1500.0, 1500.0, 7, winner=2, experience1=0, experience2=500)
    >>> round(new.change, 3), round(old.change, 3)
    (-26.458, 5.292)
    >>> rate(1500.0, 1500.0, 7, winner=3, experience1=0, experience2=0)
    Traceback (most recent call last):
    ...
    ValueError: the winner is 1 or 2 (got 3)
    """
    if winner not in (1, 2):
        raise ValueError(f"the winner is 1 or 2 (got {winner})")
    change1 = rating_change(rating1, rating2, length, won=winner == 1, experience=experience1)
    change2 = rating_change(rating2, rating1, length, won=winner == 2, experience=experience2)
    return (
        Rated(rating1, rating1 + change1, experience1, experience1 + length),
        Rated(rating2, rating2 + change2, experience2, experience2 + length),
    )


def _check_length(length: int) -> None:
    if length < 1:
        raise ValueError(f"a rated match is at least 1 point long (got {length})")
