"""Single-checker steps on a board: the primitives move generation and checking share.

A step moves one checker by one die. ``s`` is a board index (0..23 for points 1..24,
24 for the bar); the checker lands on index ``s - d`` or, below 0, is borne off.
``mine`` and ``theirs`` are mutable lists of 25 counts; the opponent's index for
the mover's index ``t`` is ``23 - t``.
"""

from __future__ import annotations

from .notation import BAR_POINT, Move, Play, point_name
from .position import BAR, Board


def step_error(mine: list[int], theirs: list[int], s: int, d: int) -> str | None:
    """Why a single step of die ``d`` from index ``s`` is illegal, or ``None`` if legal."""
    if mine[s] == 0:
        return f"no checker on {point_name(s + 1)}"
    if s != BAR and mine[BAR]:
        return "must enter from the bar first"
    t = s - d
    if t >= 0:
        if theirs[23 - t] >= 2:
            return f"point {t + 1} is blocked"
        return None
    if any(mine[6:]):
        return "cannot bear off while checkers are outside the home board"
    if t < -1:
        for higher in range(5, s, -1):
            if mine[higher]:
                return f"bearing off from {s + 1} with a {d} while a checker is on {higher + 1}"
    return None


def can_step(mine: list[int], theirs: list[int], s: int, d: int) -> bool:
    if s != BAR and mine[BAR]:
        return False
    t = s - d
    if t >= 0:
        return theirs[23 - t] < 2
    if any(mine[6:]):
        return False
    if t < -1:
        for higher in range(s + 1, 6):
            if mine[higher]:
                return False
    return True


def do_step(mine: list[int], theirs: list[int], s: int, d: int) -> bool:
    """Make a legal step; return whether it hit."""
    mine[s] -= 1
    t = s - d
    if t >= 0:
        mine[t] += 1
        if theirs[23 - t] == 1:
            theirs[23 - t] = 0
            theirs[BAR] += 1
            return True
    return False


def undo_step(mine: list[int], theirs: list[int], s: int, d: int, hit: bool) -> None:
    mine[s] += 1
    t = s - d
    if t >= 0:
        mine[t] -= 1
        if hit:
            theirs[23 - t] = 1
            theirs[BAR] -= 1


def step_sources(mine: list[int], top: int) -> list[int]:
    """Indices at or below ``top`` holding a checker the mover may move (bar first)."""
    if mine[BAR]:
        return [BAR] if top >= BAR else []
    return [s for s in range(min(top, 23), -1, -1) if mine[s]]


Step = tuple[int, int, bool]
"""(index, die, hit) of one step."""


def _step_order(move: Move) -> tuple[int, int]:
    return (-move.src, -move.dst)


def play_from_steps(steps: list[Step], theirs: Board | list[int]) -> Play:
    """The play of ``steps``, marking ``*`` as GNU Backgammon does.

    A move is marked as a hit when an opposing checker stood on its destination
    before the play began (``theirs`` is the opponent's board at that time).
    """
    moves = []
    for s, d, _ in steps:
        dst = s + 1 - d
        if dst > 0:
            moves.append(_MOVES[s + 1, dst, theirs[24 - dst] > 0])
        else:
            moves.append(_MOVES[s + 1, 0, False])
    moves.sort(key=_step_order)
    return Play(tuple(moves))


_MOVES = {
    (src, dst, hit): Move(src, dst, hit)
    for src in range(1, BAR_POINT + 1)
    for dst in range(src)
    for hit in (False, True)
}
"""Every possible move, made once: plays the engine builds share them."""
