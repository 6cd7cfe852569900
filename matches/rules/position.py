"""Board positions: 15 checkers a side, points, bar and borne-off trays.

Each side counts points from its own home board, as GNU Backgammon's ``anBoard``
does: ``boards[side][i]`` holds that side's checkers on its point ``i + 1``
(``i`` = 0..23) and ``boards[side][24]`` its checkers on the bar. A side's point
``p`` is the opponent's point ``25 - p``. Checkers not on the board are borne off.

>>> pos = Position.start()
>>> pos.position_id()
'4HPwATDgc/ABMA'
>>> pos.pip_count(0), pos.off(1)
(167, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import IllegalMove, ParseError

if TYPE_CHECKING:
    from .notation import Play

Board = tuple[int, ...]

CHECKERS = 15
BAR = 24
"""Index of the bar in a side's board tuple (its point 25)."""

_START: Board = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64_VALUE = {ch: i for i, ch in enumerate(_BASE64)}


def _check_boards(boards: object) -> None:
    if not isinstance(boards, tuple) or len(boards) != 2:
        raise ParseError("a position needs two boards, one per side")
    for side, board in enumerate(boards):
        if not isinstance(board, tuple) or len(board) != 25:
            raise ParseError(f"side {side}'s board must be a tuple of 25 counts (24 points, bar)")
        for n in board:
            if type(n) is not int or n < 0:
                raise ParseError(f"side {side} has a bad checker count {n!r}")
        if sum(board) > CHECKERS:
            raise ParseError(f"side {side} has {sum(board)} checkers on the board: at most 15")
    mine, theirs = boards
    for i in range(24):
        if mine[i] and theirs[23 - i]:
            raise ParseError(f"both sides hold side 0's point {i + 1} (side 1's point {24 - i})")


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable, hashable, validated board position (no turn, cube or dice).

    >>> Position(((0,) * 25, (0,) * 24 + (16,)))
    Traceback (most recent call last):
    ...
    matches.rules.errors.ParseError: side 1 has 16 checkers on the board: at most 15
    """

    boards: tuple[Board, Board]

    def __post_init__(self) -> None:
        _check_boards(self.boards)

    @classmethod
    def _trusted(cls, mine: Board, theirs: Board, side: int) -> Position:
        """Build without validation; for boards the engine itself derived."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "boards", (mine, theirs) if side == 0 else (theirs, mine))
        return pos

    @classmethod
    def start(cls) -> Position:
        """The starting position: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6.

        >>> Position.start().boards[0][5]
        5
        """
        return cls((_START, _START))

    def off(self, side: int) -> int:
        """How many of ``side``'s checkers have been borne off.

        >>> Position.start().off(0)
        0
        """
        return CHECKERS - sum(self.boards[side])

    def bar(self, side: int) -> int:
        """How many of ``side``'s checkers are on the bar.

        >>> Position.start().bar(1)
        0
        """
        return self.boards[side][BAR]

    def pip_count(self, side: int) -> int:
        """Total pips ``side`` needs to bear off everything (the bar counts 25).

        >>> Position.start().pip_count(1)
        167
        """
        board = self.boards[side]
        return sum((i + 1) * n for i, n in enumerate(board))

    def all_home(self, side: int) -> bool:
        """Whether every checker of ``side`` still on the board is in its home board.

        >>> Position.start().all_home(0)
        False
        """
        return not any(self.boards[side][6:])

    def apply(self, side: int, play: Play) -> Position:
        """The position after ``side`` makes ``play``, which is trusted to be legal.

        Use :func:`~matches.rules.play_check.check_play` for plays not yet checked. Hits
        follow from the position: landing on a lone opposing checker sends it to the
        opponent's bar (the moves' ``hit`` marks are not consulted). A combined move
        such as ``24/16`` is moved as written, so a hit on the way must be written
        as its own step (``24/21*/16``). A play that would leave an impossible
        position (a checker that is not there) raises :class:`IllegalMove`.

        >>> from matches.rules.notation import Play
        >>> after = Position.start().apply(0, Play.parse("13/11 6/5"))
        >>> after.boards[0][:13]
        (0, 0, 0, 0, 1, 4, 0, 3, 0, 0, 1, 0, 4)
        >>> Position.start().apply(0, Play.parse("12/10"))
        Traceback (most recent call last):
        ...
        matches.rules.errors.IllegalMove: 12/10 cannot be played: side 0 has a bad checker count -1
        """
        mine = list(self.boards[side])
        theirs = list(self.boards[1 - side])
        for move in play.moves:
            src = move.src
            dst = move.dst
            mine[src - 1] -= 1
            if dst > 0:
                mine[dst - 1] += 1
                if theirs[24 - dst] == 1:
                    theirs[24 - dst] = 0
                    theirs[BAR] += 1
        boards = (tuple(mine), tuple(theirs)) if side == 0 else (tuple(theirs), tuple(mine))
        try:
            return Position(boards)
        except ParseError as exc:
            raise IllegalMove(f"{play} cannot be played: {exc.message}", side=side) from None

    # -- GNU Backgammon Position ID -------------------------------------------------

    def position_id(self, side_on_roll: int = 0) -> str:
        """GNU Backgammon's 14-character Position ID with ``side_on_roll`` to move.

        The key lists the opponent's board first, then the board of the side on
        roll; each point (then the bar) is that many 1-bits followed by a 0-bit.

        >>> Position.start().position_id(1)
        '4HPwATDgc/ABMA'
        """
        key = 0
        bit = 0
        for board in (self.boards[1 - side_on_roll], self.boards[side_on_roll]):
            for n in board:
                if n:
                    key |= ((1 << n) - 1) << bit
                bit += n + 1
        data = key.to_bytes(10, "little")
        chars: list[str] = []
        for i in range(0, 9, 3):
            chunk = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2]
            chars.extend(_BASE64[(chunk >> shift) & 63] for shift in (18, 12, 6, 0))
        chars.append(_BASE64[data[9] >> 2])
        chars.append(_BASE64[(data[9] & 3) << 4])
        return "".join(chars)

    @classmethod
    def from_position_id(cls, position_id: str, side_on_roll: int = 0) -> Position:
        """Read a GNU Backgammon Position ID; its second board is ``side_on_roll``'s.

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.start()
        True
        >>> Position.from_position_id("4HPwATDgc/AB")
        Traceback (most recent call last):
        ...
        matches.rules.errors.ParseError: '4HPwATDgc/AB' is not a Position ID: expected 14 characters
        """
        text = position_id.strip()
        if len(text) != 14:
            raise ParseError(f"{position_id!r} is not a Position ID: expected 14 characters")
        try:
            values = [_BASE64_VALUE[ch] for ch in text]
        except KeyError as exc:
            raise ParseError(
                f"{position_id!r} is not a Position ID: {exc.args[0]!r} is not base64"
            ) from None
        data = bytearray()
        for i in range(0, 12, 4):
            chunk = (values[i] << 18) | (values[i + 1] << 12) | (values[i + 2] << 6) | values[i + 3]
            data += chunk.to_bytes(3, "big")
        data.append(((values[12] << 2) | (values[13] >> 4)) & 0xFF)
        key = int.from_bytes(data, "little")
        counts: list[int] = []
        bit = 0
        for _ in range(50):
            n = 0
            while bit < 80 and (key >> bit) & 1:
                n += 1
                bit += 1
            bit += 1
            counts.append(n)
        them: Board = tuple(counts[:25])
        us: Board = tuple(counts[25:])
        if sum(them) > CHECKERS or sum(us) > CHECKERS:
            raise ParseError(f"{position_id!r} is not a Position ID: more than 15 checkers a side")
        if all(them[i] >= 2 and us[i] >= 2 for i in range(6)) and them[BAR] and us[BAR]:
            raise ParseError(
                f"{position_id!r} is not a Position ID: both sides on the bar against closed boards"
            )
        boards = (us, them) if side_on_roll == 0 else (them, us)
        try:
            return cls(boards)
        except ParseError as exc:
            raise ParseError(f"{position_id!r} is not a Position ID: {exc.message}") from None

    # -- display --------------------------------------------------------------------

    def diagram(self, side_on_roll: int = 0) -> str:
        """A text board like GNU Backgammon's, from the view of ``side_on_roll`` (X).

        >>> print(Position.start().diagram())
         Position ID: 4HPwATDgc/ABMA
         +13-14-15-16-17-18------19-20-21-22-23-24-+  O: side 1, bar 0, off 0, pips 167
         | X           O    |   | O              X |
         | X           O    |   | O              X |
         | X           O    |   | O                |
         | X                |   | O                |
         | X                |   | O                |
         |                  |BAR|                  |
         | O                |   | X                |
         | O                |   | X                |
         | O           X    |   | X                |
         | O           X    |   | X              O |
         | O           X    |   | X              O |
         +12-11-10--9--8--7-------6--5--4--3--2--1-+  X: side 0, bar 0, off 0, pips 167 (on roll)
        """
        x_board = self.boards[side_on_roll]
        o_board = self.boards[1 - side_on_roll]

        def cell(point: int, row: int) -> str:
            x = x_board[point - 1]
            o = o_board[24 - point]
            n, mark = (x, "X") if x else (o, "O")
            if n <= row:
                return "   "
            if row == 4 and n > 5:
                return f"{n:>2} "
            return f" {mark} "

        def line(left: range, right: range, row: int) -> str:
            cells_l = "".join(cell(p, row) for p in left)
            cells_r = "".join(cell(p, row) for p in right)
            return f" |{cells_l}|   |{cells_r}|"

        def status(board: Board, mark: str, side: int) -> str:
            return (
                f"{mark}: side {side}, bar {board[BAR]}, off {CHECKERS - sum(board)}, "
                f"pips {sum((i + 1) * n for i, n in enumerate(board))}"
            )

        top_l, top_r = range(13, 19), range(19, 25)
        bottom_l, bottom_r = range(12, 6, -1), range(6, 0, -1)
        lines = [
            f" Position ID: {self.position_id(side_on_roll)}",
            " +13-14-15-16-17-18------19-20-21-22-23-24-+  "
            + status(o_board, "O", 1 - side_on_roll),
        ]
        lines += [line(top_l, top_r, row) for row in range(5)]
        lines.append(" |                  |BAR|                  |")
        lines += [line(bottom_l, bottom_r, row) for row in range(4, -1, -1)]
        lines.append(
            " +12-11-10--9--8--7-------6--5--4--3--2--1-+  "
            + status(x_board, "X", side_on_roll)
            + " (on roll)"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        """A call that rebuilds this position.

        >>> Position.start()
        Position.from_position_id('4HPwATDgc/ABMA')
        """
        return f"Position.from_position_id({self.position_id(0)!r})"
