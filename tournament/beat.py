"""Beat's scheduler with a lock per run: two beats started by mistake send each job once.

Before sending a due job, the scheduler takes a Redis key ``<CACHE_KEY_PREFIX>:beat:<job>``
with ``SET NX PX`` for 80 % of the job's period; a second beat finding the key taken
skips that run. So a job is sent at most once per 0.8 period, whatever the phase between
the beats. Without ``REDIS_URL`` (the eager default) or with Redis away, jobs are sent
as plain beat sends them: each job is idempotent, a second run only costs time.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

from celery.beat import PersistentScheduler, ScheduleEntry
from django.conf import settings

log = logging.getLogger(__name__)

#: Share of a job's period its run's lock is held.
LOCK_SHARE = 0.8


def run_lock_key(job: str) -> str:
    """The Redis key that one run of beat job ``job`` takes."""
    return f"{settings.CACHE_KEY_PREFIX}:beat:{job}"


def claim_run(client: Any, job: str, period: float, owner: str) -> bool:
    """Whether this beat may send job ``job`` now (it then holds the run's lock)."""
    ttl_ms = max(int(period * LOCK_SHARE * 1000), 100)
    try:
        return bool(client.set(run_lock_key(job), owner, nx=True, px=ttl_ms))
    except Exception:  # Redis away: send it (the jobs are idempotent)
        log.warning("beat lock unavailable for %s; sending it anyway", job)
        return True


class SingleRunScheduler(PersistentScheduler):
    """``PersistentScheduler`` whose due jobs are sent only by the beat that takes their lock."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.owner = f"{socket.gethostname()}:{os.getpid()}"
        self._redis: Any = None
        super().__init__(*args, **kwargs)

    def redis(self) -> Any:
        if self._redis is None and settings.REDIS_URL:
            import redis

            self._redis = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
            )
        return self._redis

    def apply_entry(self, entry: ScheduleEntry, producer: Any = None) -> None:
        client = self.redis()
        period = (
            entry.schedule.run_every.total_seconds()
            if hasattr(entry.schedule, "run_every")
            else 60.0
        )
        if client is not None and not claim_run(client, entry.name, period, self.owner):
            log.info("beat: %s was sent by another beat; skipped", entry.name)
            return
        super().apply_entry(entry, producer=producer)
