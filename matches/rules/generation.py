"""Legal-play generation: every legal play for a roll, by the maximal-play rule.

>>> from matches.rules.position import Position
>>> len(legal_plays(Position.start(), 0, (2, 1)))
15
"""

from __future__ import annotations

from .dice import Roll, check_roll, dice_to_play
from .notation import Play
from .position import BAR, Position
from .steps import Step, can_step, do_step, play_from_steps, step_sources, undo_step


def _generate(mine: list[int], theirs: list[int], dice: tuple[int, ...]) -> list[list[Step]]:
    """One step list per distinct resulting position, by the maximal-play rule."""
    found: dict[tuple[int, ...], tuple[int, int, list[Step]]] = {}
    best = [0, 0]  # (steps, pips) of the best play so far

    def record(steps: list[Step], pips: int) -> None:
        n = len(steps)
        if n < best[0] or (n == best[0] and pips < best[1]):
            return
        if n > best[0] or pips > best[1]:
            best[0], best[1] = n, pips
            found.clear()
        key = (*mine, *theirs)
        if key not in found:
            found[key] = (n, pips, list(steps))

    if dice[0] != dice[1]:
        for d1, d2 in ((dice[0], dice[1]), (dice[1], dice[0])):
            for s1 in step_sources(mine, BAR):
                if not can_step(mine, theirs, s1, d1):
                    continue
                hit1 = do_step(mine, theirs, s1, d1)
                any_second = False
                for s2 in step_sources(mine, BAR):
                    if can_step(mine, theirs, s2, d2):
                        any_second = True
                        hit2 = do_step(mine, theirs, s2, d2)
                        record([(s1, d1, hit1), (s2, d2, hit2)], d1 + d2)
                        undo_step(mine, theirs, s2, d2, hit2)
                if not any_second:
                    record([(s1, d1, hit1)], d1)
                undo_step(mine, theirs, s1, d1, hit1)
    else:
        d = dice[0]
        steps: list[Step] = []

        def search(top: int) -> None:
            moved = False
            if len(steps) < len(dice):
                for s in step_sources(mine, top):
                    if can_step(mine, theirs, s, d):
                        moved = True
                        hit = do_step(mine, theirs, s, d)
                        steps.append((s, d, hit))
                        search(s)
                        steps.pop()
                        undo_step(mine, theirs, s, d, hit)
            if not moved:
                record(steps, d * len(steps))

        search(BAR)
    if not found:
        return [[]]
    return [steps for _, _, steps in found.values()]


def legal_plays(pos: Position, side: int, roll: Roll) -> list[Play]:
    """Every legal play for ``side`` with ``roll``, one per distinct resulting position.

    Both dice must be played when possible, else the larger one; doublets as many
    times as possible (up to four). A player who cannot move has one legal play,
    the empty ``Play()``.

    >>> start = Position.start()
    >>> [str(p) for p in legal_plays(start, 0, (6, 5)) if "24/" in str(p)][:2]
    ['24/13', '24/18 13/8']
    >>> closed = Position(((0,) * 24 + (1,), (2,) * 6 + (0,) * 19))
    >>> legal_plays(closed, 0, (6, 6))
    [Play(moves=())]
    """
    check_roll(roll)
    mine = list(pos.boards[side])
    theirs = list(pos.boards[1 - side])
    found = _generate(mine, theirs, dice_to_play(roll))
    return [play_from_steps(steps, theirs) for steps in found]


def can_move(pos: Position, side: int, roll: Roll) -> bool:
    """Whether ``side`` can move at all with ``roll``.

    >>> can_move(Position.start(), 1, (6, 6))
    True
    """
    check_roll(roll)
    mine = list(pos.boards[side])
    theirs = list(pos.boards[1 - side])
    return any(can_step(mine, theirs, s, d) for d in set(roll) for s in step_sources(mine, BAR))


def longest_play(mine: list[int], theirs: list[int], dice: tuple[int, ...]) -> list[Step]:
    """A play using the most dice possible (then the most pips); stops once all are used."""
    best: list[Step] = []
    best_rank = (0, 0)
    steps: list[Step] = []
    doublet = len(dice) == 4

    def search(remaining: tuple[int, ...], top: int) -> bool:
        nonlocal best, best_rank
        rank = (len(steps), sum(d for _, d, _ in steps))
        if rank > best_rank:
            best, best_rank = list(steps), rank
            if not remaining:
                return True
        for i, d in enumerate(remaining):
            if d in remaining[:i]:
                continue
            rest = remaining[:i] + remaining[i + 1 :]
            for s in step_sources(mine, top):
                if can_step(mine, theirs, s, d):
                    hit = do_step(mine, theirs, s, d)
                    steps.append((s, d, hit))
                    done = search(rest, s if doublet else BAR)
                    steps.pop()
                    undo_step(mine, theirs, s, d, hit)
                    if done:
                        return True
        return False

    search(dice, BAR)
    return best
