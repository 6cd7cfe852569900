"""Series points: what each event of a season is worth to each player (pure Python).

Two schemes, chosen per series:

**Master points** (USBGF-style: match wins weighted by the square root of their
length, placement weighted by field size). A player's points for one event are::

    weight(kind) * ( sum(sqrt(length) for each match won over the board)
                     + sqrt(first_length) * max(0, log2(field / place)) )

* ``sqrt(length)``: a longer match is stronger evidence of skill in the same
  proportion the FIBS rating formula uses, so an 11-point win is worth
  ``sqrt(11/7) = 1.25`` wins of 7 points. Byes, forfeits and walkovers are not wins
  over the board and earn nothing here; the placement term already counts the
  progress they gave.
* ``log2(field / place)``: each doubling of the field is worth one more round. In a
  knock-out of ``2**k`` players this is exactly the number of rounds a player
  survived (champion ``k``, finalist ``k - 1``, semi-finalists ``k - 2``...). The
  points fall by one each time the place doubles, to none for the last place. A tie is counted at its
  bottom place (the place the player has secured), which is what makes the
  knock-out identity hold and keeps a running event's provisional points honest:
  after round 1 of 16 the eight winners share places 1-8 and hold ``log2(16/8) = 1``.
* ``sqrt(first_length)`` puts placement on the same scale as the wins: a
  knock-out champion at one length earns as much for placing as for winning.
* ``weight(kind)``: the Main counts fully; Consolation, Last Chance and side
  events count half, as their fields are the Main's losers or smaller side games.

**Table**: the director's list of points by final place (1st, 2nd, ...), also
weighted by kind. Players tied over several places share those places' points
equally (two semi-final losers tied for 3rd-4th each get the mean of the 3rd and
4th entries); places past the end of the table get nothing.

>>> round(master_points(won_lengths=[7, 7, 7, 7], place=1, field=16, first_length=7), 3)
21.166
>>> master_points(won_lengths=[], place=16, field=16, first_length=7)
0.0
>>> table_points([25, 15, 10, 10, 5], best=3, worst=4)
10.0
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

KIND_WEIGHTS: Mapping[str, float] = {
    "main": 1.0,
    "consolation": 0.5,
    "last-chance": 0.5,
    "side": 0.5,
}
"""How much an event of each kind counts in a series."""

MASTER_POINTS = "master-points"
TABLE = "table"


def kind_weight(kind: str) -> float:
    """The weight of an event of ``kind``; an unknown kind counts like a side event.

    >>> kind_weight("main"), kind_weight("consolation")
    (1.0, 0.5)
    """
    return KIND_WEIGHTS.get(kind, KIND_WEIGHTS["side"])


def places[K: Hashable](records: Mapping[K, Sequence[float]]) -> dict[K, tuple[int, int]]:
    """Each player's place as ``(best, worst)`` from records compared greater-is-better.

    Tied players share the places their tie spans:

    >>> places({"ann": (3,), "bob": (1,), "cy": (1,), "dee": (0,)})
    {'ann': (1, 1), 'bob': (2, 3), 'cy': (2, 3), 'dee': (4, 4)}
    """
    as_tuples = {key: tuple(record) for key, record in records.items()}
    counts: dict[tuple[float, ...], int] = {}
    for record in as_tuples.values():
        counts[record] = counts.get(record, 0) + 1
    above = 0
    spans: dict[tuple[float, ...], tuple[int, int]] = {}
    for record in sorted(counts, reverse=True):
        spans[record] = (above + 1, above + counts[record])
        above += counts[record]
    return {key: spans[record] for key, record in as_tuples.items()}


def master_points(
    *,
    won_lengths: Sequence[int],
    place: int,
    field: int,
    first_length: int,
    weight: float = 1.0,
) -> float:
    """Master points for one event (see the module's documentation).

    >>> master_points(won_lengths=[11], place=8, field=16, first_length=11) == 2 * 11**0.5
    True
    >>> master_points(won_lengths=[5], place=2, field=1, first_length=5)
    Traceback (most recent call last):
    ...
    ValueError: place 2 is outside a field of 1
    """
    if field < 1 or not 1 <= place <= field:
        raise ValueError(f"place {place} is outside a field of {field}")
    wins = sum(math.sqrt(length) for length in won_lengths)
    placing = math.sqrt(first_length) * max(0.0, math.log2(field / place))
    return weight * (wins + placing)


def table_points(table: Sequence[float], *, best: int, worst: int, weight: float = 1.0) -> float:
    """The table's points for places ``best``..``worst`` (a tie), shared equally.

    >>> table_points([10, 6, 4], best=2, worst=5)
    2.5
    >>> table_points([10, 6, 4], best=7, worst=7)
    0.0
    """
    if not 1 <= best <= worst:
        raise ValueError(f"places {best}..{worst} are not a range of places")
    spanned = [float(table[p - 1]) if p <= len(table) else 0.0 for p in range(best, worst + 1)]
    return weight * sum(spanned) / len(spanned)


@dataclass(frozen=True)
class EventResult[K: Hashable]:
    """What one player did in one event: the record that ranks them and their wins' lengths.

    ``record`` compares greater-is-better (e.g. ``(is_champion, wins, points_diff)``).
    """

    player: K
    record: tuple[float, ...]
    won_lengths: tuple[int, ...]


def event_points[K: Hashable](
    results: Sequence[EventResult[K]],
    *,
    scheme: str,
    kind: str,
    first_length: int,
    table: Sequence[float] = (),
) -> dict[K, float]:
    """Every player's series points for one event.

    >>> results = [EventResult("a", (2,), (7, 7)), EventResult("b", (1,), (7,)),
    ...            EventResult("c", (0,), ()), EventResult("d", (0,), ())]
    >>> {k: round(v, 2) for k, v in event_points(results, scheme="master-points",
    ...                                           kind="main", first_length=7).items()}
    {'a': 10.58, 'b': 5.29, 'c': 0.0, 'd': 0.0}
    >>> event_points(results, scheme="table", kind="side", first_length=7, table=[10, 6, 2])
    {'a': 5.0, 'b': 3.0, 'c': 0.5, 'd': 0.5}
    """
    weight = kind_weight(kind)
    ranked = places({r.player: r.record for r in results})
    field = len(results)
    points: dict[K, float] = {}
    for result in results:
        best, worst = ranked[result.player]
        if scheme == MASTER_POINTS:
            points[result.player] = master_points(
                won_lengths=result.won_lengths,
                place=worst,
                field=field,
                first_length=first_length,
                weight=weight,
            )
        elif scheme == TABLE:
            points[result.player] = table_points(table, best=best, worst=worst, weight=weight)
        else:
            raise ValueError(f"unknown series scheme {scheme!r}")
    return points


@dataclass(frozen=True)
class Standing[K: Hashable]:
    """One line of a series leaderboard."""

    rank: int
    player: K
    points: float
    events: int


def leaderboard[K: Hashable](
    per_event: Sequence[Mapping[K, float]], *, order: Sequence[K] = ()
) -> list[Standing[K]]:
    """Sum each player's points over the events, best first; equal totals share a rank.

    ``order`` breaks ties for display only (e.g. by name); ranks stay shared.

    >>> [(s.rank, s.player, s.points, s.events) for s in leaderboard(
    ...     [{"a": 3.0, "b": 1.0}, {"b": 2.0, "c": 3.0}], order=["c", "b", "a"])]
    [(1, 'c', 3.0, 1), (1, 'b', 3.0, 2), (1, 'a', 3.0, 1)]
    """
    totals: dict[K, float] = {}
    counts: dict[K, int] = {}
    for points in per_event:
        for player, value in points.items():
            totals[player] = totals.get(player, 0.0) + value
            counts[player] = counts.get(player, 0) + 1
    position = {player: i for i, player in enumerate(order)}
    rounded = {player: round(total, 6) for player, total in totals.items()}
    players = sorted(totals, key=lambda p: (-rounded[p], position.get(p, len(position))))
    standings: list[Standing[K]] = []
    for i, player in enumerate(players):
        same = standings and rounded[standings[-1].player] == rounded[player]
        rank = standings[-1].rank if same else i + 1
        standings.append(Standing(rank, player, totals[player], counts[player]))
    return standings
