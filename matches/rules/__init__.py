"""The rules engine: positions, dice, plays, cube and match rules. No Django here."""

from .dice import Roll, check_roll, dice_to_play, parse_roll
from .generation import can_move, legal_plays
from .matchid import GameState, MatchId
from .notation import Move, Play
from .play_check import check_play
from .position import Position

__all__ = [
    "GameState",
    "MatchId",
    "Move",
    "Play",
    "Position",
    "Roll",
    "can_move",
    "check_play",
    "check_roll",
    "dice_to_play",
    "legal_plays",
    "parse_roll",
]
