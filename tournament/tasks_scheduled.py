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
    from tournament import page_cache
    from tournament.services.ratings import Outcome, match_rate

    outcome = match_rate(match_id=match_id)
    if outcome in (Outcome.RATED, Outcome.RECOMPUTED):
        try:  # player pages and series pages show ratings
            page_cache.bump("site", 0)
        except Exception:  # cache down: pages are rebuilt when it is back
            log.warning("could not invalidate pages after rating match %s", match_id)
    return str(outcome)


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


@shared_task
def send_deadline_reminders() -> int:
    """Remind the players of open matches whose round ends within a day; emails sent."""
    from tournament.services.deadlines import match_remind, matches_to_remind

    now = timezone.now()
    sent = 0
    for match_id in matches_to_remind(now=now):
        try:
            sent += match_remind(match_id=match_id, now=now)
        except Exception:  # one bad address must not stop the others; the next run retries
            log.exception("could not remind the players of match %s", match_id)
    return sent


@shared_task
def apply_deadlines() -> dict[str, int]:
    """Apply each event's deadline rule to the open matches of rounds whose deadline passed."""
    from tournament.services.deadlines import match_deadline_apply, matches_past_deadline

    now = timezone.now()
    done: dict[str, int] = {}
    for match_id in matches_past_deadline(now=now):
        try:
            result = match_deadline_apply(match_id=match_id, now=now)
        except Exception:  # left open: the next run tries again
            log.exception("could not apply the deadline rule to match %s", match_id)
            continue
        done[result.action] = done.get(result.action, 0) + 1
    return done
