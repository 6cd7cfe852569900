"""Checker plays: notation, legal-play generation and checking a written play.

The code lives in one module per concern, re-exported here:
:mod:`~matches.rules.notation` (:class:`Move`, :class:`Play`),
:mod:`~matches.rules.steps` (single-checker steps on a board),
:mod:`~matches.rules.generation` (:func:`legal_plays`, :func:`can_move`) and
:mod:`~matches.rules.play_check` (:func:`check_play`).

>>> from matches.rules.position import Position
>>> start = Position.start()
>>> len(legal_plays(start, 0, (2, 1)))
15
>>> check_play(start, 0, (6, 4), Play.parse("24/14")).boards[0][13]
1
"""

from __future__ import annotations

from .generation import can_move, legal_plays
from .notation import BAR_POINT, OFF, Move, Play
from .play_check import check_play

__all__ = ["BAR_POINT", "OFF", "Move", "Play", "can_move", "check_play", "legal_plays"]
