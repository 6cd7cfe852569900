"""What a finished game is worth: single, gammon or backgammon, times the cube.

>>> from matches.rules.position import Position
>>> loser = (0,) * 5 + (14,) + (0,) * 12 + (1,) + (0,) * 6   # none off, one in winner's home
>>> final = Position(((0,) * 25, loser))
>>> result_kind(final, 0)
<Result.BACKGAMMON: 'backgammon'>
>>> game_points(2, Result.BACKGAMMON)
6
"""

from __future__ import annotations

from enum import StrEnum

from .errors import BadCubeValue, ParseError, PointsMismatch
from .position import BAR, CHECKERS, Position


class Result(StrEnum):
    """The kind of win; its ``multiplier`` is 1, 2 or 3.

    >>> [(str(r), r.multiplier) for r in Result]
    [('single', 1), ('gammon', 2), ('backgammon', 3)]
    """

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        """1 for a single game, 2 for a gammon, 3 for a backgammon.

        >>> Result.GAMMON.multiplier
        2
        """
        return _MULTIPLIERS[self]

    @classmethod
    def from_multiplier(cls, n: int) -> Result:
        """The result worth ``n`` times the cube.

        >>> Result.from_multiplier(3)
        <Result.BACKGAMMON: 'backgammon'>
        """
        for result, m in _MULTIPLIERS.items():
            if m == n:
                return result
        raise ValueError(f"no result is worth {n} times the cube")

    @classmethod
    def parse(cls, text: str) -> Result:
        """Read ``single``, ``gammon`` or ``backgammon``.

        >>> Result.parse("Gammon")
        <Result.GAMMON: 'gammon'>
        >>> Result.parse("double")
        Traceback (most recent call last):
        ...
        matches.rules.errors.ParseError: 'double' is not a result: expected single, gammon or backgammon
        """
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise ParseError(
                f"{text!r} is not a result: expected single, gammon or backgammon"
            ) from None


_MULTIPLIERS = {Result.SINGLE: 1, Result.GAMMON: 2, Result.BACKGAMMON: 3}


class EndedBy(StrEnum):
    """How a game ended: the last checker borne off, a refused double, a resignation.

    >>> [str(e) for e in EndedBy]
    ['play', 'drop', 'resign']
    """

    PLAY = "play"
    DROP = "drop"
    RESIGN = "resign"

    @classmethod
    def parse(cls, text: str) -> EndedBy:
        """Read ``play``, ``drop`` or ``resign``.

        >>> EndedBy.parse("drop")
        <EndedBy.DROP: 'drop'>
        """
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise ParseError(
                f"{text!r} is not how a game ends: expected play, drop or resign"
            ) from None


def is_finished(pos: Position) -> int | None:
    """The side that has borne off all 15 checkers, or ``None``.

    >>> is_finished(Position.start()) is None
    True
    """
    for side in (0, 1):
        if pos.off(side) == CHECKERS:
            return side
    return None


def result_kind(pos: Position, winner: int) -> Result:
    """The kind of win the final position gives ``winner`` (match-rules §2).

    The loser with a checker off loses a single game; with none off, a gammon; with
    none off and a checker on the bar or in the winner's home board, a backgammon.

    >>> result_kind(Position.start(), 1)
    <Result.BACKGAMMON: 'backgammon'>
    """
    loser = 1 - winner
    if pos.off(loser) > 0:
        return Result.SINGLE
    board = pos.boards[loser]
    # The winner's home board is the loser's points 19..24 (indices 18..23).
    if board[BAR] or any(board[18:24]):
        return Result.BACKGAMMON
    return Result.GAMMON


def check_cube_value(cube: int) -> None:
    """Raise :class:`BadCubeValue` unless ``cube`` is 1, 2, 4, 8, ...

    >>> check_cube_value(6)
    Traceback (most recent call last):
    ...
    matches.rules.errors.BadCubeValue: cube value 6 is not a power of two
    """
    if type(cube) is not int or cube < 1 or cube & (cube - 1):
        raise BadCubeValue(f"cube value {cube} is not a power of two")


def game_points(cube: int, result: Result, *, jacoby: bool = False) -> int:
    """Points for a game played out or resigned: the cube times 1, 2 or 3.

    With ``jacoby`` (the Jacoby rule applies: money play, cube never turned) gammons
    and backgammons count as single games.

    >>> game_points(4, Result.GAMMON), game_points(1, Result.GAMMON, jacoby=True)
    (8, 1)
    """
    check_cube_value(cube)
    return cube if jacoby else cube * result.multiplier


def drop_points(cube: int) -> int:
    """Points for a refused double: the cube value before the refused double.

    >>> drop_points(2)
    2
    """
    check_cube_value(cube)
    return cube


def resignation_points(cube: int, result: Result) -> int:
    """Points for an accepted resignation of a single, gammon or backgammon.

    >>> resignation_points(2, Result.SINGLE)
    2
    """
    return game_points(cube, result)


def result_for_points(cube: int, points: int) -> Result:
    """The result a resignation worth ``points`` with ``cube`` stands for.

    >>> result_for_points(2, 4)
    <Result.GAMMON: 'gammon'>
    >>> result_for_points(2, 5)
    Traceback (most recent call last):
    ...
    matches.rules.errors.PointsMismatch: 5 points is not the cube (2) times 1, 2 or 3
    """
    check_cube_value(cube)
    if points > 0 and points % cube == 0 and points // cube in (1, 2, 3):
        return Result.from_multiplier(points // cube)
    raise PointsMismatch(f"{points} points is not the cube ({cube}) times 1, 2 or 3")
