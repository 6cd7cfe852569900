"""Ratings follow decided matches: each writes a rating task to the outbox in its own
transaction (``tournament.outbox``); a sweep catches any left behind.

Each is idempotent: ratings are unique per player and match.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.dispatch import receiver
from django.utils import timezone

from matches.signals import match_completing
from tournament import outbox
from tournament.tasks.typed import bound_task, task

log = logging.getLogger(__name__)

#: The rating task's name (the outbox rows carry it).
RATE_TASK = "tournament.tasks.rate_match"

#: A rateable match still without a rating after this long is picked up by the rating sweep.
RATING_GRACE = dt.timedelta(minutes=2)


@receiver(match_completing, dispatch_uid="tournament.tasks.ratings.queue_rate_match")
def queue_rate_match(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Write the rating of a completed match to the outbox, in the match's transaction."""
    outbox.enqueue(RATE_TASK, match_id)


@bound_task(
    autoretry_for=(Exception,),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
    name="tournament.tasks.rate_match",  # RATE_TASK
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


@outbox.batch_form(RATE_TASK, chunk=4)
def rate_matches(calls: list[list[object]]) -> int:
    """The batch form of ``rate_match``: each match in the order it was queued, one page bump."""
    from tournament import page_cache
    from tournament.services.ratings import Outcome, match_rate

    changed = 0
    for args in calls:
        outcome = match_rate(match_id=int(str(args[0])))
        changed += outcome in (Outcome.RATED, Outcome.RECOMPUTED)
    if changed:
        try:  # player pages and series pages show ratings
            page_cache.bump("site", 0)
        except Exception:  # cache down: pages are rebuilt when it is back
            log.warning("could not invalidate pages after rating %d matches", changed)
    return changed


@task(name="tournament.tasks.sweep_unrated_matches")
def sweep_unrated_matches() -> int:
    """Reconciliation: write again to the outbox the rating of played matches still unrated
    after ``RATING_GRACE`` (their row was lost); the outbox runs them in one batch."""
    from django.db import transaction

    from tournament.services.ratings import unrated_match_ids

    ids = list(unrated_match_ids(settled_before=timezone.now() - RATING_GRACE))
    if ids:
        with transaction.atomic():
            outbox.enqueue_many(RATE_TASK, [[pk] for pk in ids])
        log.info("rating sweep queued %d matches", len(ids))
    return len(ids)
