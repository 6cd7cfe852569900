"""The draw: order the field (random with a public seed, by rating, or by hand) and lay
out the event's rounds and matches, with the Consolations its Main feeds."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from tournament.models import Draw, Entry, Event, Round, User
from tournament.services.brackets import feed_in
from tournament.services.common import ACTIVE, formats_errors, refuse
from tournament.services.draw_order import DrawOrder, order_field
from tournament.services.rounds import swiss_pair_round, swiss_rounds_default
from tournament.services.structure import (
    Layout,
    lay_out_consolation,
    lay_out_double,
    lay_out_single,
    round_robin_schedule,
)

METHODS = ("random", "rating", "manual")


def _field(event: Event) -> list[Entry]:
    """Who is drawn: the checked-in players once anyone has checked in, else every
    registered player."""
    entries = list(event.entries.filter(status__in=ACTIVE).select_related("player"))
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
) -> Draw:
    """Make (or, before any round starts, make again) the draw of ``event``.

    ``method``: ``random`` (``seed`` makes it repeatable; one is chosen and kept
    otherwise), ``rating`` (best rated first) or ``manual`` (``order``: player ids
    best seed first; without it, the seeds given at registration). Elimination
    events get all their rounds, and a Main lays out the Consolations it feeds;
    a Swiss event gets round 1 paired; a round robin its whole schedule.
    """
    if method not in METHODS:
        raise refuse(
            f"Unknown draw method {method!r}: choose random, rating or manual.",
            code="invalid",
            field="method",
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        fed = list(Event.objects.select_for_update().filter(feeds_from=event))
        _check_drawable(event, fed)
        entries = _field(event)
        drawn = order_field(entries, method=method, seed=seed, order=order, event=event)
        _check_field(event, fed, len(drawn.entry_ids))
        Round.objects.filter(event__in=[event, *fed]).delete()
        _set_seeds(event, drawn.entry_ids)
        now = timezone.now()
        if event.format == Event.Format.SWISS:
            if not event.rounds_planned:
                event.rounds_planned = swiss_rounds_default(len(drawn.entry_ids))
            swiss_pair_round(event=event, number=1)
        elif event.format == Event.Format.ROUND_ROBIN:
            _lay_out_round_robin(event, drawn.entry_ids)
        else:
            layout = Layout(event, now)
            with formats_errors():
                if event.format == Event.Format.DOUBLE_ELIMINATION:
                    lay_out_double(layout, drawn.entry_ids)
                else:
                    lay_out_single(layout, drawn.entry_ids)
            layout.save()
            for consolation in fed:
                fed_layout = Layout(consolation, now)
                lay_out_consolation(fed_layout, len(drawn.entry_ids))
                fed_layout.save()
                consolation.status = Event.Status.DRAWN
                consolation.save(update_fields=["status"])
        event.status = Event.Status.DRAWN
        event.save(update_fields=["status", "rounds_planned"])
        draw = Draw.objects.create(
            event=event,
            method=method,
            seed=drawn.seed,
            log=drawn.log,
            made_by=by if by is not None and by.is_authenticated else None,
        )
    return draw


def _check_drawable(event: Event, fed: list[Event]) -> None:
    if event.feeds_from_id is not None:
        raise refuse(
            f"{event.name} is laid out with the draw of the event that feeds it.",
            code="fed-event",
        )
    if event.status not in (Event.Status.REGISTRATION, Event.Status.DRAWN):
        raise refuse(
            f"{event.name} is {event.get_status_display().lower()}: it can no longer be drawn.",
            code="event-running",
        )
    if Round.objects.filter(event__in=[event, *fed]).exclude(status=Round.Status.PENDING).exists():
        raise refuse(
            f"A round of {event.name} has started: the draw can no longer change.",
            code="round-started",
        )


def _check_field(event: Event, fed: list[Event], entrants: int) -> None:
    if entrants < 2:
        raise refuse(
            f"{event.name} needs at least 2 players to draw, it has {entrants}.",
            code="too-few-entrants",
        )
    for consolation in fed:
        with formats_errors():
            feed_in(entrants, tuple(consolation.feed_rounds))


def _set_seeds(event: Event, entry_ids: Sequence[int]) -> None:
    """Each drawn entry's seed becomes its place in the draw (1 = top of the sheet's order)."""
    event.entries.update(seed=None)
    entries = [Entry(pk=pk, seed=place) for place, pk in enumerate(entry_ids, start=1)]
    Entry.objects.bulk_update(entries, ["seed"], batch_size=500)


def _lay_out_round_robin(event: Event, entry_ids: Sequence[int]) -> None:
    schedule = round_robin_schedule(entry_ids)
    layout = Layout(event, timezone.now())
    for number, pairings in enumerate(schedule, start=1):
        index = layout.round(
            bracket=Round.Bracket.MAIN,
            number=number,
            name=f"Round {number}",
            length=event.length_for_round(number),
        )
        slot = 0
        for upper, lower in pairings:
            if upper is not None and lower is not None:
                layout.match(index, slot, entry1_id=upper, entry2_id=lower)
                slot += 1
    layout.save()
    event.rounds_planned = len(schedule)


__all__ = ["DrawOrder", "draw_make"]
