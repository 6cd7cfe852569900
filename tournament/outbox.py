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

Batches: a task may have a batch form (``batch_form``). The run of one of its rows then
takes every other row of the same task still waiting for its first run and does their
work together (the bracket's advance: one pass and one round check per event; ratings:
one page bump), then deletes them all; their own messages find nothing left to do. So a
worker that falls behind (a Swiss round's 256 results in a few seconds) catches up in
one run instead of one run per row. Two workers may take the same rows: the work is
idempotent, so that only costs time. A batch that fails falls back to one row at a time.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from celery import Task, current_app
from django.db import transaction
from django.utils import timezone

from tournament.models import OutboxTask

log = logging.getLogger(__name__)

#: The name of ``tournament.tasks.outbox.run_outbox`` (spelled out there too: tests read it).
RUN_TASK = "tournament.outbox.run"

#: The name of ``tournament.tasks.outbox.run_batch``.
BATCH_TASK = "tournament.outbox.run_batch"

#: The bracket's advance after a complete match (``tournament.tasks.advance``): its rows
#: carry ``[match_id]``; a move that advances a match inline drops its row (``drop``).
ADVANCE_TASK = "tournament.tasks.advance_match"

#: A large field's pairing in the background (``tournament.tasks.pairing``): its rows
#: carry ``[event_id, relax, user_id, job]``; a long task (``long_task``).
PAIR_TASK = "tournament.tasks.pair_next_round"

#: Seconds a published row waits before the drain publishes it again (a worker holding
#: the task died, or its message was lost). Longer than a follow-up task takes here;
#: a longer task has its own (``long_task``).
FIRST_LEASE = 5.0
#: The longest wait between two publishes of a row that keeps failing.
MAX_LEASE = 300.0
#: How often beat runs the drain (``CELERY_BEAT_SCHEDULE``).
DRAIN_PERIOD = 2.0


#: Rows one batch takes at most.
BATCH_LIMIT = 1000

#: The batch form of a task, by the task's name: it takes the argument lists of many rows.
BatchForm = Callable[[list[list[object]]], object]
_batch_forms: dict[str, BatchForm] = {}


_chunks: dict[str, int] = {}


def batch_form(task: str, *, chunk: int = 256) -> Callable[[BatchForm], BatchForm]:
    """Register the decorated function as the batch form of task ``task`` (idempotent like
    the task: running a row's work twice changes nothing more), given at most ``chunk``
    rows at a time: a slow form (a notice, a rating) takes few, so that a batch run can
    step aside for other tasks' batches between its chunks."""

    def register(function: BatchForm) -> BatchForm:
        _batch_forms[task] = function
        _chunks[task] = chunk
        return function

    return register


def batch_form_of(task: str) -> BatchForm | None:
    """The batch form registered for ``task``, if any."""
    return _batch_forms.get(task)


def batch_chunk(task: str) -> int:
    """How many rows the batch form of ``task`` takes at a time."""
    return _chunks.get(task, 1)


#: The first lease of a task that may run longer than ``FIRST_LEASE``, by the task's name.
_first_leases: dict[str, float] = {}


def long_task(task: str, *, first_lease: float) -> None:
    """Give the rows of ``task``, whose runs may take up to ``first_lease`` seconds, that
    lease (and never less after a failure): the drain does not publish a row again while
    its first run is still under way."""
    _first_leases[task] = first_lease


def lease(attempts: int, task: str = "") -> dt.timedelta:
    """The wait before publishing again a row of ``task`` published ``attempts`` times already."""
    first = _first_leases.get(task, FIRST_LEASE)
    return dt.timedelta(seconds=min(first * 2 ** max(attempts - 1, 0), max(MAX_LEASE, first)))


def enqueue(task: str, *args: object, here: bool = False) -> None:
    """Have Celery task ``task`` run with ``args`` once the current transaction commits.

    ``here``: run it in this process right after the commit (the caller's answer waits for
    it, as an on-commit hook would) rather than on a worker; the row still guards it.
    """
    enqueue_many(task, [list(args)], here=here)


def enqueue_many(task: str, calls: Iterable[Sequence[object]], *, here: bool = False) -> None:
    """Have ``task`` run once per argument list in ``calls`` after the commit (one insert)."""
    available = timezone.now() + lease(1, task)
    rows = OutboxTask.objects.bulk_create(
        [OutboxTask(task=task, args=list(args), available_at=available) for args in calls]
    )
    ids = [row.pk for row in rows]
    if not ids:
        return
    if here:
        transaction.on_commit(partial(run_here, ids), robust=True)
    elif task in _batch_forms:
        transaction.on_commit(partial(publish_batch, task), robust=True)
    else:
        transaction.on_commit(partial(publish, ids), robust=True)


def drop(task: str, first_arg: object) -> None:
    """Delete the rows of ``task`` whose first argument is ``first_arg`` (in the caller's
    transaction): the caller did their work inline, in the same transaction."""
    OutboxTask.objects.filter(task=task, args__0=first_arg).delete()


def _run_outbox() -> Task:
    """The task that runs one outbox row (``tournament.tasks.outbox``), found by its name:
    the services below the tasks write rows without importing them."""
    return current_app.tasks[RUN_TASK]


def run_here(ids: Iterable[int]) -> None:
    """Run the outbox rows ``ids`` in this process (each failure is left to the drain)."""
    run_outbox = _run_outbox()
    for pk in ids:
        run_outbox(pk)


def pending_key(task: str) -> str:
    """The cache key saying that a batch run of ``task`` is published and not yet started."""
    return f"outbox:batch-pending:{task}"


def publish_batch(task: str) -> None:
    """Send one batch run of ``task`` to the workers unless one is already waiting.

    The run clears the key before it reads the rows, so a row committed before a
    publisher found the key taken is read by that run; a row committed later finds the
    key free and publishes a run of its own. The key expires after ``FIRST_LEASE``
    (a lost message): the drain publishes the rows then anyway. Eager tasks run at once.
    """
    from django.core.cache import cache

    # Eager (the embedded default, a test's eager tasks): the run happens here and now,
    # so there is nothing to coalesce, and a key another run left must not skip it.
    if not current_app.conf.task_always_eager:
        try:
            if not cache.add(pending_key(task), 1, timeout=FIRST_LEASE):
                return
        except Exception:  # cache away: publish (a second run only finds nothing to do)
            log.warning("outbox: no cache to coalesce %s; publishing", task)
    try:
        current_app.tasks[BATCH_TASK].delay(task)
    except Exception:  # broker down: the drain publishes the rows when it is back
        log.warning("could not publish a batch of %s; the drain will", task, exc_info=True)


def publish(ids: Iterable[int]) -> None:
    """Send the outbox rows ``ids`` to the workers; a row not sent waits for the drain."""
    run_outbox = _run_outbox()
    for pk in ids:
        try:
            run_outbox.delay(pk)
        except Exception:  # broker down: the drain publishes it when it is back
            log.warning("could not publish outbox task %s; the drain will", pk, exc_info=True)
