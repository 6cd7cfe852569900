"""Checking a written play against the position and roll: legal, or why not.

>>> from matches.rules.position import Position
>>> check_play(Position.start(), 0, (6, 4), Play.parse("24/14")).boards[0][13]
1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from .dice import Roll, check_roll, dice_to_play
from .errors import BadDice, IllegalMove
from .generation import longest_play
from .notation import OFF, DieReading, Move, Play, format_moves, parse_play
from .position import BAR, Board, Position
from .steps import can_step, play_from_steps, step_error, step_sources

_SORTED_DICE = {
    (a, b): tuple(sorted((a, a, a, a) if a == b else (a, b)))
    for a in range(1, 7)
    for b in range(1, 7)
}
"""Each roll's dice to play, sorted: a play whose sorted distances equal them uses
one die per move, each exactly."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One way to read a written play as single-die steps, in playing order.

    ``steps`` holds (index, die, landing-point-written, written-move number).
    """

    n: int
    pips: int
    steps: tuple[tuple[int, int, bool, int], ...]
    full: bool
    """Whether the reading uses every die of the roll."""


@lru_cache(maxsize=4096)
def _die_sequences(
    distance: int, bear_off: bool, dice: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Ordered sequences of the available ``dice`` that cover ``distance``.

    A move to a point needs the exact sum; a bear-off may overshoot with its last die.
    """
    found: set[tuple[int, ...]] = set()
    for k in range(1, len(dice) + 1):
        for seq in permutations(dice, k):
            total = sum(seq)
            if total == distance or (bear_off and total > distance and total - seq[-1] < distance):
                found.add(seq)
    return tuple(sorted(found, key=lambda seq: (len(seq), seq), reverse=True))


def _multiset_minus(dice: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...] | None:
    rest = list(dice)
    for d in used:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)


def _one_die_each(pairs: tuple[tuple[int, int], ...]) -> DieReading:
    """Sorted distances of the moves, and their steps in playing order (highest first)."""
    steps = sorted(
        [(src - 1, src - dst, True, j) for j, (src, dst) in enumerate(pairs)],
        key=lambda step: -step[0],
    )
    return tuple(sorted([src - dst for src, dst in pairs])), tuple(steps)


@lru_cache(maxsize=65536)
def play_candidates(pairs: tuple[tuple[int, int], ...], roll: Roll) -> tuple[_Candidate, ...]:
    """Every assignment of the roll's dice to the written (src, dst) moves, best first."""
    dice = dice_to_play(roll)
    distances = [src - dst for src, dst in pairs]
    if sorted(distances) == sorted(dice):
        # one die per move, each exactly its distance: the only way to read it
        steps = sorted(
            ((src - 1, src - dst, True, j) for j, (src, dst) in enumerate(pairs)),
            key=lambda step: -step[0],
        )
        return (_Candidate(len(dice), sum(dice), tuple(steps), True),)
    options = [_die_sequences(src - dst, dst == OFF, dice) for src, dst in pairs]
    found: dict[tuple[tuple[int, int, bool, int], ...], _Candidate] = {}

    def assign(i: int, remaining: tuple[int, ...], chosen: list[tuple[int, ...]]) -> None:
        if i == len(pairs):
            steps: list[tuple[int, int, bool, int]] = []
            for j, ((src, _), seq) in enumerate(zip(pairs, chosen, strict=True)):
                point = src
                for k, d in enumerate(seq):
                    steps.append((point - 1, d, k == len(seq) - 1, j))
                    point -= d
            steps.sort(key=lambda step: -step[0])
            used = [d for seq in chosen for d in seq]
            key = tuple(steps)
            if key not in found:
                found[key] = _Candidate(len(used), sum(used), key, len(used) == len(dice))
            return
        for seq in options[i]:
            rest = _multiset_minus(remaining, seq)
            if rest is not None:
                chosen.append(seq)
                assign(i + 1, rest, chosen)
                chosen.pop()

    assign(0, dice, [])
    return tuple(sorted(found.values(), key=lambda c: (c.n, c.pips), reverse=True))


def _roll_name(roll: Roll) -> str:
    return f"{roll[0]}{roll[1]}"


def _no_fit_message(moves: tuple[Move, ...], roll: Roll) -> str:
    dice = dice_to_play(roll)
    for move in moves:
        if not _die_sequences(move.src - move.dst, move.dst == OFF, dice):
            return f"{move} is not legal for {_roll_name(roll)}"
    return (
        f"{format_moves(moves)} is not legal for {_roll_name(roll)}: "
        f"its moves need more than the {len(dice)} dice"
    )


def _simulate(
    board_mine: Board,
    board_theirs: Board,
    steps: tuple[tuple[int, int, bool, int], ...],
    moves: tuple[Move, ...],
) -> tuple[list[int], list[int], bool] | str:
    """Play ``steps``; return (mine, theirs, hit-in-passing) or why a step is illegal."""
    mine = list(board_mine)
    theirs = list(board_theirs)
    passing_hit = False
    for s, d, landing_written, j in steps:
        if mine[s] == 0 or (s != BAR and mine[BAR]):
            return _failure(mine, theirs, s, d, moves[j])
        t = s - d
        if t >= 0:
            blot = theirs[23 - t]
            if blot > 1:
                return _failure(mine, theirs, s, d, moves[j])
            mine[s] -= 1
            mine[t] += 1
            if blot:
                theirs[23 - t] = 0
                theirs[BAR] += 1
                if not landing_written:
                    passing_hit = True
        else:
            if any(mine[6:]) or (t < -1 and any(mine[s + 1 : 6])):
                return _failure(mine, theirs, s, d, moves[j])
            mine[s] -= 1
    return mine, theirs, passing_hit


