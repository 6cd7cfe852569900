"""Final places and prizes of a finished event (read only, a fixed number of queries).

Elimination events place by the round each player went out in (``formats.places``):
single elimination by the round lost; double elimination by the last loss, the losers
bracket after the main one and the grand final last. A Consolation or Last Chance is an
event of its own, placed on its own. Swiss and round robin place by their standings;
an elimination Swiss by its playoff (if one was played), then the round each player
went out in, then the record (``selectors.elimination_places_of``; with cashing on the
last loss, the players out in the round the field dropped to the places paid share).

Prizes (``formats.prizes``): the pool is the entry fee of each placed entry paid by
cash, transfer or online (a waived fee adds nothing; a player never drawn, withdrawn
before the draw, is not in it) plus the added money, shared by the
event's payout split and rounded down to its prize unit; the remainder is stated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from matches.models import Match
from matches.names import tell_apart
from tournament.formats.places import Place, places_by_exit, places_by_rank, places_within
from tournament.formats.prizes import payouts, prize_pool
from tournament.models import Entry, Event, Round, SidePool
from tournament.selectors import elimination_places_of, in_field, standings

LEAGUES = (Event.Format.SWISS, Event.Format.SWISS_ELIMINATION, Event.Format.ROUND_ROBIN)
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
class Collected:
    """The entry fees taken by one method: how many, how much."""

    method: str
    label: str
    count: int
    amount: Decimal


@dataclass(frozen=True)
class Payments:
    """Where the event's money went: fees collected by method (and the side pools'
    stakes), fees refunded to players who withdrew before the draw (or were never
    drawn), the organiser's added money, prizes paid out, and what is kept (the pools'
    remainders): ``collected - refunded + added - paid_out == kept``."""

    by_method: list[Collected]
    waived: int
    side_stakes: Decimal
    collected: Decimal
    refunded: Decimal
    refunded_to: list[Entry]
    added: Decimal
    paid_out: Decimal
    kept: Decimal


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
    payments: Payments | None = None

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
        e.pk: e for e in in_field(event.entries.all()).select_related("player").order_by("pk")
    }
    tell_apart(entries.values())  # ``told``: namesakes told apart on the sheet
    if event.is_elimination_swiss:
        places = elimination_places_of(event, among=entries)
    elif event.format in LEAGUES:
        places = places_by_rank({row.entry.pk: row.rank for row in standings(event)})
    else:
        places = _knockout_places(event, entries)
    paid = sum(1 for pk in places if pk in entries and entries[pk].paid in PAYING)
    pool = prize_pool(entry_fee=event.entry_fee, paid_entries=paid, added=event.added_money)
    payout = payouts(
        places, pool=pool, split=event.payout_split or [], unit=max(1, event.prize_unit)
    )
    placed = [(pk, place) for pk, place in places.items() if pk in entries]
    rows = [
        FinalRow(entries[pk], place, payout.amounts.get(pk))
        for pk, place in sorted(placed, key=lambda kv: (kv[1], entries[kv[0]].player.name))
    ]
    sides = [_side_pool(side, places, entries, event.prize_unit) for side in event.side_pools.all()]
    money = _payments(event, set(places), payout.paid_out, payout.remainder, sides)
    return FinalSheet(event, rows, pool, paid, payout.paid_out, payout.remainder, sides, money)


def _payments(
    event: Event,
    placed: set[int],
    paid_out: Decimal,
    remainder: Decimal,
    sides: list[SidePoolSheet],
) -> Payments:
    """The event's payments summary (one query: every entry's payment and status)."""
    fee = event.entry_fee or Decimal(0)
    labels = Entry.PAYMENT_IN_TEXT
    counts: dict[str, int] = dict.fromkeys(PAYING, 0)
    waived = 0
    refunded_to: list[Entry] = []
    for entry in event.entries.exclude(paid="").select_related("player").order_by("pk"):
        if entry.paid == Entry.Payment.WAIVED:
            waived += 1
            continue
        counts[entry.paid] = counts.get(entry.paid, 0) + 1
        if entry.pk not in placed:  # withdrawn before the draw, or never drawn
            refunded_to.append(entry)
    by_method = [
        Collected(method, str(labels.get(method, method)), count, fee * count)
        for method, count in counts.items()
        if count
    ]
    side_stakes = sum((side.total for side in sides), Decimal(0))
    collected = sum((c.amount for c in by_method), Decimal(0)) + side_stakes
    refunded = fee * len(refunded_to)
    out = paid_out + sum((side.paid_out for side in sides), Decimal(0))
    kept = remainder + sum((side.remainder for side in sides), Decimal(0))
    return Payments(
        by_method,
        waived,
        side_stakes,
        collected,
        refunded,
        refunded_to,
        event.added_money or Decimal(0),
        out,
        kept,
    )


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
