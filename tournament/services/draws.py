"""The draw: order the field (random with a public seed, by rating, or by hand) and lay
out the event's rounds and matches, with the Consolations its Main feeds."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import refuse
from matches.models import Game, Match, Submission
from tournament import page_cache, pairing_log
from tournament.formats.draw import Draw as DrawnField
from tournament.formats.draw import DrawEntrant, make_draw
from tournament.formats.pairing import keep_apart_in_round_one
from tournament.formats.round_robin import round_robin_apart
from tournament.formats.single_elimination import first_round
from tournament.formats.slots import Pairing
from tournament.models import Draw, Entry, Event, ForbiddenPair, PairingNote, Round, User
from tournament.selectors.brackets import feed_in
from tournament.services.auto_start import event_matches_start_ready
from tournament.services.common import ACTIVE, event_lock, formats_errors
from tournament.services.rounds import same_club_pairs, swiss_pair_round, swiss_rounds_default
from tournament.services.structure import (
    Layout,
    lay_out_consolation,
    lay_out_double,
    lay_out_first_round,
    lay_out_single,
)

#: Random seeds stay below 2**53 so that JSON clients (JavaScript numbers) read them exactly.
MAX_SEED = 2**53 - 1
METHODS = ("random", "rating", "manual")


@dataclass(frozen=True)
class _Drawn:
    """What the draw needs of an entry (plain values: a thousand model instances are slow)."""

    pk: int
    player_id: int
    name: str
    rating: float
    seed: int | None
    status: str


def _field(event: Event) -> list[_Drawn]:
    """Who is drawn: the checked-in players once anyone has checked in, else every
    registered player."""
    rows = event.entries.filter(status__in=ACTIVE).values_list(
        "pk", "player_id", "player__name", "player__rating", "seed", "status"
    )
    entries = [_Drawn(*row) for row in rows]
    if any(e.status == Entry.Status.CHECKED_IN for e in entries):
        entries = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    return entries


def draw_make(
    *,
    event: Event,
    method: str = "random",
    seed: int | None = None,
    order: Sequence[int] | None = None,
    by: User | None = None,
    tables: bool = False,
) -> Draw:
    """Make (or, before any round starts, make again) the draw of ``event``.

    ``method``: ``random`` (``seed`` makes it repeatable; one is chosen and kept
    otherwise), ``rating`` (best rated first) or ``manual`` (``order``: player ids
    best seed first; without it, the seeds given at registration). Elimination
    events get all their rounds, and a Main lays out the Consolations it feeds;
    a Swiss event gets round 1 paired; a round robin its whole schedule.
    ``tables``: number the tables of round 1 at once, in bracket order, so that the
    players are told their table with their match (an event whose matches start as
    soon as both players are known opens round 1 with the draw).
    """
    if method not in METHODS:
        raise refuse(
            _("Unknown draw method {method!r}: choose random, rating or manual.").format(
                method=method
            ),
            code="invalid",
            field="method",
        )
    with transaction.atomic():
        event_lock(event.pk)  # with the Consolations it feeds (see event_lock)
        event = Event.objects.get(pk=event.pk)
        fed = list(Event.objects.filter(feeds_from=event).order_by("pk"))
        _check_drawable(event, fed)
        entries = _field(event)
        if len(entries) < 2:
            raise refuse(
                _("{event_name} needs at least 2 players to draw, it has {len_entries}.").format(
                    event_name=event.name, len_entries=len(entries)
                ),
                code="too-few-entrants",
            )
        drawn = _order(event, entries, method=method, seed=seed, order=order)
        seeded = list(drawn.order)
        apart_swaps = 0
        if not event.is_swiss and event.format != Event.Format.ROUND_ROBIN:
            seeded, apart_swaps = _bracket_apart(event, seeded)
        _check_feeds(fed, len(seeded))
        _clear_layout([event, *fed])
        _set_seeds(event, seeded)
        now = timezone.now()
        if event.is_swiss:
            if event.format == Event.Format.SWISS and not event.rounds_planned:
                event.rounds_planned = swiss_rounds_default(len(seeded))
            if _has_prohibitions(event):
                swiss_pair_round(event=event, number=1, first_round=drawn.first_round, by=by)
            else:
                _lay_out_league_round(event, 1, drawn.first_round)
        elif event.format == Event.Format.ROUND_ROBIN:
            _lay_out_round_robin(event, seeded)
        else:
            layout = Layout(event, now)
            with formats_errors():
                if event.format == Event.Format.DOUBLE_ELIMINATION:
                    lay_out_double(layout, seeded)
                else:
                    lay_out_single(layout, seeded)
            layout.save()
            for consolation in fed:
                fed_layout = Layout(consolation, now)
                lay_out_consolation(fed_layout, len(seeded))
                fed_layout.save()
                consolation.status = Event.Status.DRAWN
                consolation.save(update_fields=["status"])
        event.status = Event.Status.DRAWN
        event.save(update_fields=["status", "rounds_planned"])
        for drawn_event in (event, *fed):
            event_matches_start_ready(event=drawn_event, now=now)
        if tables:
            from tournament.services.tables import round_tables_assign

            for first in Round.objects.filter(event=event, number=1).order_by("bracket", "pk"):
                round_tables_assign(round_=first, by=by, waiting_too=True, tell=False)
        if apart_swaps:
            PairingNote.objects.create(
                event=event,
                round_number=1,
                text=pairing_log.draw_swaps(apart_swaps),
                by=by if by is not None and by.is_authenticated else None,
            )
        draw = Draw.objects.create(
            event=event,
            method=method,
            seed=drawn.seed,
            log=drawn.log,
            made_by=by if by is not None and by.is_authenticated else None,
        )
        for drawn_event in (event, *fed):
            page_cache.invalidate_event_on_commit(drawn_event.pk, drawn_event.tournament_id)
    return draw


def _check_drawable(event: Event, fed: list[Event]) -> None:
    if event.feeds_from_id is not None:
        raise refuse(
            _("{event_name} is laid out with the draw of the event that feeds it.").format(
                event_name=event.name
            ),
            code="fed-event",
        )
    if event.status not in (Event.Status.REGISTRATION, Event.Status.DRAWN):
        raise refuse(
            _(
                "{event_name} is {event_get_status_display_lower}: it can no longer be drawn."
            ).format(
                event_name=event.name,
                event_get_status_display_lower=event.status_in_text(),
            ),
            code="event-running",
        )
    if Round.objects.filter(event__in=[event, *fed]).exclude(status=Round.Status.PENDING).exists():
        raise refuse(
            _("A round of {event_name} has started: the draw can no longer change.").format(
                event_name=event.name
            ),
            code="round-started",
        )


def _order(
    event: Event,
    entries: Sequence[_Drawn],
    *,
    method: str,
    seed: int | None,
    order: Sequence[int] | None,
) -> DrawnField:
    """The seeding by ``formats.draw`` (entry ids), with its public log.

    ``order`` names players (the API's ids); a manual draw without one follows the
    seeds given at registration, then rating.
    """
    entrant = {e.pk: DrawEntrant(e.pk, " ".join(e.name.split()), e.rating) for e in entries}
    by_player = {e.player_id: e.pk for e in entries}
    entry_order: list[int] | None = None
    if method == "manual":
        if order:
            unknown = [p for p in order if p not in by_player]
            if unknown:
                raise refuse(
                    _("Player(s) {unknown_10} are not in the drawn field of {event_name}.").format(
                        unknown_10=unknown[:10], event_name=event.name
                    ),
                    code="bad-order",
                    field="order",
                )
            repeated = (
                sorted({p for p in order if order.count(p) > 1})
                if len(set(order)) < len(order)
                else []
            )
            missing = [p for p in by_player if p not in set(order)]
            if repeated or missing:
                problem = (
                    _("named twice: {ids}").format(ids=repeated[:10])
                    if repeated
                    else _("missing: {ids}").format(ids=missing[:10])
                )
                raise refuse(
                    _(
                        "The order must name every drawn player once (player ids); {problem}."
                    ).format(problem=problem),
                    code="bad-order",
                    field="order",
                )
            entry_order = [by_player[p] for p in order]
        else:
            entry_order = [
                e.pk
                for e in sorted(
                    entries,
                    key=lambda e: (e.seed is None, e.seed or 0, -e.rating, e.player_id),
                )
            ]
    elif order:
        raise refuse(_("Only a manual draw takes an order."), code="bad-order", field="order")
    if method == "random":
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise refuse(
                _("A draw seed is a whole number from 0 to {MAX_SEED}.").format(MAX_SEED=MAX_SEED),
                code="invalid",
                field="seed",
            )
    elif seed is not None:
        raise refuse(_("Only a random draw takes a seed."), code="bad-seed", field="seed")
    with formats_errors():
        return make_draw(
            [entrant[pk] for pk in sorted(entrant)],
            method=method,
            seed=seed,
            order=entry_order,
            format=event.format,
        )


def _check_feeds(fed: list[Event], entrants: int) -> None:
    for consolation in fed:
        with formats_errors():
            feed_in(entrants, tuple(consolation.feed_rounds))


def _set_seeds(event: Event, entry_ids: Sequence[int]) -> None:
    """Each drawn entry's seed becomes its place in the draw (1 = top of the sheet's order).

    One statement (``unnest`` on PostgreSQL, ``CASE`` per 400 entries elsewhere):
    ``bulk_update`` takes most of a second to compile the same for a thousand entries.
    """
    event.entries.update(seed=None)
    table = connection.ops.quote_name(Entry._meta.db_table)
    ids = list(entry_ids)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} AS e SET seed = v.seed "
                "FROM unnest(%s::bigint[], %s::integer[]) AS v(id, seed) WHERE e.id = v.id",
                [ids, list(range(1, len(ids) + 1))],
            )
            return
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            cases = " ".join("WHEN %s THEN %s" for _ in chunk)
            marks = ", ".join("%s" for _ in chunk)
            params: list[int] = []
            for place, pk in enumerate(chunk, start=start + 1):
                params += [pk, place]
            cursor.execute(
                f"UPDATE {table} SET seed = CASE id {cases} END WHERE id IN ({marks})",
                [*params, *chunk],
            )


def _clear_layout(events: Sequence[Event]) -> None:
    """Remove the rounds and matches of a draw made again (no round has started, so no
    game, report or rating refers to them; checked all the same)."""
    matches = Match.objects.filter(event__in=events)
    if (
        Game.objects.filter(match__in=matches).exists()
        or Submission.objects.filter(match__in=matches).exists()
    ):
        Round.objects.filter(event__in=events).delete()  # the slow path keeps cascades right
        return
    match_table = connection.ops.quote_name(Match._meta.db_table)
    round_table = connection.ops.quote_name(Round._meta.db_table)
    ids = [e.pk for e in events]
    marks = ", ".join("%s" for _ in ids)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {match_table} WHERE event_id IN ({marks})", ids)
        cursor.execute(f"DELETE FROM {round_table} WHERE event_id IN ({marks})", ids)


def _bracket_apart(event: Event, seeded: list[int]) -> tuple[list[int], int]:
    """A bracket's seeding with its forbidden pairs, and same-club pairs when the event
    keeps clubs apart in round 1, kept out of round-1 matches where the draw allows
    (``formats.pairing.keep_apart_in_round_one``)."""
    entry_of = dict(Entry.objects.filter(pk__in=seeded).values_list("player_id", "pk").order_by())
    apart = {
        frozenset((entry_of[a], entry_of[b]))
        for a, b in event.forbidden_pairs.values_list("player_a_id", "player_b_id")
        if a in entry_of and b in entry_of
    }
    apart |= same_club_pairs(event, seeded)
    if not apart:
        return seeded, 0
    with formats_errors():
        return keep_apart_in_round_one(seeded, apart, first_round)


def _has_prohibitions(event: Event) -> bool:
    return event.avoid_same_club_first_round or event.forbidden_pairs.exists()


def _round_robin_apart(
    event: Event, entry_ids: Sequence[int]
) -> tuple[set[frozenset[int]], set[frozenset[int]]]:
    """The pairs of a round robin that are not played (its absolute prohibitions of
    every round: everyone else meets everyone), and those kept out of round 1 (every
    other prohibition, and same-club pairs when the event keeps clubs apart)."""
    entry_of = dict(
        Entry.objects.filter(pk__in=list(entry_ids)).values_list("player_id", "pk").order_by()
    )
    never: set[frozenset[int]] = set()
    later: set[frozenset[int]] = set()
    for a, b, strength, rounds in event.forbidden_pairs.values_list(
        "player_a_id", "player_b_id", "strength", "rounds"
    ):
        if a in entry_of and b in entry_of:
            pair = frozenset((entry_of[a], entry_of[b]))
            absolute = strength == ForbiddenPair.Strength.ABSOLUTE
            (never if absolute and rounds == ForbiddenPair.Rounds.ALL else later).add(pair)
    return never, (later | same_club_pairs(event, entry_ids)) - never


def _lay_out_league_round(event: Event, number: int, pairings: Sequence[Pairing]) -> None:
    """Round ``number`` of a Swiss event from its pairings (a bye as ``(player, None)``)."""
    layout = Layout(event, timezone.now())
    index = layout.round(
        bracket=Round.Bracket.MAIN,
        number=number,
        name=f"Round {number}",
        length=event.length_for_round(number),
    )
    lay_out_first_round(layout, [index], pairings)
    layout.save()


def _lay_out_round_robin(event: Event, entry_ids: Sequence[int]) -> None:
    """The whole schedule; whoever faces the bye sits the round out (no match)."""
    apart, later = _round_robin_apart(event, entry_ids)
    with formats_errors():
        schedule, _ = round_robin_apart(entry_ids, later)
    layout = Layout(event, timezone.now())
    for number, pairings in enumerate(schedule, start=1):
        index = layout.round(
            bracket=Round.Bracket.MAIN,
            number=number,
            name=f"Round {number}",
            length=event.length_for_round(number),
        )
        played = [
            (a, b)
            for a, b in pairings
            if a is not None and b is not None and frozenset((a, b)) not in apart
        ]
        for slot, (upper, lower) in enumerate(played):
            layout.match(index, slot, entry1_id=upper, entry2_id=lower)
    layout.save()
    event.rounds_planned = len(schedule)
