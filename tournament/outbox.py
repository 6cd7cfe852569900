"""The transactional outbox: follow-up tasks written in the transaction that decided them.

A service that must have work done after its commit (move the bracket on, seat the
opened matches, email the players) calls ``enqueue`` inside its transaction: an
``OutboxTask`` row commits or rolls back with the change. After the commit the row is
published at once (``tournament.outbox.run``, which runs the task and deletes the row);
a row that is still there once ``available_at`` passes is published again by the
drain (``tournament.outbox.drain``, every ``DRAIN_PERIOD`` s from beat). So nothing is
lost when a web node dies between its commit and the publish, when a worker dies while
holding the task, or when the broker or the database blips: the task runs again within
``FIRST_LEASE + DRAIN_PERIOD`` s, and every outbox task is idempotent.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Sequence
from functools import partial

from celery import Task, current_app
from django.db import transaction
from django.utils import timezone

from tournament.models import OutboxTask

log = logging.getLogger(__name__)

#: The name of ``tournament.tasks.outbox.run_outbox`` (spelled out there too: tests read it).
RUN_TASK = "tournament.outbox.run"

#: Seconds a published row waits before the drain publishes it again (a worker holding
#: the task died, or its message was lost). Longer than a follow-up task takes here.
FIRST_LEASE = 5.0
#: The longest wait between two publishes of a row that keeps failing.
MAX_LEASE = 300.0
#: How often beat runs the drain (``CELERY_BEAT_SCHEDULE``).
DRAIN_PERIOD = 2.0


def lease(attempts: int) -> dt.timedelta:
    """The wait before publishing again a row published ``attempts`` times already."""
    return dt.timedelta(seconds=min(FIRST_LEASE * 2 ** max(attempts - 1, 0), MAX_LEASE))


def enqueue(task: str, *args: object, here: bool = False) -> None:
    """Have Celery task ``task`` run with ``args`` once the current transaction commits.

    ``here``: run it in this process right after the commit (the caller's answer waits for
    it, as an on-commit hook would) rather than on a worker; the row still guards it.
    """
    enqueue_many(task, [list(args)], here=here)


def enqueue_many(task: str, calls: Iterable[Sequence[object]], *, here: bool = False) -> None:
    """Have ``task`` run once per argument list in ``calls`` after the commit (one insert)."""
    available = timezone.now() + lease(1)
    rows = OutboxTask.objects.bulk_create(
        [OutboxTask(task=task, args=list(args), available_at=available) for args in calls]
    )
    ids = [row.pk for row in rows]
    if ids:
        transaction.on_commit(partial(run_here if here else publish, ids), robust=True)


def _run_outbox() -> Task:
    """The task that runs one outbox row (``tournament.tasks.outbox``), found by its name:
    the services below the tasks write rows without importing them."""
    return current_app.tasks[RUN_TASK]


def run_here(ids: Iterable[int]) -> None:
    """Run the outbox rows ``ids`` in this process (each failure is left to the drain)."""
    run_outbox = _run_outbox()
    for pk in ids:
        run_outbox(pk)


def publish(ids: Iterable[int]) -> None:
    """Send the outbox rows ``ids`` to the workers; a row not sent waits for the drain."""
    run_outbox = _run_outbox()
    for pk in ids:
        try:
            run_outbox.delay(pk)
        except Exception:  # broker down: the drain publishes it when it is back
            log.warning("could not publish outbox task %s; the drain will", pk, exc_info=True)
