"""Analyses without a broker: run after the commit in a daemon thread of this process.

With Celery eager (no Redis: the embedded default, ``make run``) the analysis task would
run inside the upload's request and keep the player waiting for gnubg (15-45 s at 2
plies). Here it runs in a background thread instead: the request answers at once, the
match page shows the analysis queued, then running, then its figures. One gnubg at a
time per process (``SLOTS``); each thread closes its database connection at the end.

A thread dies with its process: an analysis it was running stays ``running`` with a
stale heartbeat (or ``queued``); the next process' first background analysis runs the
sweep (``sweep_analyses``), which starts a thread for each such analysis. Tests wait for
the threads with :func:`wait`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.db import connections

log = logging.getLogger(__name__)

#: One gnubg at a time in this process: a thread waits here for its turn.
SLOTS = threading.BoundedSemaphore(1)

_lock = threading.Lock()
_running: set[threading.Thread] = set()
_started = False


def first_start() -> bool:
    """``True`` once per process: at its first background analysis (then the sweep runs)."""
    global _started
    with _lock:
        first, _started = not _started, True
    return first


def start(analysis_id: int, analyse: Callable[[int], object]) -> threading.Thread:
    """Start ``analyse(analysis_id)`` in a daemon thread (it waits for a free slot)."""
    thread = threading.Thread(
        target=_run, args=(analysis_id, analyse), name=f"analysis-{analysis_id}", daemon=True
    )
    with _lock:
        _running.add(thread)
    thread.start()
    return thread


def _run(analysis_id: int, analyse: Callable[[int], object]) -> None:
    from matches.services.analysis import analysis_fail

    try:
        with SLOTS:
            analyse(analysis_id)
    except Exception as exc:  # never left running: the reason is kept
        log.exception("analysis %s failed in its background thread", analysis_id)
        try:
            analysis_fail(analysis_id=analysis_id, reason=f"the analysis crashed: {exc}")
        except Exception:
            log.warning("could not mark analysis %s failed", analysis_id, exc_info=True)
    finally:
        connections.close_all()
        with _lock:
            _running.discard(threading.current_thread())


def running() -> int:
    """How many background analyses this process has started and not finished."""
    with _lock:
        return len(_running)


def wait(timeout: float | None = None) -> bool:
    """Wait until every background analysis of this process finished (``False``: timed out)."""
    while True:
        with _lock:
            threads = list(_running)
        if not threads:
            return True
        for thread in threads:
            thread.join(timeout)
            if thread.is_alive():
                return False
