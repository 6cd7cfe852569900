"""Final places and prizes of a finished event (read only, a fixed number of queries).

Elimination events place by the round each player went out in (``formats.places``):
single elimination by the round lost; double elimination by the last loss, the losers
bracket after the main one and the grand final last. A Consolation or Last Chance is an
event of its own, placed on its own. Swiss and round robin place by their standings.

Prizes (``formats.prizes``): the pool is the entry fee of each placed entry paid by
cash, transfer or online (a waived fee adds nothing; a player never drawn, withdrawn
before the draw, is not in it) plus the added money, shared by the
event's payout split and rounded down to its prize unit; the remainder is stated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from matches.models import Match
from tournament.formats.places import Place, places_by_exit, places_by_rank, places_within
from tournament.formats.prizes import payouts, prize_pool
from tournament.models import Entry, Event, Round, SidePool
from tournament.selectors import OFF_LIST, standings

LEAGUES = (Event.Format.SWISS, Event.Format.ROUND_ROBIN)
#: Payments that bring money into the pool.
PAYING = (Entry.Payment.CASH, Entry.Payment.TRANSFER, Entry.Payment.ONLINE)
_STAGE_BASE: dict[str, int] = {
    Round.Bracket.MAIN: 0,
    Round.Bracket.LOSERS: 100,
    Round.Bracket.FINAL: 1000,
}


@dataclass(frozen=True)
class FinalRow:
    """One player's final place and prize (``None``: no prize)."""

    entry: Entry
    place: Place
    prize: Decimal | None


@dataclass(frozen=True)
class SidePoolSheet:
    """A side pool at the end: its players' places among themselves and their prizes."""

    pool: SidePool
    rows: list[FinalRow]
    total: Decimal
    paid_out: Decimal
    remainder: Decimal


@dataclass(frozen=True)
class FinalSheet:
    """An event's final places, best first, with the pool and what is left of it."""

    event: Event
    rows: list[FinalRow] = field(default_factory=list)
    pool: Decimal = Decimal(0)
    paid_entries: int = 0
    paid_out: Decimal = Decimal(0)
    remainder: Decimal = Decimal(0)
    side_pools: list[SidePoolSheet] = field(default_factory=list)

    @property
    def has_prizes(self) -> bool:
        return self.paid_out > 0

    def row_of(self, entry_id: int) -> FinalRow | None:
        return next((r for r in self.rows if r.entry.pk == entry_id), None)


def _knockout_places(event: Event, entries: dict[int, Entry]) -> dict[int, Place]:
    """Places by the stage each seated entry went out at (3 queries)."""
    seated: set[int] = set()
    exits: dict[int, int | None] = {}
    decided = Match.objects.filter(event=event).values_list(
        "entry1_id", "entry2_id", "winner_id", "status", "is_bye", "round__bracket", "round__number"
    )
    for entry1, entry2, winner, status, is_bye, bracket, number in decided:
        seated.update(e for e in (entry1, entry2) if e is not None)
        if status != Match.Status.COMPLETE or winner is None or is_bye:
            continue
        loser = entry2 if winner == entry1 else entry1
        if loser is None:
            continue
        stage = _STAGE_BASE.get(bracket, 0) + int(number)
        if event.format == Event.Format.SINGLE_ELIMINATION and bracket != Round.Bracket.MAIN:
            continue
        exits[loser] = max(exits.get(loser) or 0, stage)
    field_ = {pk for pk in seated if pk in entries}
    by_exit: dict[int, int | None] = {pk: exits.get(pk, 0) for pk in field_}
    if event.champion_id in by_exit:
        by_exit[event.champion_id] = None
    if sum(v is None for v in by_exit.values()) != 1:
        return {}
    return places_by_exit(by_exit)


def event_final(event: Event) -> FinalSheet | None:
    """The event's final sheet once it is finished; None before."""
    if event.status != Event.Status.FINISHED:
        return None
    entries = {
        e.pk: e
        for e in event.entries.exclude(status__in=OFF_LIST).select_related("player").order_by("pk")
    }
    if event.format in LEAGUES:
        places = places_by_rank({row.entry.pk: row.rank for row in standings(event)})
    else:
        places = _knockout_places(event, entries)
    paid = sum(1 for pk in places if pk in entries and entries[pk].paid in PAYING)
    pool = prize_pool(entry_fee=event.entry_fee, paid_entries=paid, added=event.added_money)
    payout = payouts(
        places, pool=pool, split=event.payout_split or [], unit=max(1, event.prize_unit)
    )
    rows = [
        FinalRow(entries[pk], place, payout.amounts.get(pk))
        for pk, place in sorted(places.items(), key=lambda kv: (kv[1], entries[kv[0]].player.name))
        if pk in entries
    ]
    sides = [_side_pool(side, places, entries, event.prize_unit) for side in event.side_pools.all()]
    return FinalSheet(event, rows, pool, paid, payout.paid_out, payout.remainder, sides)


def _side_pool(
    side: SidePool, places: dict[int, Place], entries: dict[int, Entry], unit: int
) -> SidePoolSheet:
    """A side pool's players placed among themselves; the pool is their stakes."""
    players = [e.pk for e in side.entries.all() if e.pk in places]
    within = places_within(places, players)
    total = side.stake * len(players)
    payout = payouts(within, pool=total, split=side.payout_split or [], unit=max(1, unit))
    rows = [
        FinalRow(entries[pk], place, payout.amounts.get(pk))
        for pk, place in sorted(within.items(), key=lambda kv: (kv[1], entries[kv[0]].player.name))
    ]
    return SidePoolSheet(side, rows, total, payout.paid_out, payout.remainder)
