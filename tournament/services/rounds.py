"""Rounds: start one, change its match length before it starts, pair the next Swiss or
round-robin round, and finish a league when its last round is complete."""

from __future__ import annotations

import math

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from matches.errors import refuse
from matches.models import Match
from matches.signals import announce_match_changed
from tournament.formats.swiss import swiss_pairings
from tournament.models import Event, Round, User
from tournament.services.common import ACTIVE, event_lock, formats_errors
from tournament.services.events import MAX_LENGTH
from tournament.services.structure import Layout
from tournament.signals import announce_matches_ready

LEAGUE_FORMATS = (Event.Format.SWISS, Event.Format.ROUND_ROBIN)


def _lock_round(round_: Round) -> Round:
    """The round row locked, after its event's (see ``event_lock``)."""
    event_lock(round_.event_id)
    return (
        Round.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")  # read after its lock above: current
        .get(pk=round_.pk)
    )


def round_start(*, round_: Round, by: User | None = None) -> Round:
    """Start a round: its matches with both players become ready.

    The event must be drawn; the round before it in the same bracket must have
    started.
    """
    with transaction.atomic():
        round_ = _lock_round(round_)
        event = round_.event
        if round_.status != Round.Status.PENDING:
            raise refuse(f"{round_} has already started.", code="round-started")
        if event.status == Event.Status.REGISTRATION:
            raise refuse(f"{event.name} is not drawn yet.", code="not-drawn")
        if event.status == Event.Status.FINISHED:
            raise refuse(f"{event.name} is finished.", code="event-finished")
        previous = (
            event.rounds.filter(bracket=round_.bracket, number=round_.number - 1)
            .order_by("pk")
            .first()
        )
        if previous is not None and previous.status == Round.Status.PENDING:
            raise refuse(f"Start {previous} before {round_}.", code="previous-round-not-started")
        _start(round_, event)
    return round_


