"""A complete match moves its bracket on: the receiver writes the task to the outbox in the
match's own transaction (``tournament.outbox``); the sweep is a last safety net.

Each task is idempotent: running it twice changes nothing more.
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.dispatch import receiver
from django.utils import timezone

from matches import signals
from tournament import outbox

log = logging.getLogger(__name__)

#: A complete match whose bracket has not moved on after this long is picked up by the sweep.
SWEEP_GRACE = dt.timedelta(seconds=30)


@receiver(signals.match_completing, dispatch_uid="tournament.tasks.advance.queue_match_completed")
def queue_match_completed(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Write the bracket's advance to the outbox, in the transaction completing the match."""
    outbox.enqueue("tournament.tasks.match_completed", match_id)


@shared_task(
    bind=True,
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
    name="tournament.tasks.match_completed",
)
def match_completed(self: object, match_id: int) -> list[int]:
    """Advance the bracket after a complete match, refresh its pages, tell the next opponents."""
    from matches.models import Match
    from tournament import page_cache
    from tournament.services.advance import match_advance

    ready = match_advance(match_id=match_id)
    event_id, tournament_id = (
        Match.objects.filter(pk=match_id).values_list("event_id", "event__tournament_id").get()
    )
    page_cache.invalidate_event(event_id, tournament_id)
    # The "match ready" notices are queued by the bracket move itself, on commit.
    return ready


@shared_task(name="tournament.tasks.sweep_completed_matches")
def sweep_completed_matches() -> int:
    """Finish the follow-up work of complete matches whose task was lost (broker or worker down)."""
    from matches.models import Match

    stale = Match.objects.filter(
        status=Match.Status.COMPLETE,
        advanced_at__isnull=True,
        updated_at__lt=timezone.now() - SWEEP_GRACE,
    ).values_list("pk", flat=True)[:500]
    count = 0
    for match_id in stale:
        match_completed.delay(match_id)
        count += 1
    if count:
        log.info("sweep queued %d complete matches", count)
    return count
