"""A complete match moves its bracket on: the receiver writes the task to the outbox in the
match's own transaction (``tournament.outbox``); the sweep is a last safety net.

Each task is idempotent: running it twice changes nothing more.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.dispatch import receiver
from django.utils import timezone

from matches import signals
from tournament import outbox
from tournament.outbox import ADVANCE_TASK
from tournament.tasks.typed import bound_task, task

log = logging.getLogger(__name__)

#: A complete match whose bracket has not moved on after this long is picked up by the sweep.
SWEEP_GRACE = dt.timedelta(seconds=30)


@receiver(signals.match_completing, dispatch_uid="tournament.tasks.advance.queue_advance_match")
def queue_advance_match(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Write the bracket's advance to the outbox, in the transaction completing the match."""
    outbox.enqueue(ADVANCE_TASK, match_id)


@bound_task(
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
    name="tournament.tasks.advance_match",  # ADVANCE_TASK
)
def advance_match(self: object, match_id: int) -> list[int]:
    """Advance the bracket after a complete match.

    The pages are bumped by the move itself (``BracketMover.finish``, once per event and
    only when it changed something: the result's own commit bumped them already), the
    "match ready" notices and the seating are queued by it too.
    """
    from tournament.services.advance import match_advance

    return match_advance(match_id=match_id)


@outbox.batch_form(ADVANCE_TASK)
def advance_matches(calls: list[list[object]]) -> list[int]:
    """The batch form of ``advance_match``: one pass per event over many matches."""
    from tournament.services.advance import matches_advance

    return matches_advance(match_ids=[int(str(args[0])) for args in calls])


@task(name="tournament.tasks.sweep_completed_matches")
def sweep_completed_matches() -> int:
    """Reconciliation: write again to the outbox the advance of complete matches that have
    not moved on after ``SWEEP_GRACE`` (their row was lost with a database restored from a
    backup, or deleted by hand). The outbox runs them like any other row."""
    from django.db import transaction

    from matches.models import Match

    stale = list(
        Match.objects.filter(
            status=Match.Status.COMPLETE,
            advanced_at__isnull=True,
            updated_at__lt=timezone.now() - SWEEP_GRACE,
        ).values_list("pk", flat=True)[:500]
    )
    if stale:
        with transaction.atomic():
            outbox.enqueue_many(ADVANCE_TASK, [[pk] for pk in stale])
        log.info("sweep queued %d complete matches", len(stale))
    return len(stale)
