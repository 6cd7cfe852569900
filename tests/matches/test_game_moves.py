"""The ``Game.moves`` record: a game's actions to stored JSON and back give the same game."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.game_moves import decode_moves, encode_moves, record_from_games
from matches.rules.errors import ParseError
from matches.rules.matfile import read_mat, write_mat
from matches.rules.record import (
    Action,
    Beaver,
    Double,
    Drop,
    Raccoon,
    RollPlay,
    Take,
    Unreadable,
    Win,
)

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"
MAT_FILES = sorted(CORPUS.glob("*.mat"))


@dataclass
class StoredGame:
    """The columns of a ``Game`` row that the decoder reads."""

    number: int
    score_before1: int
    score_before2: int
    moves: Any


def stored(actions: tuple[Action, ...], swapped: bool = False) -> Any:
    """The actions as a JSON column gives them back: through ``json`` text."""
    return json.loads(json.dumps(encode_moves(actions, swapped=swapped)))


def kept(action: Action, swapped: bool = False) -> Action:
    """What the record keeps of ``action``: not a beaver's value, nor resigned."""
    if swapped:
        action = replace(action, side=1 - action.side)  # type: ignore[union-attr]
    if isinstance(action, (Beaver, Raccoon)):
        return replace(action, value=None)
    if isinstance(action, Win):
        return replace(action, resigned=None)
    return action


sides = st.sampled_from([0, 1])
moves = st.none() | st.integers(1, 999)
stakes = st.none() | st.sampled_from([2, 4, 8, 16, 64])
any_action = st.one_of(
    st.builds(
        RollPlay,
        sides,
        st.tuples(st.integers(1, 6), st.integers(1, 6)),
        st.sampled_from(["", "8/5 6/5", "bar/22 6/off", "24/18(2) 13/7*(2)"]) | st.text(),
        moves,
    ),
    st.builds(Double, sides, stakes, moves),
    st.builds(Beaver, sides, stakes, moves),
    st.builds(Raccoon, sides, stakes, moves),
    st.builds(Take, sides, moves),
    st.builds(Drop, sides, moves),
    st.builds(Win, sides, st.integers(1, 192), moves, st.none() | st.booleans()),
)


@given(actions=st.lists(any_action, max_size=30).map(tuple), swapped=st.booleans())
def test_any_actions_come_back_from_the_stored_json(
    actions: tuple[Action, ...], swapped: bool
) -> None:
    assert decode_moves(stored(actions, swapped)) == tuple(kept(a, swapped) for a in actions)


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: p.stem)
def test_gnubg_matches_come_back_from_their_stored_moves(path: Path) -> None:
    record = read_mat(path.read_bytes())
    rows = []
    for game in record.games:
        assert game.score is not None
        rows.append(StoredGame(game.number, *game.score, stored(game.actions)))

    back = record_from_games(record.length, record.players, rows)

    assert back is not None
    assert (back.length, back.players) == (record.length, record.players)
    assert back.games == tuple(
        replace(g, actions=tuple(kept(a) for a in g.actions)) for g in record.games
    )
    assert write_mat(back) == write_mat(replace(record, info=()))


def test_the_stored_format_is_the_one_rows_already_hold() -> None:
    game = (
        RollPlay(0, (3, 1), "8/5 6/5", move=1),
        RollPlay(1, (6, 6), "", move=1),
        Double(0, 2, move=2),
        Beaver(1, 4, move=2),
        Raccoon(0, 8, move=3),
        Take(1, move=3),
        Drop(0, move=4),
        Win(1, 8, move=4),
    )
    rows = [
        {"side": 1, "kind": "roll", "move": 1, "dice": [3, 1], "play": "8/5 6/5"},
        {"side": 2, "kind": "roll", "move": 1, "dice": [6, 6], "play": ""},
        {"side": 1, "kind": "double", "move": 2, "value": 2},
        {"side": 2, "kind": "beaver", "move": 2},
        {"side": 1, "kind": "raccoon", "move": 3},
        {"side": 2, "kind": "take", "move": 3},
        {"side": 1, "kind": "drop", "move": 4},
        {"side": 2, "kind": "win", "move": 4, "points": 8},
    ]
    assert encode_moves(game) == rows
    assert encode_moves(game, swapped=True) == [{**row, "side": 3 - row["side"]} for row in rows]
    assert decode_moves(rows) == tuple(kept(a) for a in game)


@pytest.mark.parametrize(
    "moves",
    [
        None,
        [],
        "21: 13/11 6/5",
        {"actions": []},
        [{"kind": "roll", "dice": [2, 1]}],
        [{"side": 1, "kind": "roll", "dice": [2]}],
        [{"side": 0, "kind": "take"}],
        [{"side": 1, "kind": "win", "points": "two"}],
    ],
)
def test_a_game_without_a_readable_record_gives_no_match_record(moves: object) -> None:
    ok = StoredGame(1, 0, 0, [{"side": 1, "kind": "win", "points": 1}])
    assert record_from_games(1, ("A", "B"), [ok]) is not None
    assert record_from_games(1, ("A", "B"), [ok, StoredGame(2, 0, 1, moves)]) is None


def test_entries_of_an_unknown_kind_are_skipped() -> None:
    rows = [{"side": 1, "type": "roll", "dice": [3, 1]}, {"side": 2, "kind": "drop", "move": 1}]
    assert decode_moves(rows) == (Drop(1, move=1),)


def test_a_game_the_engine_could_not_read_is_never_stored() -> None:
    with pytest.raises(ValueError, match="unreadable"):
        encode_moves((Unreadable(ParseError("line 9: cannot read 'x'")),))


def test_a_record_of_no_games_is_none() -> None:
    assert record_from_games(3, ("A", "B"), []) is None
