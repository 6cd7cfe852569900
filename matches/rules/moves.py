"""Checker plays: notation, legal-play generation and checking a written play.

Points are numbered from the mover's side: 25 is the bar, 1..24 the points and 0
(``off``) the borne-off tray. A :class:`Play` is what a player wrote, such as
``24/18 13/9*``, ``bar/22``, ``6/off``, ``8/4(2)`` or a combined ``24/16``;
:func:`check_play` decides whether it is legal for the roll and returns the
resulting position, and :func:`legal_plays` lists every legal play.

>>> from matches.rules.position import Position
>>> start = Position.start()
>>> len(legal_plays(start, 0, (2, 1)))
15
>>> check_play(start, 0, (6, 4), Play.parse("24/14")).boards[0][13]
1
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations

from .dice import Roll, check_roll, dice_to_play
from .errors import BadDice, IllegalMove, ParseError
from .position import BAR, Board, Position

OFF = 0
BAR_POINT = 25

_NO_MOVE_WORDS = frozenset(
    {"", "-", "--", "dance", "dances", "danced", "no move", "cannot move", "can't move", "pass"}
)
_SORTED_DICE = {
    (a, b): tuple(sorted((a, a, a, a) if a == b else (a, b)))
    for a in range(1, 7)
    for b in range(1, 7)
}
"""Each roll's dice to play, sorted: a play whose sorted distances equal them uses
one die per move, each exactly."""

_Reading = tuple[tuple[int, ...], tuple[tuple[int, int, bool, int], ...]]
"""A play's sorted move distances, and its steps if each move takes one die."""
_TOKEN = re.compile(r"([^()]+?)(?:\((\d+)\))?")


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved from ``src`` to ``dst`` in the mover's numbering.

    ``src`` 25 is the bar, ``dst`` 0 is off. ``hit`` records a ``*`` as written; the
    position, not the mark, decides whether a checker is hit.

    >>> str(Move(25, 22)), str(Move(6, 0)), str(Move(13, 9, hit=True))
    ('bar/22', '6/off', '13/9*')
    >>> Move(3, 5)
    Traceback (most recent call last):
    ...
    matches.rules.errors.ParseError: 3/5 moves backwards: a checker moves from a higher point to a lower one
    """

    src: int
    dst: int
    hit: bool = False

    def __post_init__(self) -> None:
        if not (1 <= self.src <= BAR_POINT and 0 <= self.dst <= 24):
            raise ParseError(f"{self.src}/{self.dst} is not a move: points run 25 (bar) to 0 (off)")
        if self.dst >= self.src:
            raise ParseError(
                f"{self.src}/{self.dst} moves backwards: "
                "a checker moves from a higher point to a lower one"
            )

    def __str__(self) -> str:
        return f"{_point_name(self.src)}/{_point_name(self.dst)}{'*' if self.hit else ''}"


def _point_name(point: int) -> str:
    if point == BAR_POINT:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


@dataclass(frozen=True, slots=True)
class Play:
    """A whole play: the moves of one turn, as written (empty when the player cannot move).

    >>> play = Play.parse("13/9* 24/18")
    >>> play.moves
    (Move(src=13, dst=9, hit=True), Move(src=24, dst=18, hit=False))
    >>> str(play)
    '24/18 13/9*'
    >>> str(Play.parse("8/4 8/4 6/2(2)")), str(Play.parse("25/22 6/0")), str(Play())
    ('8/4(2) 6/2(2)', 'bar/22 6/off', '')
    """

    moves: tuple[Move, ...] = ()
    _key: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    _one_die_each: _Reading | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # (src, dst) pairs: what checking needs, cheap to hash
        object.__setattr__(self, "_key", tuple([(m.src, m.dst) for m in self.moves]))

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read a play in the usual notation; raise :class:`ParseError` when it is not one.

        Accepts ``bar``/``25`` for the bar, ``off``/``0`` for off, ``*`` for hits,
        ``(n)`` for repeats, chains ``24/18/16`` and combined moves ``24/16``.
        ``""``, ``"-"`` and ``"dance"`` mean no move.

        >>> Play.parse("24/21*/16").moves
        (Move(src=24, dst=21, hit=True), Move(src=21, dst=16, hit=False))
        >>> Play.parse("13/x")
        Traceback (most recent call last):
        ...
        matches.rules.errors.ParseError: '13/x' is not a play: 'x' is not a point
        """
        return _parse_play(text)

    def __str__(self) -> str:
        return _format_moves(self.moves)


