"""The draw: who gets which seed, and a public log that lets anyone re-run it.

Three methods:

- ``random``: the entrants, sorted by id, are shuffled by ``random.Random(seed)``.
  The seed is an explicit integer; when none is given one is drawn from the
  system's entropy and recorded. Same entrants + same seed = same draw.
- ``rating``: by rating, highest first; unrated entrants last; ties by name
  (case-insensitive), then id.
- ``manual``: the director's order, as given.

The result is the seeding (index 0 = seed 1), the first round it produces in the
event's format, and a plain-text log holding the method, the seed, the entrants
(id, rating, name), the resulting order and the first-round pairings.
``rerun(log)`` rebuilds the draw from the log alone and ``verify(log)`` says
whether the log is exactly what its inputs produce.

>>> players = [DrawEntrant(11, "Ann", 1700), DrawEntrant(12, "Bo", 1500),
...            DrawEntrant(13, "Cy", 1600)]
>>> d = make_draw(players, method="rating")
>>> d.order, d.first_round
((11, 13, 12), ((11, None), (13, 12)))
>>> print(d.log)
draw-log v1
format: single-elimination
method: rating
seed: none
entrants: 3
  #11 rating=1700 Ann
  #12 rating=1500 Bo
  #13 rating=1600 Cy
order: 3
  1. #11 Ann
  2. #13 Cy
  3. #12 Bo
first round: 2
  1. #11 Ann v BYE
  2. #13 Cy v #12 Bo
>>> verify(d.log), rerun(d.log) == d
(True, True)
>>> make_draw(players, method="random", seed=2024).order == make_draw(
...     players, method="random", seed=2024).order
True
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournament.formats.errors import FormatError
from tournament.formats.round_robin import round_robin_round
from tournament.formats.single_elimination import first_round
from tournament.formats.slots import BYE, EntrantId, Pairing, Slot, check_unique
from tournament.formats.swiss import swiss_pairings

LOG_VERSION = "draw-log v1"


class DrawMethod(StrEnum):
    """How the seeding is decided."""

    RANDOM = "random"
    RATING = "rating"
    MANUAL = "manual"


class EventFormat(StrEnum):
    """The formats a draw can open, named as the API names them."""

    SINGLE_ELIMINATION = "single-elimination"
    DOUBLE_ELIMINATION = "double-elimination"
    SWISS = "swiss"
    SWISS_ELIMINATION = "swiss-elimination"
    ROUND_ROBIN = "round-robin"


@dataclass(frozen=True)
class DrawEntrant:
    """An entrant as the draw sees it: id, name (a single line), rating (``None``: unrated)."""

    id: EntrantId
    name: str
    rating: float | None = None


@dataclass(frozen=True)
class Draw:
    """A made draw: its inputs, the seeding, the first round and the public log."""

    format: EventFormat
    method: DrawMethod
    seed: int | None
    entrants: tuple[DrawEntrant, ...]
    order: tuple[EntrantId, ...]
    first_round: tuple[Pairing, ...]
    log: str


def make_draw(
    entrants: Sequence[DrawEntrant],
    *,
    method: DrawMethod | str,
    seed: int | None = None,
    order: Sequence[EntrantId] | None = None,
    format: EventFormat | str = EventFormat.SINGLE_ELIMINATION,
) -> Draw:
    """Make the draw. ``seed`` is for ``random`` only, ``order`` for ``manual`` only."""
    draw_method = _choice(DrawMethod, method, "method")
    event_format = _choice(EventFormat, format, "format")
    people = _check_entrants(entrants)
    if draw_method is DrawMethod.RANDOM:
        if seed is None:
            seed = secrets.randbits(63)
        elif not isinstance(seed, int) or isinstance(seed, bool):
            raise FormatError(
                f"the seed must be an integer, got {seed!r}", code="bad-seed", field="seed"
            )
        seeding = [e.id for e in sorted(people, key=lambda e: e.id)]
        random.Random(seed).shuffle(seeding)
    elif seed is not None:
        raise FormatError("only a random draw takes a seed", code="bad-seed", field="seed")
    if draw_method is not DrawMethod.MANUAL and order is not None:
        raise FormatError("only a manual draw takes an order", code="bad-order", field="order")
    if draw_method is DrawMethod.RATING:
        seeding = [e.id for e in sorted(people, key=_rating_key)]
    elif draw_method is DrawMethod.MANUAL:
        seeding = _check_order(order, people)
    pairings = _first_round(event_format, seeding)
    log = _write_log(event_format, draw_method, seed, people, seeding, pairings)
    return Draw(
        event_format, draw_method, seed, tuple(people), tuple(seeding), tuple(pairings), log
    )


def rerun(log: str) -> Draw:
    """Make again the draw a log describes, from the log alone."""
    parsed = _read_log(log)
    return make_draw(
        parsed.entrants,
        method=parsed.method,
        seed=parsed.seed,
        order=parsed.order if parsed.method == DrawMethod.MANUAL else None,
        format=parsed.format,
    )


def verify(log: str) -> bool:
    """Whether re-running the log's inputs gives exactly the log (order and pairings)."""
    return rerun(log).log == _normalised(log)


def _rating_key(entrant: DrawEntrant) -> tuple[bool, float, str, int]:
    rating = entrant.rating
    return (rating is None, -(rating or 0.0), entrant.name.casefold(), entrant.id)


