"""A league's next round paired in the background, for fields too large to pair inside a
request: the job is an outbox row (``outbox.PAIR_TASK``, run by ``tournament.tasks.pairing``),
written in its own transaction and published after the commit, again by the drain if that
publish is lost; its state, progress and answer are a cache entry the API shows."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db import transaction

from tournament import outbox
from tournament.models import Event, User

#: Fields larger than this are paired by a background job whose progress the API shows;
#: up to it a round is paired inside the request (512 players take about 2.5 s on a
#: small, busy machine: ``bench/bench_pairing.py``).
PAIR_INLINE_LIMIT = 1024

#: How long a job's state (and its answer) stays readable.
JOB_SECONDS = 3600

#: The outbox's lease of a job (``outbox.long_task``): longer than a pairing takes, so a
#: job still pairing is not run a second time beside itself.
JOB_LEASE = 600.0

#: A job's states while it is not finished.
UNDER_WAY = ("queued", "running")


def pairing_job_key(event_id: int) -> str:
    """The cache key of an event's background pairing job (its state and progress)."""
    return f"pairing-job:{event_id}"


def pairing_job_token_key(event_id: int) -> str:
    """The cache key of the token of the event's latest job."""
    return f"pairing-job:{event_id}:job"


def pairing_job(event_id: int) -> dict[str, Any]:
    """The event's job as the API shows it (``{"state": "none"}`` without one)."""
    state: dict[str, Any] = cache.get(pairing_job_key(event_id)) or {"state": "none"}
    return state


def pairing_job_save(event_id: int, state: dict[str, Any]) -> None:
    """Record the job's state, its progress or its answer."""
    cache.set(pairing_job_key(event_id), state, JOB_SECONDS)


def pairing_job_queue(
    *,
    event: Event,
    relax: Sequence[int] = (),
    keep: Sequence[int] = (),
    by: User | None = None,
) -> dict[str, Any]:
    """Have the event's next round paired and started in the background (``keep``: players
    out in the last round kept one more round, as ``event_next_round`` takes them); the
    job's state.
    A job already queued or running is the answer, and nothing more is queued."""
    state = pairing_job(event.pk)
    if state["state"] in UNDER_WAY:
        return state
    job = uuid.uuid4().hex
    pairing_job_save(event.pk, {"state": "queued", "messages": []})
    cache.set(pairing_job_token_key(event.pk), job, JOB_SECONDS)
    try:
        with transaction.atomic():
            user_id = by.pk if by is not None else None
            outbox.enqueue(outbox.PAIR_TASK, event.pk, list(relax), user_id, job, list(keep))
    except Exception:  # not queued: the director may ask again at once
        cache.delete_many([pairing_job_key(event.pk), pairing_job_token_key(event.pk)])
        raise
    return pairing_job(event.pk)


def pairing_job_current(event_id: int, job: str) -> bool:
    """Whether ``job`` is the event's latest job and not finished. The outbox may run a
    job twice; a run of a finished job, or of one a newer job replaced, does nothing.
    Without the token (the cache lost it) the run goes ahead: the round's own checks
    refuse to pair a round twice."""
    token = cache.get(pairing_job_token_key(event_id))
    if token is not None and token != job:
        return False
    return cache.get(pairing_job_key(event_id), {}).get("state") not in ("done", "refused")
