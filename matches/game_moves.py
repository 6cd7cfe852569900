"""The move record stored in ``Game.moves``: encoding a game's actions as JSON, and back.

A stored record is a list of actions in playing order, each a JSON object with the
acting ``side`` (the match's sides, 1 and 2), its ``kind`` and the file's ``move``
number, plus the kind's own fields::

    {"side": 1, "kind": "roll", "move": 1, "dice": [3, 1], "play": "8/5 6/5"}
    {"side": 2, "kind": "double", "move": 2, "value": 2}          # value may be null
    {"side": 1, "kind": "take", "move": 2}                        # or drop, beaver, raccoon
    {"side": 1, "kind": "win", "move": 9, "points": 2}

The record does not keep a beaver's or raccoon's written value, nor whether a game
was resigned: the engine works both out again when it replays the game.

>>> from matches.rules.record import Drop, RollPlay, Win
>>> stored = encode_moves((RollPlay(0, (3, 1), "8/5 6/5", move=1), Drop(1, move=1)))
>>> stored[1]
{'side': 2, 'kind': 'drop', 'move': 1}
>>> decode_moves(stored)
(RollPlay(side=0, dice=(3, 1), play='8/5 6/5', move=1), Drop(side=1, move=1))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from matches.rules.record import (
    Action,
    Beaver,
    Double,
    Drop,
    GameRecord,
    MatchRecord,
    Raccoon,
    RollPlay,
    Take,
    Unreadable,
    Win,
)

_ANSWERS: dict[type, str] = {Take: "take", Drop: "drop", Beaver: "beaver", Raccoon: "raccoon"}


def encode_moves(actions: Iterable[Action], *, swapped: bool = False) -> list[dict[str, Any]]:
    """A game's actions as ``Game.moves`` JSON; ``swapped``: the file's side 0 is the match's 2.

    >>> encode_moves([Win(0, 1, move=3)], swapped=True)
    [{'side': 2, 'kind': 'win', 'move': 3, 'points': 1}]
    """
    moves: list[dict[str, Any]] = []
    for action in actions:
        if isinstance(action, Unreadable):
            raise ValueError(f"an unreadable action cannot be stored: {action.error}")
        entry: dict[str, Any] = {"side": (1 - action.side if swapped else action.side) + 1}
        if isinstance(action, RollPlay):
            entry.update(kind="roll", move=action.move, dice=list(action.dice), play=action.play)
        elif isinstance(action, Double):
            entry.update(kind="double", move=action.move, value=action.value)
        elif isinstance(action, Win):
            entry.update(kind="win", move=action.move, points=action.points)
        else:
            entry.update(kind=_ANSWERS[type(action)], move=action.move)
        moves.append(entry)
    return moves


def _action(entry: dict[str, Any]) -> Action | None:
    """One stored action; ``None`` for a kind this record does not know."""
    side = int(entry["side"]) - 1
    if side not in (0, 1):
        raise ValueError(f"side {entry['side']!r} is not 1 or 2")
    move = entry.get("move")
    move = move if isinstance(move, int) else None
    kind = entry.get("kind")
    if kind == "roll":
        dice = (int(entry["dice"][0]), int(entry["dice"][1]))
        return RollPlay(side, dice, entry.get("play") or "", move=move)
    if kind == "double":
        return Double(side, entry.get("value"), move=move)
    if kind == "beaver":
        return Beaver(side, move=move)
    if kind == "raccoon":
        return Raccoon(side, move=move)
    if kind == "take":
        return Take(side, move=move)
    if kind == "drop":
        return Drop(side, move=move)
    if kind == "win":
        return Win(side, int(entry["points"]), move=move)
    return None


def decode_moves(moves: object) -> tuple[Action, ...]:
    """A stored ``Game.moves`` record as the engine's actions (sides 0 and 1).

    Entries of an unknown kind are skipped; anything else malformed raises ``ValueError``.

    >>> decode_moves([{"side": 3, "kind": "take"}])
    Traceback (most recent call last):
    ...
    ValueError: move record entry 0: side 3 is not 1 or 2
    """
    if not isinstance(moves, list):
        raise ValueError(f"a move record is a list, not {type(moves).__name__}")
    actions: list[Action] = []
    for i, entry in enumerate(moves):
        try:
            action = _action(entry)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"move record entry {i}: {exc}") from exc
        if action is not None:
            actions.append(action)
    return tuple(actions)


class StoredGame(Protocol):
    """What :func:`record_from_games` reads of a game (``matches.models.Game`` has it)."""

    number: int
    score_before1: int
    score_before2: int
    moves: Any


def record_from_games(
    length: int, players: tuple[str, str], games: Sequence[StoredGame]
) -> MatchRecord | None:
    """The match as a record built from its games' stored moves; ``None`` if one has none.

    A record that cannot be read counts as none.
    """
    records = []
    for game in games:
        if not game.moves:
            return None
        try:
            actions = decode_moves(game.moves)
        except ValueError:
            return None
        score = (game.score_before1, game.score_before2)
        records.append(GameRecord(game.number, score, actions, players))
    return MatchRecord(length, players, tuple(records)) if records else None
