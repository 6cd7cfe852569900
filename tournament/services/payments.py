"""Entry fees paid or not (and how), and checking in many players at once."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import refuse
from tournament import page_cache
from tournament.models import Entry, Event, User

#: The entries whose fee counts: in the event or out of it after playing (not withdrawn
#: before playing, not waiting, not pending).
FEE_STATUSES = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN, Entry.Status.ELIMINATED)


def _picked(event: Event, entry_ids: Iterable[int]) -> list[int]:
    ids = sorted({int(i) for i in entry_ids})
    if not ids:
        raise refuse(_("Tick at least one player."), code="invalid", field="entries")
    found = set(Entry.objects.filter(event=event, pk__in=ids).values_list("pk", flat=True))
    if missing := [i for i in ids if i not in found]:
        raise refuse(
            _("No such entry in {event_name}: {join_map_str_missing}.").format(
                event_name=event.name, join_map_str_missing=", ".join(map(str, missing))
            ),
            code="invalid",
            field="entries",
        )
    return ids


def entries_mark_paid(
    *, event: Event, entry_ids: Iterable[int], method: str, by: User | None = None
) -> int:
    """Mark entries paid by ``method`` (cash, transfer, online, waived), or unpaid with
    ``""``; how many changed. A fed Consolation's players pay nothing there: refused."""
    if method not in ("", *Entry.Payment.values):
        raise refuse(
            _("Paid by cash, transfer, online or waived (or unpaid)."), code="invalid", field="paid"
        )
    if method and event.feeds_from_id:
        raise refuse(
            _("The players of {event_name} come from its feed and pay no entry fee here.").format(
                event_name=event.name
            ),
            code="no-fee-here",
            field="paid",
        )
    ids = _picked(event, entry_ids)
    with transaction.atomic():
        changed = (
            Entry.objects.filter(event=event, pk__in=ids).exclude(paid=method).update(paid=method)
        )
        if changed:  # the final sheet's pool counts paid entries
            page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    return changed


def entries_check_in(*, event: Event, entry_ids: Iterable[int], by: User | None = None) -> int:
    """Check in every registered player among ``entry_ids`` (those present) in one step;
    already checked-in ones are left as they are. How many were checked in."""
    ids = _picked(event, entry_ids)
    with transaction.atomic():
        event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        if event.status != Event.Status.REGISTRATION:
            raise refuse(
                _("{event_name} is already drawn.").format(event_name=event.name),
                code="event-drawn",
            )
        return Entry.objects.filter(event=event, pk__in=ids, status=Entry.Status.REGISTERED).update(
            status=Entry.Status.CHECKED_IN, checked_in_at=timezone.now()
        )


def fees_collected(event: Event) -> bool:
    """Whether some entry of ``event`` paid its fee (waived ones paid nothing)."""
    return event.entries.exclude(paid__in=("", Entry.Payment.WAIVED)).exists()


def unpaid_count(event: Event) -> int:
    """Entries in the event whose fee is not paid (none when the event has no fee)."""
    if not event.entry_fee:
        return 0
    return event.entries.filter(status__in=FEE_STATUSES, paid="").count()