@lru_cache(maxsize=65536)
def _parse_play(text: str) -> Play:
    if not isinstance(text, str):
        raise ParseError(f"{text!r} is not a play: expected text")
    words = text.strip().lower()
    if words in _NO_MOVE_WORDS:
        return Play()
    moves: list[Move] = []
    for token in words.replace(",", " ").split():
        parsed = _token_moves(token)
        if isinstance(parsed, str):
            raise ParseError(f"{text!r} is not a play: {parsed}")
        moves.extend(parsed)
    return Play(tuple(moves))


@lru_cache(maxsize=4096)
def _token_moves(token: str) -> tuple[Move, ...] | str:
    """The moves of one written token such as ``24/21*/16`` or ``8/4(2)``, or why not."""
    matched = _TOKEN.fullmatch(token)
    if matched is None:
        return f"cannot read {token!r}"
    body, repeat = matched.groups()
    count = 1
    if repeat is not None:
        count = int(repeat)
        if not 1 <= count <= 4:
            return f"{token!r}: a move is repeated 1 to 4 times"
    parts = body.split("/")
    if len(parts) < 2:
        return f"{body!r} needs a from and a to point, like 13/9"
    points: list[int] = []
    hits: list[bool] = []
    for i, part in enumerate(parts):
        hit = part.endswith("*")
        name = part.rstrip("*")
        if part.count("*") > 1 or (hit and i == 0):
            return f"misplaced '*' in {body!r}"
        if name == "bar":
            point = BAR_POINT
        elif name == "off":
            point = OFF
        elif name.isascii() and name.isdigit() and len(name) <= 2 and int(name) <= BAR_POINT:
            point = int(name)
        else:
            return f"{name!r} is not a point"
        if point == BAR_POINT and i > 0:
            return f"{body!r}: a checker cannot move to the bar"
        if point == OFF and i == 0:
            return f"{body!r}: a move cannot start off the board"
        if point == OFF and hit:
            return f"{body!r}: nothing can be hit off the board"
        if points and point >= points[-1]:
            return f"{body!r} does not move towards home"
        points.append(point)
        hits.append(hit)
    chain = tuple(Move(points[i], points[i + 1], hits[i + 1]) for i in range(len(points) - 1))
    return chain * count


def _format_moves(moves: tuple[Move, ...]) -> str:
    """Write moves as GNU Backgammon does.

    Moves go highest starting point first (moves from the same point keep their
    order, so a written ``6/4 6/5`` stays as written). A move is joined to a later one that starts where
    it ends: the meeting point is dropped unless it was a hit (``24/21*/16``).
    Identical moves are counted (``8/4(2)``) and a point is marked ``*`` only once.
    """
    if not moves:
        return ""
    ordered = sorted(moves, key=lambda m: -m.src)
    chains = [[(m.src, False), (m.dst, m.hit)] for m in ordered]
    alive = [True] * len(chains)
    for i, chain in enumerate(chains):
        if not alive[i]:
            continue
        for j in range(i + 1, len(chains)):
            if alive[j] and chain[-1][0] != OFF and chain[-1][0] == chains[j][0][0]:
                if chain[-1][1]:
                    chain.append(chains[j][1])
                else:
                    chain[-1] = chains[j][1]
                alive[j] = False
    counts = [1] * len(chains)
    for i, chain in enumerate(chains):
        if not alive[i]:
            continue
        points = [p for p, _ in chain]
        for j in range(i + 1, len(chains)):
            if alive[j] and [p for p, _ in chains[j]] == points:
                counts[i] += 1
                alive[j] = False
    marked: set[int] = set()
    texts: list[str] = []
    for i, chain in enumerate(chains):
        if not alive[i]:
            continue
        parts = [_point_name(chain[0][0])]
        for point, _ in chain[1:-1]:
            parts.append(f"{point}*")
            marked.add(point)
        point, hit = chain[-1]
        star = ""
        if hit and point != OFF and point not in marked:
            star = "*"
            marked.add(point)
        parts.append(_point_name(point) + star)
        texts.append("/".join(parts) + (f"({counts[i]})" if counts[i] > 1 else ""))
    return " ".join(texts)


# -- stepping ---------------------------------------------------------------------------
#
# A step moves one checker by one die. ``s`` is a board index (0..23 for points 1..24,
# 24 for the bar); the checker lands on index ``s - d`` or, below 0, is borne off.
# ``mine`` and ``theirs`` are mutable lists of 25 counts; the opponent's index for
# the mover's index ``t`` is ``23 - t``.


def _step_error(mine: list[int], theirs: list[int], s: int, d: int) -> str | None:
    """Why a single step of die ``d`` from index ``s`` is illegal, or ``None`` if legal."""
    if mine[s] == 0:
        return f"no checker on {_point_name(s + 1)}"
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


def _can_step(mine: list[int], theirs: list[int], s: int, d: int) -> bool:
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


