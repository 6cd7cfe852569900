"""Ratings listen to decided matches: each one queues a rating task after its commit."""

from __future__ import annotations

import logging

from django.dispatch import receiver

from matches.signals import match_completed
from tournament import tasks_scheduled

log = logging.getLogger(__name__)


@receiver(match_completed, dispatch_uid="tournament.receivers_ratings.queue_rate_match")
def queue_rate_match(sender: object, *, match_id: int, **kwargs: object) -> None:
    """Queue the rating of a completed match; the rating sweep catches any that get lost."""
    try:
        tasks_scheduled.rate_match.delay(match_id)
    except Exception:  # the match is stored; sweep_unrated_matches rates it later
        log.warning("could not queue rate_match(%s); the sweep will retry", match_id, exc_info=True)
