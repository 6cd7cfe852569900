"""The outbox's two tasks: run one row's task, and publish again the rows left behind.

See ``tournament.outbox``. ``run_outbox`` runs the row's task in its own process
(a direct call: the task's own retries become the drain's) and deletes the row once
it succeeded; a failure pushes the row's next publish back (``lease``), and a
process that dies leaves the row to the drain.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournament.models import OutboxTask
from tournament.outbox import (
    BATCH_LIMIT,
    batch_chunk,
    batch_form_of,
    lease,
    pending_key,
    publish,
    publish_batch,
)
from tournament.tasks.typed import task

log = logging.getLogger(__name__)

#: The time after which a batch run sends the rest of its rows to the back of the queue.
BATCH_SECONDS = 0.3

#: Rows published per drain run (the rest wait for the next run).
DRAIN_BATCH = 500


@task(name="tournament.outbox.run", acks_late=True, ignore_result=True)
def run_outbox(outbox_id: int) -> str:
    """Run outbox row ``outbox_id``'s task; delete the row once it succeeded.

    A task with a batch form runs it over this row and every row of the same task still
    waiting for its first run (``tournament.outbox``).
    """
    row = OutboxTask.objects.filter(pk=outbox_id).values_list("task", "args", "attempts").first()
    if row is None:
        return "done already"
    name, args, attempts = row
    batch = batch_form_of(name)
    if batch is not None:
        rows = [(outbox_id, args), *_waiting(name, outbox_id)]
        if len(rows) > 1:
            try:
                batch([list(a) for _, a in rows])
            except Exception:
                log.warning("outbox batch of %d %s failed; one row at a time", len(rows), name)
                for pk, other in rows[1:]:
                    _run_one(pk, name, other, 0)
            else:
                OutboxTask.objects.filter(pk__in=[pk for pk, _ in rows]).delete()
                return f"ran {len(rows)}"
    return _run_one(outbox_id, name, args, attempts)


@task(name="tournament.outbox.run_batch", acks_late=True, ignore_result=True)
def run_batch(name: str) -> str:
    """Run together the rows of task ``name`` waiting for their first run (``publish_batch``),
    a chunk (``batch_form``) at a time; after ``BATCH_SECONDS`` the rest goes to the back of the
    queue, so one task's long batch (a round's ratings) does not hold up another's (the
    round's advance)."""
    from django.core.cache import cache

    try:
        cache.delete(pending_key(name))  # before reading the rows: see ``publish_batch``
    except Exception:
        log.warning("outbox: could not clear the pending batch of %s", name)
    batch = batch_form_of(name)
    rows = _waiting(name, 0, limit=BATCH_LIMIT)
    if not rows:
        return "done already"
    started = time.monotonic()
    done, size = 0, batch_chunk(name)
    while done < len(rows):
        chunk = rows[done : done + size]
        done += len(chunk)
        if batch is None or len(chunk) == 1:  # one at a time: its failure is its own
            for pk, args in chunk:
                _run_one(pk, name, args, 0)
        else:
            try:
                batch([list(a) for _, a in chunk])
            except Exception:
                log.warning("outbox batch of %d %s failed; one at a time", len(chunk), name)
                for pk, args in chunk:
                    _run_one(pk, name, args, 0)
            else:
                OutboxTask.objects.filter(pk__in=[pk for pk, _ in chunk]).delete()
        if done < len(rows) and time.monotonic() - started > BATCH_SECONDS:
            break
    if done < len(rows) or len(rows) == BATCH_LIMIT:  # more wait: a run at the back
        publish_batch(name)
    return f"ran {done}"


def _waiting(
    name: str, outbox_id: int, limit: int = BATCH_LIMIT - 1
) -> list[tuple[int, list[object]]]:
    """The rows of task ``name`` other than ``outbox_id`` that wait for their first run,
    oldest first."""
    return list(
        OutboxTask.objects.filter(task=name, attempts=0)
        .exclude(pk=outbox_id)
        .order_by("pk")
        .values_list("pk", "args")[:limit]
    )


def _run_one(outbox_id: int, name: str, args: list[object], attempts: int) -> str:
    try:
        current_app.tasks[name](*args)
    except Exception as exc:
        log.warning("outbox task %s %s%r failed; published again later", outbox_id, name, args)
        try:
            OutboxTask.objects.filter(pk=outbox_id).update(
                attempts=F("attempts") + 1,
                available_at=timezone.now() + lease(attempts + 1, name),
                last_error=repr(exc)[:2000],
            )
        except Exception:  # the database is away too: the row's lease brings it back
            log.warning("could not record the failure of outbox task %s", outbox_id)
        return "failed"
    OutboxTask.objects.filter(pk=outbox_id).delete()
    return "ran"


@task(name="tournament.outbox.drain", ignore_result=True)
def drain_outbox() -> int:
    """Publish again every row whose ``available_at`` passed; push each one's next time back.

    Rows another drain holds are skipped (two beats started by mistake publish each row once).
    """
    now = timezone.now()
    with transaction.atomic():
        due = list(
            OutboxTask.objects.select_for_update(skip_locked=True)
            .filter(available_at__lte=now)
            .order_by("available_at")
            .values_list("pk", "attempts", "task")[:DRAIN_BATCH]
        )
        by_wait: dict[tuple[int, dt.timedelta], list[int]] = {}
        for pk, attempts, task in due:
            by_wait.setdefault((attempts + 1, lease(attempts + 2, task)), []).append(pk)
        for (attempts, wait), ids in by_wait.items():
            OutboxTask.objects.filter(pk__in=ids).update(attempts=attempts, available_at=now + wait)
    ids = [pk for pk, _, _ in due]
    if ids:
        log.warning("outbox drain: publishing %d task(s) again", len(ids))
        publish(ids)
    return len(ids)
