"""Final places: who finished where, as spans of places that tied entrants share.

An elimination event places each entrant by how far they got: the champion 1st, the
loser of the final 2nd, the two semi-final losers share 3rd-4th, the quarter-final
losers 5th-8th, and so on; a bracket with byes places each round's losers after
everyone who went further (14 entrants: the first round's six losers share 9th-14th).
A Swiss or round robin event places by its standings' ranks, ties sharing.

Every function returns a ``Place`` per entrant; the places partition ``1..field``:

>>> exits = {"ann": None, "bob": 3, "cy": 2, "dee": 2, "eve": 1, "fay": 1, "gus": 1}
>>> {k: str(p) for k, p in places_by_exit(exits).items()}
{'ann': '1st', 'bob': '2nd', 'cy': '3rd-4th', 'dee': '3rd-4th', 'eve': '5th-7th', 'fay': '5th-7th', 'gus': '5th-7th'}
>>> {k: str(p) for k, p in places_by_rank({"a": 1, "b": 2, "c": 2, "d": 4}).items()}
{'a': '1st', 'b': '2nd-3rd', 'c': '2nd-3rd', 'd': '4th'}
>>> {k: str(p) for k, p in places_within(places_by_exit(exits), ["bob", "eve", "gus"]).items()}
{'bob': '1st', 'eve': '2nd-3rd', 'gus': '2nd-3rd'}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from tournament.formats.errors import FormatError


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True, order=True)
class Place:
    """Places ``best`` to ``worst`` (equal for a place of one's own).

    >>> Place(1, 1), str(Place(5, 8)), Place(5, 8).shared
    (Place(best=1, worst=1), '5th-8th', True)
    """

    best: int
    worst: int

    def __post_init__(self) -> None:
        if not 1 <= self.best <= self.worst:
            raise FormatError(
                f"a place runs from 1 up, best first: not {self.best}-{self.worst}",
                code="invalid-place",
                field="place",
            )

    @property
    def shared(self) -> bool:
        """Whether others share these places."""
        return self.worst > self.best

    def __str__(self) -> str:
        if self.shared:
            return f"{ordinal(self.best)}-{ordinal(self.worst)}"
        return ordinal(self.best)


def places_by_key[K: Hashable](keys: Mapping[K, tuple[int, ...]]) -> dict[K, Place]:
    """Places from sort keys, greater first; equal keys share the places they span.

    >>> {k: str(p) for k, p in places_by_key({"a": (2,), "b": (1,), "c": (1,)}).items()}
    {'a': '1st', 'b': '2nd-3rd', 'c': '2nd-3rd'}
    """
    counts: dict[tuple[int, ...], int] = {}
    for key in keys.values():
        counts[key] = counts.get(key, 0) + 1
    above = 0
    spans: dict[tuple[int, ...], Place] = {}
    for key in sorted(counts, reverse=True):
        spans[key] = Place(above + 1, above + counts[key])
        above += counts[key]
    return {entrant: spans[key] for entrant, key in keys.items()}


def places_by_exit[K: Hashable](exits: Mapping[K, int | None]) -> dict[K, Place]:
    """Elimination places from how far each entrant got: ``exits[k]`` is the stage at
    which ``k`` went out (any numbers, later stages greater: the round lost), ``None``
    for the one who never went out (the champion). Entrants out at the same stage share.

    >>> places_by_exit({"a": None, "b": 1})
    {'a': Place(best=1, worst=1), 'b': Place(best=2, worst=2)}
    >>> places_by_exit({"a": None, "b": None})
    Traceback (most recent call last):
    ...
    tournament.formats.errors.FormatError: 2 entrants never went out: an event has one champion
    """
    unbeaten = sum(stage is None for stage in exits.values())
    if unbeaten > 1:
        raise FormatError(
            f"{unbeaten} entrants never went out: an event has one champion",
            code="event-unfinished",
            field="exits",
        )
    return places_by_key({k: (1, 0) if stage is None else (0, stage) for k, stage in exits.items()})


def places_by_rank[K: Hashable](ranks: Mapping[K, int]) -> dict[K, Place]:
    """Places from standings' ranks (1 best; equal ranks tie).

    >>> places_by_rank({"a": 2, "b": 1})
    {'a': Place(best=2, worst=2), 'b': Place(best=1, worst=1)}
    """
    return places_by_key({k: (-rank,) for k, rank in ranks.items()})


def places_within[K: Hashable](places: Mapping[K, Place], entrants: Iterable[K]) -> dict[K, Place]:
    """The places of ``entrants`` among themselves (a side pool's players): their order
    in ``places`` kept, ties still shared.

    >>> places_within({"a": Place(1, 1), "b": Place(2, 2)}, ["z"])
    Traceback (most recent call last):
    ...
    tournament.formats.errors.FormatError: 'z' has no place
    """
    chosen = list(dict.fromkeys(entrants))
    for entrant in chosen:
        if entrant not in places:
            raise FormatError(f"{entrant!r} has no place", code="unknown-entrant", field="entrants")
    return places_by_key({k: (-places[k].best,) for k in chosen})
