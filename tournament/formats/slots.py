"""Shared vocabulary: entrants, bracket slots, byes and references to matches.

Entrants are opaque integer ids (the caller's Entry primary keys, say). A seeded
list holds them best first: index 0 is seed 1. A bracket slot holds an entrant or
``BYE`` (``None``). Rounds are numbered from 1, matches within a round from 0
(top of the bracket sheet first) and the two places in a match from 0 (the upper
line, the better seed in round 1) to 1.

>>> MatchRef(2, 5)
MatchRef(round=2, index=5)
>>> SlotRef(3, 2, 1).match
MatchRef(round=3, index=2)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from tournament.formats.errors import FormatError

type EntrantId = int
type Slot = EntrantId | None
type Pairing = tuple[Slot, Slot]

BYE: Final = None
"""An empty slot: whoever meets it goes through without playing."""


@dataclass(frozen=True, order=True, slots=True)
class MatchRef:
    """A match in a bracket: its round (from 1) and its index in the round (from 0)."""

    round: int
    index: int


@dataclass(frozen=True, order=True, slots=True)
class SlotRef:
    """One of the two places of a match: ``position`` 0 is the upper line, 1 the lower."""

    round: int
    index: int
    position: int

    @property
    def match(self) -> MatchRef:
        """The match this place belongs to."""
        return MatchRef(self.round, self.index)


def check_unique(entrants: Iterable[EntrantId], *, field: str = "entrants") -> list[EntrantId]:
    """Return the entrants as a list, refusing duplicates and non-integers.

    >>> check_unique([3, 1, 2])
    [3, 1, 2]
    >>> check_unique([3, 1, 3])
    Traceback (most recent call last):
    ...
    tournament.formats.errors.FormatError: entrant 3 appears more than once
    """
    seen: set[EntrantId] = set()
    result: list[EntrantId] = []
    for entrant in entrants:
        if not isinstance(entrant, int) or isinstance(entrant, bool):
            raise FormatError(
                f"entrant ids must be integers, got {entrant!r}", code="bad-entrant", field=field
            )
        if entrant in seen:
            raise FormatError(
                f"entrant {entrant} appears more than once", code="duplicate-entrant", field=field
            )
        seen.add(entrant)
        result.append(entrant)
    return result
