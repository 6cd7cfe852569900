"""Standings: a pure ranking function with a registry of tie-breaks chosen per event.

Entrants are ranked by the event's tie-breaks in order (the first is the main
criterion, usually ``wins``). Each tie-break is applied only to the entrants still
tied on all the earlier ones; ``head_to_head`` is computed inside that tied group
(wins against the others in it). Entrants tied on every tie-break share a rank
(competition ranking: 1, 2, 2, 4) and are listed in the order the caller gave.

The registry (``TIEBREAKS``):

- ``wins``: matches won, byes included.
- ``points_diff``: match points won minus match points lost.
- ``opponents_wins``: the sum of the wins of every opponent met (Buchholz-like; byes
  add nothing, and an opponent met twice counts twice).
- ``head_to_head``: wins against the other entrants of the tied group.

>>> results = [MatchResult(1, 2, winner=1, points_a=7, points_b=3),
...            MatchResult(3, 4, winner=4, points_a=5, points_b=7),
...            MatchResult(1, 4, winner=4, points_a=6, points_b=7),
...            MatchResult(2, 3, winner=2, points_a=7, points_b=0)]
>>> for row in rank_entrants([1, 2, 3, 4], results, ["wins", "points_diff", "head_to_head"]):
...     print(row.rank, row.entrant, dict(row.values))
1 4 {'wins': 2, 'points_diff': 3, 'head_to_head': 0}
2 1 {'wins': 1, 'points_diff': 3, 'head_to_head': 1}
3 2 {'wins': 1, 'points_diff': 3, 'head_to_head': 0}
4 3 {'wins': 0, 'points_diff': -9, 'head_to_head': 0}
>>> [(row.rank, row.entrant) for row in rank_entrants([1, 2, 3, 4], results, ["wins"])]
[(1, 4), (2, 1), (2, 2), (4, 3)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tournament.formats.errors import FormatError
from tournament.formats.slots import EntrantId, check_unique


@dataclass(frozen=True)
class MatchResult:
    """A decided match: ``a`` against ``b`` (``None`` with ``bye``), its winner and points."""

    a: EntrantId
    b: EntrantId | None
    winner: EntrantId
    points_a: int = 0
    points_b: int = 0
    bye: bool = False


@dataclass
class Record:
    """What one entrant has done: the raw material of every tie-break."""

    wins: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0
    opponents: list[EntrantId] = field(default_factory=list)
    beaten: Counter[EntrantId] = field(default_factory=Counter)


type Records = Mapping[EntrantId, Record]
type TieBreakValues = dict[EntrantId, float]


@dataclass(frozen=True)
class TieBreak:
    """A named criterion: ``compute(records, tied_group)`` gives each entrant's value
    (higher ranks first)."""

    name: str
    label: str
    compute: Callable[[Records, Sequence[EntrantId]], TieBreakValues]


def _wins(records: Records, group: Sequence[EntrantId]) -> TieBreakValues:
    return {e: records[e].wins for e in group}


def _points_diff(records: Records, group: Sequence[EntrantId]) -> TieBreakValues:
    return {e: records[e].points_for - records[e].points_against for e in group}


def _opponents_wins(records: Records, group: Sequence[EntrantId]) -> TieBreakValues:
    return {e: sum(records[o].wins for o in records[e].opponents) for e in group}


def _head_to_head(records: Records, group: Sequence[EntrantId]) -> TieBreakValues:
    return {e: sum(records[e].beaten[o] for o in group if o != e) for e in group}


TIEBREAKS: dict[str, TieBreak] = {
    tb.name: tb
    for tb in (
        TieBreak("wins", "Wins", _wins),
        TieBreak("points_diff", "Points won minus lost", _points_diff),
        TieBreak("opponents_wins", "Opponents' wins", _opponents_wins),
        TieBreak("head_to_head", "Head to head", _head_to_head),
    )
}
"""Every tie-break an event may choose, by name."""

DEFAULT_TIEBREAKS = ("wins", "head_to_head", "points_diff", "opponents_wins")


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: shared ``rank`` when tied on every tie-break."""

    rank: int
    entrant: EntrantId
    values: Mapping[str, float]
    played: int
    wins: int
    losses: int


def rank_entrants(
    entrants: Sequence[EntrantId],
    results: Sequence[MatchResult],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[StandingRow]:
    """Rank ``entrants`` (given in a fixed order, e.g. by seed) from ``results``."""
    players = check_unique(entrants)
    chosen = _check_tiebreaks(tiebreaks)
    records = _records(players, results)
    values: dict[EntrantId, dict[str, float]] = {e: {} for e in players}

    def split(group: list[EntrantId], level: int) -> list[list[EntrantId]]:
        if level == len(chosen):
            return [group]
        tiebreak = chosen[level]
        computed = tiebreak.compute(records, group)
        for e in group:
            values[e][tiebreak.name] = computed[e]
        group = sorted(group, key=lambda e: -computed[e])
        result: list[list[EntrantId]] = []
        start = 0
        for end in range(1, len(group) + 1):
            if end == len(group) or computed[group[end]] != computed[group[start]]:
                result += split(group[start:end], level + 1)
                start = end
        return result

    rows: list[StandingRow] = []
    for tied in split(players, 0):
        rank = len(rows) + 1
        for e in tied:
            record = records[e]
            rows.append(
                StandingRow(
                    rank=rank,
                    entrant=e,
                    values=values[e],
                    played=len(record.opponents),
                    wins=record.wins,
                    losses=record.losses,
                )
            )
    return rows


def _check_tiebreaks(names: Sequence[str]) -> list[TieBreak]:
    if not names:
        raise FormatError("choose at least one tie-break", code="no-tiebreaks", field="tiebreaks")
    unknown = [name for name in names if name not in TIEBREAKS]
    if unknown:
        raise FormatError(
            f"unknown tie-break(s) {unknown}: choose from {sorted(TIEBREAKS)}",
            code="unknown-tiebreak",
            field="tiebreaks",
        )
    if len(set(names)) != len(names):
        raise FormatError(
            f"a tie-break is repeated in {list(names)}", code="repeated-tiebreak", field="tiebreaks"
        )
    return [TIEBREAKS[name] for name in names]


def _records(players: Sequence[EntrantId], results: Sequence[MatchResult]) -> dict[int, Record]:
    records = {e: Record() for e in players}
    for number, result in enumerate(results, start=1):
        _check_result(result, records, number)
        winner = records[result.winner]
        winner.wins += 1
        a = records[result.a]
        a.points_for += result.points_a
        a.points_against += result.points_b
        if result.b is None:
            continue
        b = records[result.b]
        b.points_for += result.points_b
        b.points_against += result.points_a
        a.opponents.append(result.b)
        b.opponents.append(result.a)
        loser = result.b if result.winner == result.a else result.a
        records[loser].losses += 1
        winner.beaten[loser] += 1
    return records


def _check_result(result: MatchResult, records: Mapping[int, Record], number: int) -> None:
    def bad(message: str) -> FormatError:
        return FormatError(f"result {number}: {message}", code="bad-result", field="results")

    if result.a not in records:
        raise bad(f"entrant {result.a} is not in the event")
    if result.bye:
        if result.b is not None or result.winner != result.a:
            raise bad("a bye has no opponent and is won by its entrant")
    else:
        if result.b is None or result.b == result.a:
            raise bad("a match needs two different entrants")
        if result.b not in records:
            raise bad(f"entrant {result.b} is not in the event")
        if result.winner not in (result.a, result.b):
            raise bad(f"the winner {result.winner} did not play in it")
    if result.points_a < 0 or result.points_b < 0:
        raise bad("points cannot be negative")
