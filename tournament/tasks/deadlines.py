"""Online events' deadlines: reminders before a round ends, the event's rule after it.

Each is idempotent: a match is reminded once (``Match.reminded_at``) and a deadline
rule leaves the match complete or flagged, which takes it out of the next run. Beat
entries in ``CELERY_BEAT_SCHEDULE`` drive both.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from tournament.tasks.typed import task

log = logging.getLogger(__name__)


@task(name="tournament.tasks.send_deadline_reminders")
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


@task(name="tournament.tasks.apply_deadlines")
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
