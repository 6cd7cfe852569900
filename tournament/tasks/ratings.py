"""Ratings follow decided matches: each writes a rating task to the outbox in its own
transaction (``tournament.outbox``); a sweep catches any left behind.

Each is idempotent: ratings are unique per player and match.
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.dispatch import receiver
from django.utils import timezone

from matches.signals import match_completing
from tournament import outbox

log = logging.getLogger(__name__)

#: A rateable match still without a rating after this long is picked up by the rating sweep.
RATING_GRACE = dt.timedelta(minutes=2)


@receiver(match_completing, dispatch_uid="tournament.receivers_ratings.queue_rate_match")
def queue_rate_match(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Write the rating of a completed match to the outbox, in the match's transaction."""
    outbox.enqueue("tournament.tasks_scheduled.rate_match", match_id)


@shared_task(
    bind=True,
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
    name="tournament.tasks_scheduled.rate_match",
)
def rate_match(self: object, match_id: int) -> str:
    """Rate a completed match (FIBS); nothing happens for forfeits, byes or a second run."""
    from tournament import page_cache
    from tournament.services.ratings import Outcome, match_rate

    outcome = match_rate(match_id=match_id)
    if outcome in (Outcome.RATED, Outcome.RECOMPUTED):
        try:  # player pages and series pages show ratings
            page_cache.bump("site", 0)
        except Exception:  # cache down: pages are rebuilt when it is back
            log.warning("could not invalidate pages after rating match %s", match_id)
    return str(outcome)


@shared_task(name="tournament.tasks_scheduled.sweep_unrated_matches")
def sweep_unrated_matches() -> int:
    """Rate the played matches whose rating task was lost (broker or worker down)."""
    from tournament.services.ratings import unrated_match_ids

    ids = unrated_match_ids(settled_before=timezone.now() - RATING_GRACE)
    for match_id in ids:
        rate_match.delay(match_id)
    if ids:
        log.info("rating sweep queued %d matches", len(ids))
    return len(ids)