def _start(round_: Round, event: Event) -> list[int]:
    now = timezone.now()
    round_.status = Round.Status.STARTED
    round_.started_at = now
    round_.save(update_fields=["status", "started_at"])
    # Locked (ascending id, after the round): a match seated meanwhile is seen here, or
    # its seating sees this round started (both hold the event's lock: see event_lock).
    ready = list(
        round_.matches.select_for_update(no_key=True)
        .filter(
            status=Match.Status.PENDING, is_bye=False, entry1__isnull=False, entry2__isnull=False
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    Match.objects.filter(pk__in=ready).update(status=Match.Status.READY, updated_at=now)
    if not round_.matches.exclude(status=Match.Status.COMPLETE).exists():
        round_.status = Round.Status.COMPLETE
        round_.save(update_fields=["status"])
    if event.status == Event.Status.DRAWN:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    first = round_.matches.order_by("slot").values_list("pk", flat=True).first()
    if first is not None:
        announce_match_changed(first, event.pk)
    announce_matches_ready(ready)
    return ready


def round_length_set(*, round_: Round, length: int, by: User | None = None) -> Round:
    """Change a round's match length; allowed until the round starts."""
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
        raise refuse(
            f"A match length is a whole number of points from 1 to {MAX_LENGTH}.",
            code="invalid",
            field="match_length",
        )
    with transaction.atomic():
        round_ = _lock_round(round_)
        if round_.status != Round.Status.PENDING:
            raise refuse(
                f"{round_} has started: its match length can no longer change.",
                code="round-started",
                field="match_length",
            )
        penalised = round_.matches.filter(
            Q(start_score1__gte=length) | Q(start_score2__gte=length)
        ).exists()
        if penalised:
            raise refuse(
                f"A match of {round_} already starts at {length} points or more.",
                code="invalid",
                field="match_length",
            )
        round_.match_length = length
        round_.save(update_fields=["match_length"])
        round_.matches.update(length=length)
        first = round_.matches.order_by("slot").values_list("pk", flat=True).first()
        if first is not None:
            announce_match_changed(first, round_.event_id)
    return round_


def event_next_round(*, event: Event, by: User | None = None) -> Round:
    """Pair (Swiss) or take (round robin) the next round, and start it."""
    if event.format == Event.Format.SWISS:
        return swiss_next_round(event=event, by=by)
    if event.format == Event.Format.ROUND_ROBIN:
        return round_robin_next_round(event=event, by=by)
    raise refuse(
        f"{event.name} is an elimination bracket: all its rounds exist; start them one by one.",
        code="not-a-league",
    )


def _check_league_running(event: Event) -> Round | None:
    if event.status == Event.Status.REGISTRATION:
        raise refuse(f"{event.name} is not drawn yet.", code="not-drawn")
    if event.status == Event.Status.FINISHED:
        raise refuse(f"{event.name} is finished.", code="event-finished")
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.status == Round.Status.STARTED:
        open_count = latest.matches.exclude(status=Match.Status.COMPLETE).count()
        raise refuse(
            f"{latest} is still being played ({open_count} match(es) open).",
            code="round-in-progress",
        )
    return latest


def swiss_next_round(*, event: Event, by: User | None = None) -> Round:
    """Start the paired round, or pair the next one by score and start it."""
    with transaction.atomic():
        event_lock(event.pk)
        event = Event.objects.get(pk=event.pk)
        latest = _check_league_running(event)
        if latest is not None and latest.status == Round.Status.PENDING:
            _start(latest, event)
            return latest
        number = (latest.number if latest else 0) + 1
        if event.rounds_planned and number > event.rounds_planned:
            raise refuse(
                f"{event.name} has its {event.rounds_planned} rounds.", code="no-more-rounds"
            )
        round_ = swiss_pair_round(event=event, number=number)
        _start(round_, event)
    return round_


def round_robin_next_round(*, event: Event, by: User | None = None) -> Round:
    """Start the next round of the round-robin schedule."""
    with transaction.atomic():
        event_lock(event.pk)
        event = Event.objects.get(pk=event.pk)
        _check_league_running(event)
        round_ = event.rounds.filter(status=Round.Status.PENDING).order_by("number").first()
        if round_ is None:
            raise refuse(f"Every round of {event.name} has been played.", code="no-more-rounds")
        _start(round_, event)
    return round_


def swiss_rounds_default(entrants: int) -> int:
    """Enough Swiss rounds for one unbeaten player: ceil(log2(entrants)), at least 1."""
    return max(1, math.ceil(math.log2(max(entrants, 2))))


def swiss_pair_round(*, event: Event, number: int) -> Round:
    """Pair round ``number`` of a Swiss event from the standings (caller holds the
    transaction and the event's lock)."""
    from tournament.selectors import swiss_state

    state = swiss_state(event)
    with formats_errors():
        paired = swiss_pairings(
            state.ranked, scores=state.scores, played=state.played, had_bye=state.had_bye
        )
    layout = Layout(event, timezone.now())
    index = layout.round(
        bracket=Round.Bracket.MAIN,
        number=number,
        name=f"Round {number}",
        length=event.length_for_round(number),
    )
    for slot, (upper, lower) in enumerate(paired.pairings):
        layout.match(index, slot, entry1_id=upper, entry2_id=lower)
    if paired.bye is not None:
        layout.bye(index, len(paired.pairings), paired.bye)
    (round_,) = layout.save()
    return round_


def swiss_round_repair(*, round_: Round) -> Round:
    """Pair a Swiss round that has not started again (a late entry or a withdrawal)."""
    round_ = _lock_round(round_)
    if round_.status != Round.Status.PENDING:
        raise refuse(f"{round_} has started.", code="round-started")
    event, number = round_.event, round_.number
    round_.delete()
    return swiss_pair_round(event=event, number=number)


def league_finish_if_done(event: Event) -> None:
    """Finish a Swiss or round-robin event whose last round is complete; the standings'
    leader is the champion (caller holds the transaction)."""
    from tournament.selectors import standings

    rounds = list(event.rounds.values_list("number", "status"))
    if any(status != Round.Status.COMPLETE for _, status in rounds):
        return
    if event.format == Event.Format.SWISS:
        planned = event.rounds_planned or 0
        if len(rounds) < planned:
            return
    table = standings(event)
    leader = next((row for row in table if row.entry.status in ACTIVE), None)
    event.champion_id = leader.entry.pk if leader is not None else None
    event.status = Event.Status.FINISHED
    event.save(update_fields=["champion", "status"])


#: The longest round time a director can set, in minutes (a whole day).
MAX_ROUND_MINUTES = 24 * 60


def round_minutes_set(*, round_: Round, minutes: int | None, by: User | None = None) -> Round:
    """Set the time a round is played in (``None`` takes it off): the room board counts it
    down from the round's start. Any time before the round is complete."""
    if minutes is not None and (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 1 <= minutes <= MAX_ROUND_MINUTES
    ):
        raise refuse(
            f"A round time is a whole number of minutes from 1 to {MAX_ROUND_MINUTES}.",
            code="invalid",
            field="minutes",
        )
    with transaction.atomic():
        round_ = _lock_round(round_)
        if round_.status == Round.Status.COMPLETE:
            raise refuse(f"{round_} is complete.", code="round-complete", field="minutes")
        if round_.minutes != minutes:
            round_.minutes = minutes
            round_.save(update_fields=["minutes"])
            first = round_.matches.order_by("slot").values_list("pk", flat=True).first()
            if first is not None:
                announce_match_changed(first, round_.event_id)
    return round_
