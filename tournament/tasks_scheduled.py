"""Celery tasks of ratings and online events: rating, deadline reminders and deadline rules.

Each is idempotent: ratings are unique per player and match, a match is reminded once
(``Match.reminded_at``) and a deadline rule leaves the match complete or flagged, which
takes it out of the next run. Beat entries in ``CELERY_BEAT_SCHEDULE`` drive the sweeps.
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.utils import timezone

log = logging.getLogger(__name__)

#: A rateable match still without a rating after this long is picked up by the rating sweep.
RATING_GRACE = dt.timedelta(minutes=2)


@shared_task(
    bind=True,
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
)
def rate_match(self: object, match_id: int) -> str:
    """Rate a completed match (FIBS); nothing happens for forfeits, byes or a second run."""
    from tournament.services.ratings import match_rate

    return str(match_rate(match_id=match_id))


@shared_task
def sweep_unrated_matches() -> int:
    """Rate the played matches whose rating task was lost (broker or worker down)."""
    from tournament.services.ratings import unrated_match_ids

    ids = unrated_match_ids(settled_before=timezone.now() - RATING_GRACE)
    for match_id in ids:
        rate_match.delay(match_id)
    if ids:
        log.info("rating sweep queued %d matches", len(ids))
    return len(ids)
