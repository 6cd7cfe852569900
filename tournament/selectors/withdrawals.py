"""Which withdrawals can be undone: the one test the undo (``entry_withdraw_undo``), the
entries table's "Undo withdraw" button and the withdrawal's message share, so that no
button is offered, and no message promises an undo, that the undo would refuse."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from matches.models import Match
from tournament.models import Entry, Event
from tournament.selectors.brackets import Router

NOT_WITHDRAWN = "not-withdrawn"
EVENT_FINISHED = "event-finished"
PLACE_GIVEN_AWAY = "place-given-away"


def withdrawal_undo_blocker(entry: Entry) -> str | None:
    """Why ``entry``'s withdrawal cannot be undone (a refusal's code), or ``None``: not
    withdrawn, the event finished, or drawn without them (no place to give back). A
    walkover whose winner has played on since is the undo's own refusal: it names the
    match to correct first, after which the undo succeeds."""
    if entry.status != Entry.Status.WITHDRAWN:
        return NOT_WITHDRAWN
    if entry.event.status == Event.Status.FINISHED:
        return EVENT_FINISHED
    if not undoable_withdrawals(entry.event, [entry]):
        return PLACE_GIVEN_AWAY
    return None


def withdrawal_stays_undoable(entry: Entry) -> bool:
    """Whether ``entry``, just withdrawn, can be taken back: no blocker, and none of the
    walkovers the withdrawal gave is the bracket's final (its advance ends the event, and
    a finished event keeps its withdrawals)."""
    return withdrawal_undo_blocker(entry) is None and not _walkover_crowns(entry)


def _walkover_crowns(entry: Entry) -> bool:
    """A walkover given by ``entry``'s withdrawal decides its bracket's final."""
    event = entry.event
    if event.format not in (Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION):
        return False
    router = Router(event)
    given = (
        Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
        .filter(status=Match.Status.COMPLETE, decision=Match.Decision.WALKOVER)
        .exclude(winner=entry)
        .select_related("round")
    )
    return any(
        router.outcome(
            bracket=match.round.bracket,
            round_number=match.round.number,
            slot=match.slot,
            winner_position=0 if match.winner_id == match.entry1_id else 1,
        ).champion
        for match in given
    )


def undoable_withdrawals(event: Event, entries: Iterable[Entry]) -> set[int]:
    """The withdrawn ``entries`` of ``event`` whose withdrawal can be undone (one query):
    all of them before the draw and in a Swiss (paired again), else those the bracket
    still seats."""
    withdrawn = {e.pk for e in entries if e.status == Entry.Status.WITHDRAWN}
    if not withdrawn or event.status == Event.Status.FINISHED:
        return set()
    if event.status == Event.Status.REGISTRATION or event.is_swiss:
        return withdrawn
    seats = Match.objects.filter(Q(entry1_id__in=withdrawn) | Q(entry2_id__in=withdrawn))
    return {pk for pair in seats.values_list("entry1_id", "entry2_id") for pk in pair} & withdrawn