def _failure(mine: list[int], theirs: list[int], s: int, d: int, move: Move) -> str:
    reason = step_error(mine, theirs, s, d)
    if reason == "must enter from the bar first":
        return f"must enter from the bar first ({move} is not legal)"
    if reason is not None and reason.startswith("bearing off"):
        return reason
    return f"{move} is not legal: {reason}"


def check_play(pos: Position, side: int, roll: Roll, play: Play | str) -> Position:
    """Check that ``play`` is legal for ``side`` with ``roll``; return the new position.

    Raises :class:`IllegalMove` saying why not. A combined move such as ``24/16``
    may pass any open intermediate point; one that hits on the way should show the
    hit (``24/21*/16``), though the position, not the ``*``, decides.

    >>> start = Position.start()
    >>> check_play(start, 0, (5, 2), "13/8 13/11") == start.apply(0, Play.parse("13/8 13/11"))
    True
    >>> check_play(start, 0, (5, 2), "13/7")
    Traceback (most recent call last):
    ...
    matches.rules.errors.IllegalMove: 13/7 is not legal for 52
    >>> check_play(start, 0, (5, 2), "13/8")
    Traceback (most recent call last):
    ...
    matches.rules.errors.IllegalMove: must use both dice: 24/22 13/8 is possible
    """
    if play.__class__ is not Play:
        play = parse_play(play) if isinstance(play, str) else play
    dice = _SORTED_DICE.get(roll)
    if dice is None:
        check_roll(roll)
        raise BadDice(f"{roll!r} is not a roll")
    boards = pos.boards
    board_mine, board_theirs = (boards[1], boards[0]) if side else (boards[0], boards[1])
    reading = play._one_die_each
    if reading is None:
        reading = _one_die_each(play._key)
        object.__setattr__(play, "_one_die_each", reading)
    if reading[0] == dice:
        # the usual case: every move is exactly one die, so there is one reading and
        # it uses every die; if each step is legal the play is legal
        outcome = _simulate(board_mine, board_theirs, reading[1], play.moves)
        if isinstance(outcome, str):
            raise IllegalMove(outcome, side=side)
        return Position._trusted(tuple(outcome[0]), tuple(outcome[1]), side)
    candidates = play_candidates(play._key, roll)
    if len(candidates) == 1:
        # the usual case: the written play can be read in one way only
        cand = candidates[0]
        outcome = _simulate(board_mine, board_theirs, cand.steps, play.moves)
        if isinstance(outcome, str):
            raise IllegalMove(outcome, side=side)
        mine, theirs, _ = outcome
        if not cand.full:
            _check_maximal(board_mine, board_theirs, (cand.n, cand.pips), roll, side)
        return Position._trusted(tuple(mine), tuple(theirs), side)
    if not candidates:
        raise IllegalMove(_no_fit_message(play.moves, roll), side=side)
    return _check_readings(board_mine, board_theirs, side, roll, play, candidates)


def _check_readings(
    board_mine: Board,
    board_theirs: Board,
    side: int,
    roll: Roll,
    play: Play,
    candidates: tuple[_Candidate, ...],
) -> Position:
    """``check_play`` for a play that can be read in several ways (dice orders, paths).

    The reading that uses the most dice (then the most pips) decides; among its
    successful readings one without an unwritten hit on the way is preferred.
    """
    first_error: str | None = None
    best_rank: tuple[int, int] | None = None
    passing: list[tuple[list[int], list[int]]] = []
    chosen: tuple[list[int], list[int]] | None = None
    for cand in candidates:
        rank = (cand.n, cand.pips)
        if best_rank is not None and rank < best_rank:
            break
        outcome = _simulate(board_mine, board_theirs, cand.steps, play.moves)
        if isinstance(outcome, str):
            if first_error is None:
                first_error = outcome
            continue
        mine, theirs, passing_hit = outcome
        best_rank = rank
        if not passing_hit:
            chosen = (mine, theirs)
            break
        passing.append((mine, theirs))
    if best_rank is None:
        raise IllegalMove(first_error or f"{play} is not legal", side=side)
    if chosen is None:
        distinct = {(*m, *t) for m, t in passing}
        if len(distinct) > 1:
            raise IllegalMove(
                f"{play} is ambiguous for {_roll_name(roll)}: it hits on the way; "
                "write the hit, like 24/21*/16",
                side=side,
            )
        chosen = passing[0]
    if best_rank[0] < len(dice_to_play(roll)):
        _check_maximal(board_mine, board_theirs, best_rank, roll, side)
    mine, theirs = chosen
    return Position._trusted(tuple(mine), tuple(theirs), side)


def _check_maximal(
    board_mine: Board, board_theirs: Board, rank: tuple[int, int], roll: Roll, side: int
) -> None:
    """Raise unless no play uses more dice than ``rank`` (or as many with a larger die)."""
    dice = dice_to_play(roll)
    mine = list(board_mine)
    theirs = list(board_theirs)
    if rank[0] == 0 and not any(
        can_step(mine, theirs, s, d) for d in set(roll) for s in step_sources(mine, BAR)
    ):
        return  # no move at all: the usual dance
    example = longest_play(mine, theirs, dice)
    n = len(example)
    pips = sum(d for _, d, _ in example)
    if (n, pips) <= rank:
        return
    shown = play_from_steps(example, board_theirs)
    if rank[0] == 0:
        message = f"a move is possible: {shown}"
    elif len(dice) == 2 and n == 2:
        message = f"must use both dice: {shown} is possible"
    elif len(dice) == 2:
        message = f"must play the larger die ({max(roll)}): {shown} is possible"
    else:
        message = f"must play {n} of the four {dice[0]}s, not {rank[0]}: {shown} is possible"
    raise IllegalMove(message, side=side)
