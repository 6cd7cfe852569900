"""Auto-start: in an event set to start each match as soon as both players are known
(``Event.start_matches == "auto"``), such a match is ready at once, its round started
as needed, without the director starting rounds one by one.

Leagues (Swiss, round robin) pair and start whole rounds: the setting does not apply.
"""

from __future__ import annotations

import datetime as dt

from matches.models import Match
from tournament.models import Event, Round
from tournament.services.tables import opened_tables_on_commit
from tournament.signals import announce_matches_ready

LEAGUE_FORMATS = (Event.Format.SWISS, Event.Format.SWISS_ELIMINATION, Event.Format.ROUND_ROBIN)


def starts_each_match(event: Event) -> bool:
    """Whether ``event`` opens each match as soon as both its players are known."""
    return event.start_matches == Event.StartMatches.AUTO and event.format not in LEAGUE_FORMATS


def round_open(*, round_: Round, event: Event, now: dt.datetime) -> None:
    """Mark a pending round started (caller holds the transaction and the event's lock)."""
    if round_.status == Round.Status.PENDING:
        Round.objects.filter(pk=round_.pk, status=Round.Status.PENDING).update(
            status=Round.Status.STARTED, started_at=now
        )
        round_.status = Round.Status.STARTED
        round_.started_at = now
    if event.status == Event.Status.DRAWN:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])


def event_matches_start_ready(*, event: Event, now: dt.datetime) -> list[int]:
    """After the draw of an auto-start event: every match with both players becomes ready
    (its round started), and its players are told once the transaction commits."""
    if not starts_each_match(event):
        return []
    ready = list(
        Match.objects.filter(
            event=event,
            status=Match.Status.PENDING,
            is_bye=False,
            entry1__isnull=False,
            entry2__isnull=False,
        ).values_list("pk", flat=True)
    )
    if not ready:
        return []
    for round_ in Round.objects.filter(matches__pk__in=ready).distinct().order_by("pk"):
        round_open(round_=round_, event=event, now=now)
    Match.objects.filter(pk__in=ready).update(status=Match.Status.READY, updated_at=now)
    opened_tables_on_commit(ready)
    announce_matches_ready(ready)
    return ready