def _choice[E: StrEnum](kind: type[E], value: E | str, field: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise FormatError(
            f"unknown {field} {value!r}: choose from {[m.value for m in kind]}",
            code=f"bad-{field}",
            field=field,
        ) from None


def _check_entrants(entrants: Sequence[DrawEntrant]) -> list[DrawEntrant]:
    check_unique([e.id for e in entrants])
    if len(entrants) < 2:
        raise FormatError(
            f"a draw needs at least 2 entrants, got {len(entrants)}",
            code="too-few-entrants",
            field="entrants",
        )
    for e in entrants:
        if "\n" in e.name or "\r" in e.name:
            raise FormatError(
                f"entrant {e.id}: a name must be a single line, got {e.name!r}",
                code="bad-name",
                field="entrants",
            )
        if e.rating is not None and not math.isfinite(e.rating):
            raise FormatError(
                f"entrant {e.id}: the rating must be a finite number, got {e.rating!r}",
                code="bad-rating",
                field="entrants",
            )
    return list(entrants)


def _check_order(order: Sequence[EntrantId] | None, people: Sequence[DrawEntrant]) -> list[int]:
    if order is None:
        raise FormatError("a manual draw needs the order", code="bad-order", field="order")
    seeding = check_unique(order, field="order")
    if sorted(seeding) != sorted(e.id for e in people):
        raise FormatError(
            "the order must list every entrant exactly once", code="bad-order", field="order"
        )
    return seeding


def _first_round(event_format: EventFormat, seeding: list[EntrantId]) -> list[Pairing]:
    if event_format in (EventFormat.SWISS, EventFormat.SWISS_ELIMINATION):
        return swiss_pairings(seeding).as_pairings()
    if event_format is EventFormat.ROUND_ROBIN:
        return round_robin_round(seeding, 1)
    return first_round(seeding)


def _format_rating(rating: float | None) -> str:
    if rating is None:
        return "-"
    if float(rating).is_integer() and abs(rating) < 2**53:
        return str(int(rating))
    return repr(float(rating))


def _write_log(
    event_format: EventFormat,
    method: DrawMethod,
    seed: int | None,
    people: Sequence[DrawEntrant],
    seeding: Sequence[EntrantId],
    pairings: Sequence[Pairing],
) -> str:
    names = {e.id: e.name for e in people}

    def who(slot: Slot) -> str:
        return "BYE" if slot is BYE else f"#{slot} {names[slot]}"

    lines = [
        LOG_VERSION,
        f"format: {event_format}",
        f"method: {method}",
        f"seed: {'none' if seed is None else seed}",
        f"entrants: {len(people)}",
        *(f"  #{e.id} rating={_format_rating(e.rating)} {e.name}" for e in people),
        f"order: {len(seeding)}",
        *(f"  {k}. {who(e)}" for k, e in enumerate(seeding, start=1)),
        f"first round: {len(pairings)}",
        *(f"  {k}. {who(a)} v {who(b)}" for k, (a, b) in enumerate(pairings, start=1)),
    ]
    return "\n".join(lines)


def _normalised(log: str) -> str:
    return "\n".join(line.rstrip("\r") for line in log.strip("\n").split("\n"))


@dataclass(frozen=True)
class _ParsedLog:
    format: str
    method: str
    seed: int | None
    entrants: list[DrawEntrant]
    order: list[EntrantId]


def _read_log(log: str) -> _ParsedLog:
    lines = _normalised(log).split("\n")
    at = 0

    def bad(message: str) -> FormatError:
        return FormatError(f"draw log line {at + 1}: {message}", code="bad-draw-log", field="log")

    def take(key: str) -> str:
        nonlocal at
        if at >= len(lines) or not lines[at].startswith(f"{key}: "):
            raise bad(f"expected '{key}: ...'")
        value = lines[at][len(key) + 2 :]
        at += 1
        return value

    def count(text: str) -> int:
        if not text.isdigit():
            raise bad(f"expected a count, got {text!r}")
        return int(text)

    def integer(text: str, what: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise bad(f"expected {what}, got {text!r}") from None

    if not lines or lines[0] != LOG_VERSION:
        raise bad(f"a draw log starts with '{LOG_VERSION}'")
    at = 1
    event_format = take("format")
    method = take("method")
    seed_text = take("seed")
    seed = None if seed_text == "none" else integer(seed_text, "an integer seed or 'none'")
    entrants: list[DrawEntrant] = []
    for _ in range(count(take("entrants"))):
        parts = lines[at][2:].split(" ", 2) if at < len(lines) else []
        if len(parts) != 3 or not lines[at].startswith("  #") or not parts[1].startswith("rating="):
            raise bad("expected '  #<id> rating=<rating or -> <name>'")
        rating_text = parts[1][len("rating=") :]
        try:
            rating = None if rating_text == "-" else float(rating_text)
        except ValueError:
            raise bad(f"expected a rating, got {rating_text!r}") from None
        entrants.append(DrawEntrant(integer(parts[0][1:], "an id"), parts[2], rating))
        at += 1
    order: list[EntrantId] = []
    for k in range(1, count(take("order")) + 1):
        prefix = f"  {k}. #"
        if at >= len(lines) or not lines[at].startswith(prefix):
            raise bad(f"expected '{prefix}<id> <name>'")
        order.append(integer(lines[at][len(prefix) :].split(" ", 1)[0], "an id"))
        at += 1
    return _ParsedLog(event_format, method, seed, entrants, order)
