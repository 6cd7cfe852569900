"""The idempotency keys of reports are kept a weekend at least, then swept (beat, hourly)."""

from __future__ import annotations

import logging

from matches.services.idempotency import report_keys_sweep
from tournament.tasks.typed import task

log = logging.getLogger(__name__)


@task(name="tournament.tasks.sweep_report_keys")
def sweep_report_keys() -> int:
    """Delete the reports' idempotency keys older than ``REPORT_KEY_HOURS``."""
    deleted = report_keys_sweep()
    if deleted:
        log.info("swept %d expired report keys", deleted)
    return deleted
