"""An event's waiting list: who waits in which place, and who moves up when a place is
free (a withdrawal before the draw, a higher cap). The sign-up puts players on it; the
withdrawal frees a place."""

from __future__ import annotations

from django.db.models import Q

from tournament import page_cache
from tournament.models import Entry, Event
from tournament.services.common import ACTIVE
from tournament.signals import announce_signup_notice


def has_room(event: Event) -> bool:
    """Whether the event takes one more entry (no cap, or fewer active entries than it)."""
    if event.entry_cap is None:
        return True
    return event.entries.filter(status__in=ACTIVE).count() < event.entry_cap


def waiting_position(entry: Entry) -> int | None:
    """The entry's place on its event's waiting list (1 = next in), None off the list."""
    if entry.status != Entry.Status.WAITING:
        return None
    ahead = Entry.objects.filter(event_id=entry.event_id, status=Entry.Status.WAITING).filter(
        Q(waiting_since__lt=entry.waiting_since)
        | Q(waiting_since=entry.waiting_since, pk__lt=entry.pk)
    )
    return ahead.count() + 1


def waiting_promote(*, event: Event) -> list[Entry]:
    """Move entries up from the waiting list while the event has room (the caller holds
    the event's lock; before the draw only). Each is emailed once the change commits."""
    event = Event.objects.get(pk=event.pk)
    if event.status != Event.Status.REGISTRATION:
        return []
    moved = []
    while has_room(event):
        first = (
            Entry.objects.select_for_update(no_key=True)
            .filter(event=event, status=Entry.Status.WAITING)
            .order_by("waiting_since", "pk")
            .first()
        )
        if first is None:
            break
        first.status = Entry.Status.REGISTERED
        first.waiting_since = None
        first.save(update_fields=["status", "waiting_since"])
        announce_signup_notice(first.pk, "moved-up")
        moved.append(first)
    if moved:
        page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    return moved
