"""The outbox's two tasks: run one row's task, and publish again the rows left behind.

See ``tournament.outbox``. ``run_outbox`` runs the row's task in its own process
(a direct call: the task's own retries become the drain's) and deletes the row once
it succeeded; a failure pushes the row's next publish back (``lease``), and a
process that dies leaves the row to the drain.
"""

from __future__ import annotations

import logging

from celery import current_app, shared_task
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournament.models import OutboxTask
from tournament.outbox import lease, publish

log = logging.getLogger(__name__)

#: Rows published per drain run (the rest wait for the next run).
DRAIN_BATCH = 500


@shared_task(name="tournament.outbox.run", acks_late=True, ignore_result=True)
def run_outbox(outbox_id: int) -> str:
    """Run outbox row ``outbox_id``'s task; delete the row once it succeeded."""
    row = OutboxTask.objects.filter(pk=outbox_id).values_list("task", "args", "attempts").first()
    if row is None:
        return "done already"
    name, args, attempts = row
    try:
        current_app.tasks[name](*args)
    except Exception as exc:
        log.warning("outbox task %s %s%r failed; published again later", outbox_id, name, args)
        try:
            OutboxTask.objects.filter(pk=outbox_id).update(
                attempts=F("attempts") + 1,
                available_at=timezone.now() + lease(attempts + 1),
                last_error=repr(exc)[:2000],
            )
        except Exception:  # the database is away too: the row's lease brings it back
            log.warning("could not record the failure of outbox task %s", outbox_id)
        return "failed"
    OutboxTask.objects.filter(pk=outbox_id).delete()
    return "ran"


@shared_task(name="tournament.outbox.drain", ignore_result=True)
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
            .values_list("pk", "attempts")[:DRAIN_BATCH]
        )
        by_attempts: dict[int, list[int]] = {}
        for pk, attempts in due:
            by_attempts.setdefault(attempts + 1, []).append(pk)
        for attempts, ids in by_attempts.items():
            OutboxTask.objects.filter(pk__in=ids).update(
                attempts=attempts, available_at=now + lease(attempts + 1)
            )
    ids = [pk for pk, _ in due]
    if ids:
        log.warning("outbox drain: publishing %d task(s) again", len(ids))
        publish(ids)
    return len(ids)
