"""Positions: validation, counts, applying plays, GNU Backgammon Position IDs, display."""

import pytest

from matches.rules import Play, Position
from matches.rules.errors import ParseError

EMPTY = (0,) * 25


def board(points: dict[int, int]) -> tuple[int, ...]:
    """A side's board from {own point: checkers}; point 25 is the bar."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return tuple(counts)


# Boards as GNU Backgammon 1.07's gnubg.board() shows them after `set board ID`:
# (side not on roll, side on roll).
GNUBG_BOARDS = {
    "sGfwGQDg28EBBg": (
        (0, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, 0, 5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 5, 2, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0),
    ),
    "0HPhATDg2+ABMA": (
        (0, 0, 0, 0, 1, 4, 0, 3, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0),
        (0, 0, 0, 0, 0, 5, 2, 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0),
    ),
    "LfIRTCBS5wPAQQ": (
        (1, 2, 1, 0, 0, 1, 0, 5, 0, 0, 1, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 1, 0),
        (0, 1, 0, 1, 1, 3, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1),
    ),
    "vsgAaCYmegtAYQ": (
        (0, 5, 1, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 2, 0, 1, 0),
        (0, 2, 0, 1, 0, 0, 1, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2),
    ),
}


def test_start_position() -> None:
    start = Position.start()
    for side in (0, 1):
        assert start.boards[side] == board({24: 2, 13: 5, 8: 3, 6: 5})
        assert start.pip_count(side) == 167
        assert start.off(side) == 0
        assert start.bar(side) == 0
        assert not start.all_home(side)
    assert start.position_id(0) == start.position_id(1) == "4HPwATDgc/ABMA"


def test_counts_on_a_bear_off_position() -> None:
    pos = Position((board({6: 2, 1: 3}), board({25: 1, 23: 1})))
    assert pos.off(0) == 10
    assert pos.pip_count(0) == 15
    assert pos.all_home(0)
    assert pos.bar(1) == 1
    assert pos.pip_count(1) == 48
    assert not pos.all_home(1)


@pytest.mark.parametrize(
    ("boards", "fragment"),
    [
        ((board({6: 16}), EMPTY), "16 checkers"),
        ((board({25: 10, 1: 6}), EMPTY), "16 checkers"),
        ((board({6: -1}), EMPTY), "bad checker count"),
        ((board({6: 2}), board({19: 1})), "both sides hold side 0's point 6"),
        ((board({24: 1}), board({1: 2})), "both sides hold side 0's point 24"),
        ((EMPTY,), "two boards"),
        ((EMPTY[:24], EMPTY), "25 counts"),
        (([0] * 25, EMPTY), "25 counts"),
    ],
)
def test_invalid_positions_are_rejected(boards: object, fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment):
        Position(boards)  # type: ignore[arg-type]


def test_bars_may_both_hold_checkers() -> None:
    Position((board({25: 3, 24: 2}), board({25: 2, 2: 1})))


def test_positions_are_hashable_and_immutable() -> None:
    a = Position.start()
    b = Position.from_position_id("4HPwATDgc/ABMA")
    assert a == b
    assert len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.boards = (EMPTY, EMPTY)  # type: ignore[misc]


def test_apply_moves_and_hits() -> None:
    # side 0 hits side 1's blot on side 0's 9 point (side 1's 16 point)
    pos = Position((board({13: 2, 6: 2}), board({16: 1, 6: 3})))
    after = pos.apply(0, Play.parse("13/9*"))
    assert after.boards[0] == board({13: 1, 9: 1, 6: 2})
    assert after.boards[1] == board({25: 1, 6: 3})
    # bearing off and entering from the bar
    home = Position((board({25: 1, 2: 1}), board({1: 1})))
    assert home.apply(0, Play.parse("bar/24*")).boards == (
        board({24: 1, 2: 1}),
        board({25: 1}),
    )
    done = Position((board({2: 1}), board({5: 1}))).apply(0, Play.parse("2/off"))
    assert done.off(0) == 15


def test_apply_for_side_one_uses_its_own_numbering() -> None:
    after = Position.start().apply(1, Play.parse("24/18 13/11"))
    assert after.boards[1] == board({24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5})
    assert after.boards[0] == Position.start().boards[0]


@pytest.mark.parametrize("position_id", sorted(GNUBG_BOARDS))
def test_position_id_reads_like_gnubg(position_id: str) -> None:
    not_on_roll, on_roll = GNUBG_BOARDS[position_id]
    assert Position.from_position_id(position_id, 1).boards == (not_on_roll, on_roll)
    assert Position.from_position_id(position_id, 0).boards == (on_roll, not_on_roll)
    pos = Position.from_position_id(position_id, 0)
    assert pos.position_id(0) == position_id
    assert Position.from_position_id(position_id, 1).position_id(1) == position_id


def test_position_id_depends_on_who_is_on_roll() -> None:
    pos = Position.from_position_id("sGfwGQDg28EBBg", 0)
    assert pos.position_id(1) != "sGfwGQDg28EBBg"
    assert Position.from_position_id(pos.position_id(1), 1) == pos


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("4HPwATDgc/AB!A", "'!' is not base64"),
        ("//////////////", "more than 15"),
    ],
)
def test_bad_position_ids(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment):
        Position.from_position_id(text)


def test_position_id_of_both_sides_on_one_point_is_rejected() -> None:
    # build the bit string by hand: side 1 (first half) one checker on its point 1,
    # side 0 one checker on its point 24 -- the same point.
    bits = "10" + "0" * 24 + "0" * 23 + "10"
    key = int(bits[::-1], 2).to_bytes(10, "little")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    chunks = [int.from_bytes(key[i : i + 3], "big") for i in range(0, 9, 3)]
    text = "".join(alphabet[(c >> s) & 63] for c in chunks for s in (18, 12, 6, 0))
    text += alphabet[key[9] >> 2] + alphabet[(key[9] & 3) << 4]
    with pytest.raises(ParseError, match="both sides hold"):
        Position.from_position_id(text)


def test_closed_boards_with_both_sides_on_the_bar_are_rejected_like_gnubg() -> None:
    closed = board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 25: 1})
    # valid as boards (the points do not clash), but gnubg refuses such an id
    pid = Position((closed, closed)).position_id(0)
    with pytest.raises(ParseError, match="closed boards"):
        Position.from_position_id(pid)


def test_repr_rebuilds_the_position() -> None:
    pos = Position.from_position_id("LfIRTCBS5wPAQQ", 1)
    assert repr(pos) == f"Position.from_position_id({pos.position_id(0)!r})"
    assert eval(repr(pos), {"Position": Position}) == pos


DIAGRAM = """\
 Position ID: ABDAYPgDACAAAA
 +13-14-15-16-17-18------19-20-21-22-23-24-+  O: side 1, bar 0, off 12, pips 57
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |BAR|                  |
 |                  |   | 7                |
 |                  |   | X                |
 |                  |   | X                |
 |                  |   | X        O  X    |
 | O                |   | X        O  X    |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+  X: side 0, bar 1, off 5, pips 71 (on roll)"""


def test_diagram_shows_both_sides_from_the_player_on_roll() -> None:
    pos = Position((board({25: 1, 6: 7, 2: 2}), board({22: 2, 13: 1})))
    assert pos.diagram(0) == DIAGRAM
    flipped = pos.diagram(1).splitlines()
    assert flipped[0] == f" Position ID: {pos.position_id(1)}"
    assert flipped[-1].endswith("X: side 1, bar 0, off 12, pips 57 (on roll)")
    assert flipped[2] == " | X                |   | O        X  O    |"
