"""The rules engine's exceptions: one tree under ``ValueError``, each with a stable ``code``.

Every rejection says what was wrong (``code`` and ``message``) and where it was
(``game``, ``move``, ``side``; ``None`` where it does not apply).

>>> err = IllegalMove("6/off is not legal: checkers remain outside home", game=2, move=14, side=0)
>>> err.code, err.game, err.move, err.side
('illegal-move', 2, 14, 0)
>>> err.as_dict()["message"]
'6/off is not legal: checkers remain outside home'
"""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Base of every rules violation and parse failure."""

    code = "rules-error"
    #: Raised again for a report sent again with its key (the edges say so).
    replayed = False

    def __init__(
        self,
        message: str,
        *,
        game: int | None = None,
        move: int | None = None,
        side: int | None = None,
        **data: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.game = game
        self.move = move
        self.side = side
        self.data = data

    def located(
        self, *, game: int | None = None, move: int | None = None, side: int | None = None
    ) -> RulesError:
        """Fill in the location fields that are still unknown; return ``self``."""
        if self.game is None:
            self.game = game
        if self.move is None:
            self.move = move
        if self.side is None:
            self.side = side
        return self

    def as_dict(self) -> dict[str, Any]:
        """The error as the API and ``checkmatch --json`` show it."""
        return {
            "code": self.code,
            "message": self.message,
            "game": self.game,
            "move": self.move,
            "side": self.side,
        }

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.message!r}, game={self.game!r}, "
            f"move={self.move!r}, side={self.side!r})"
        )


class ParseError(RulesError):
    """Text that is not a well-formed play, position id or match file."""

    code = "parse-error"


class IllegalMove(RulesError):
    """A play that is not legal for its roll and position."""

    code = "illegal-move"


class BadDice(RulesError):
    """A roll that is not two dice from 1 to 6 (or an opening doublet)."""

    code = "bad-dice"


class IllegalCubeAction(RulesError):
    """A cube action that the cube's state does not allow."""

    code = "illegal-cube-action"


class DoubleNotOwner(IllegalCubeAction):
    """A redouble by the player who does not own the cube."""

    code = "double-not-owner"


class DoubleInCrawford(IllegalCubeAction):
    """A double offered in the Crawford game."""

    code = "double-in-crawford"


class HollandViolation(IllegalCubeAction):
    """A post-Crawford double offered before the Holland rule allows it."""

    code = "holland"


class MoneyOptionInMatch(IllegalCubeAction):
    """A beaver, raccoon or automatic double in match play (or without the option)."""

    code = "option-not-allowed"


class BadCubeValue(RulesError):
    """A cube value that is not a power of two, or not 1 in the Crawford game."""

    code = "bad-cube-value"


class PointsMismatch(RulesError):
    """Points that do not equal the cube times 1, 2 or 3 as the result says."""

    code = "points-mismatch"


class ResultMismatch(RulesError):
    """A result kind (single, gammon, backgammon) that the final position contradicts."""

    code = "result-mismatch"


class ScoreMismatch(RulesError):
    """A score that is not the previous score plus the points won."""

    code = "score-mismatch"


class GameAfterMatchEnd(RulesError):
    """A game reported after the match was already won."""

    code = "game-after-match-end"


class GameNotFinished(RulesError):
    """A game record that stops without a bear-off, a drop or a resignation."""

    code = "game-not-finished"


class OutOfTurn(RulesError):
    """An action by the player whose turn it is not."""

    code = "out-of-turn"


class Truncated(ParseError):
    """A file that ends inside a game: the move list is cut off before the game's result.

    >>> Truncated("the file ends inside game 3", game=3, move=17).code
    'truncated'
    """

    code = "truncated"
