"""Checker-play notation: a :class:`Move` and a :class:`Play`, read and written as
GNU Backgammon writes them.

Points are numbered from the mover's side: 25 is the bar, 1..24 the points and 0
(``off``) the borne-off tray. A :class:`Play` is what a player wrote, such as
``24/18 13/9*``, ``bar/22``, ``6/off``, ``8/4(2)`` or a combined ``24/16``.
Whether it is legal is :mod:`matches.rules.play_check`'s business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .errors import ParseError

OFF = 0
BAR_POINT = 25

_NO_MOVE_WORDS = frozenset(
    {"", "-", "--", "dance", "dances", "danced", "no move", "cannot move", "can't move", "pass"}
)

DieReading = tuple[tuple[int, ...], tuple[tuple[int, int, bool, int], ...]]
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
        return f"{point_name(self.src)}/{point_name(self.dst)}{'*' if self.hit else ''}"


def point_name(point: int) -> str:
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
    _one_die_each: DieReading | None = field(default=None, init=False, repr=False, compare=False)

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
        return parse_play(text)

    def __str__(self) -> str:
        return format_moves(self.moves)


@lru_cache(maxsize=65536)
def parse_play(text: str) -> Play:
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


def format_moves(moves: tuple[Move, ...]) -> str:
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
        parts = [point_name(chain[0][0])]
        for point, _ in chain[1:-1]:
            parts.append(f"{point}*")
            marked.add(point)
        point, hit = chain[-1]
        star = ""
        if hit and point != OFF and point not in marked:
            star = "*"
            marked.add(point)
        parts.append(point_name(point) + star)
        texts.append("/".join(parts) + (f"({counts[i]})" if counts[i] > 1 else ""))
    return " ".join(texts)
