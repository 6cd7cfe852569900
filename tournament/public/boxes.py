"""The values a bracket drawing is made of: a column per round, a box per match, a line per side.

:mod:`tournament.public.bracket` builds them from the database's rows and
:mod:`tournament.public.render` writes them as HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from matches.models import Match

type Joins = Literal["halves", "same", "end", "loose"]

LIVE_STATUSES = frozenset({Match.Status.PLAYING, Match.Status.REPORTED, Match.Status.DISPUTED})


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a player went after losing here: another event's round, with a link."""

    label: str
    href: str


@dataclass(frozen=True, slots=True)
class Line:
    """One side of a match box."""

    name: str = ""
    seed: int | None = None
    player_id: int | None = None
    score: int | None = None
    won: bool = False
    lost: bool = False
    went: Destination | None = None
    placeholder: str = ""

    @property
    def is_empty(self) -> bool:
        return not self.name


@dataclass(frozen=True, slots=True)
class Box:
    """A match as the bracket shows it."""

    match_id: int | None
    number: int
    length: int
    status: str
    status_label: str
    is_bye: bool
    decision: str
    top: Line
    bottom: Line
    table: int | None = None

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES

    @property
    def lines(self) -> tuple[Line, Line]:
        return self.top, self.bottom

    @property
    def is_void(self) -> bool:
        return self.match_id is None


@dataclass(frozen=True, slots=True)
class Column:
    """A round: its name, match length and matches in slot order."""

    number: int
    name: str
    length: int
    status: str
    boxes: tuple[Box, ...]
    joins: Joins = "end"
    fed: bool = False
    """Lines come in from the previous column (it halves into this one, or matches it)."""