def _do_step(mine: list[int], theirs: list[int], s: int, d: int) -> bool:
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


def _undo_step(mine: list[int], theirs: list[int], s: int, d: int, hit: bool) -> None:
    mine[s] += 1
    t = s - d
    if t >= 0:
        mine[t] -= 1
        if hit:
            theirs[23 - t] = 1
            theirs[BAR] -= 1


def _sources(mine: list[int], top: int) -> list[int]:
    """Indices at or below ``top`` holding a checker the mover may move (bar first)."""
    if mine[BAR]:
        return [BAR] if top >= BAR else []
    return [s for s in range(min(top, 23), -1, -1) if mine[s]]


Step = tuple[int, int, bool]
"""(index, die, hit) of one step."""


def _step_order(move: Move) -> tuple[int, int]:
    return (-move.src, -move.dst)


def _play_from_steps(steps: list[Step], theirs: Board | list[int]) -> Play:
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


# -- generation ---------------------------------------------------------------------------


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
            for s1 in _sources(mine, BAR):
                if not _can_step(mine, theirs, s1, d1):
                    continue
                hit1 = _do_step(mine, theirs, s1, d1)
                any_second = False
                for s2 in _sources(mine, BAR):
                    if _can_step(mine, theirs, s2, d2):
                        any_second = True
                        hit2 = _do_step(mine, theirs, s2, d2)
                        record([(s1, d1, hit1), (s2, d2, hit2)], d1 + d2)
                        _undo_step(mine, theirs, s2, d2, hit2)
                if not any_second:
                    record([(s1, d1, hit1)], d1)
                _undo_step(mine, theirs, s1, d1, hit1)
    else:
        d = dice[0]
        steps: list[Step] = []

        def search(top: int) -> None:
            moved = False
            if len(steps) < len(dice):
                for s in _sources(mine, top):
                    if _can_step(mine, theirs, s, d):
                        moved = True
                        hit = _do_step(mine, theirs, s, d)
                        steps.append((s, d, hit))
                        search(s)
                        steps.pop()
                        _undo_step(mine, theirs, s, d, hit)
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
    return [_play_from_steps(steps, theirs) for steps in found]


def can_move(pos: Position, side: int, roll: Roll) -> bool:
    """Whether ``side`` can move at all with ``roll``.

    >>> can_move(Position.start(), 1, (6, 6))
    True
    """
    check_roll(roll)
    mine = list(pos.boards[side])
    theirs = list(pos.boards[1 - side])
    return any(_can_step(mine, theirs, s, d) for d in set(roll) for s in _sources(mine, BAR))


def _longest(mine: list[int], theirs: list[int], dice: tuple[int, ...]) -> list[Step]:
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
            for s in _sources(mine, top):
                if _can_step(mine, theirs, s, d):
                    hit = _do_step(mine, theirs, s, d)
                    steps.append((s, d, hit))
                    done = search(rest, s if doublet else BAR)
                    steps.pop()
                    _undo_step(mine, theirs, s, d, hit)
                    if done:
                        return True
        return False

    search(dice, BAR)
    return best


# -- checking a written play ---------------------------------------------------------------


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


def _one_die_each(pairs: tuple[tuple[int, int], ...]) -> _Reading:
    """Sorted distances of the moves, and their steps in playing order (highest first)."""
    steps = sorted(
        [(src - 1, src - dst, True, j) for j, (src, dst) in enumerate(pairs)],
        key=lambda step: -step[0],
    )
    return tuple(sorted([src - dst for src, dst in pairs])), tuple(steps)


@lru_cache(maxsize=65536)
def _candidates(pairs: tuple[tuple[int, int], ...], roll: Roll) -> tuple[_Candidate, ...]:
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
        f"{_format_moves(moves)} is not legal for {_roll_name(roll)}: "
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
    reason = _step_error(mine, theirs, s, d)
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
        play = _parse_play(play) if isinstance(play, str) else play
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
    candidates = _candidates(play._key, roll)
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
        _can_step(mine, theirs, s, d) for d in set(roll) for s in _sources(mine, BAR)
    ):
        return  # no move at all: the usual dance
    example = _longest(mine, theirs, dice)
    n = len(example)
    pips = sum(d for _, d, _ in example)
    if (n, pips) <= rank:
        return
    shown = _play_from_steps(example, board_theirs)
    if rank[0] == 0:
        message = f"a move is possible: {shown}"
    elif len(dice) == 2 and n == 2:
        message = f"must use both dice: {shown} is possible"
    elif len(dice) == 2:
        message = f"must play the larger die ({max(roll)}): {shown} is possible"
    else:
        message = f"must play {n} of the four {dice[0]}s, not {rank[0]}: {shown} is possible"
    raise IllegalMove(message, side=side)
