"""GNU Backgammon's analysis of stored match files, on a queue of its own.

The queue is ``<CELERY_QUEUE>.analysis`` (``settings.ANALYSIS_QUEUE``, routed by
``CELERY_TASK_ROUTES``): a slow analysis never holds up a bracket's advance, an email
or a page refresh, and two stacks sharing one Redis never take each other's work.
Run a worker on it (``make worker`` consumes both queues; ``deploy/compose.yaml`` has a
dedicated ``analysis`` worker). Each worker process runs one gnubg at a time (gnubg
with one thread): the worker's concurrency is the number of analyses at once.

Without a broker (Celery eager: the embedded default, ``make run``) an analysis is not
run inside the upload's request, which would keep the player waiting 15-45 s at 2 plies:
it runs after the commit in a daemon thread of the web process (``analysis_thread``),
one gnubg at a time per process, and the pages show it queued, then running.

A fair share across tournaments: an analysis is sent to the queue only while its
tournament has fewer than ``ANALYSIS_SLOTS_PER_TOURNAMENT`` analyses there (or running);
the others are held in the database and released, oldest first, as each of its
analyses ends (and by the sweep). Analyses go to the queue in the order they are
released, so one tournament's burst of uploads cannot starve another's analyses.

Late acks with a visibility timeout longer than the task's time limit; a redelivered
message finds its analysis claimed (``busy``: it tries again later, and takes over only
when the first run's heartbeat stopped) or finished (it does nothing). After a lost
worker (``reject_on_worker_lost``) the analysis is run once more, then marked failed.
"""

from __future__ import annotations

import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.dispatch import receiver

from matches import signals
from tournament.tasks.typed import Bound, bound_task, task

log = logging.getLogger(__name__)


@receiver(signals.analysis_queued)
def queue_analysis(sender: object, *, analysis_id: int, **kwargs: object) -> None:
    """Queue the analysis; if the broker is down the sweep queues it later.

    Without a broker (tasks run eagerly) it runs in a background thread instead
    (setting ``ANALYSIS_IN_THREAD``, on by default), never in the request.
    """
    try:
        dispatch(analysis_id)
    except Exception:
        log.warning("could not queue analysis %s; the sweep will retry", analysis_id, exc_info=True)


def in_thread() -> bool:
    """Whether analyses run in this process' background thread (no broker: Celery eager)."""
    from tournament.celery import app

    return bool(app.conf.task_always_eager) and bool(getattr(settings, "ANALYSIS_IN_THREAD", True))


def dispatch(analysis_id: int) -> None:
    """Send the analysis to its queue if its tournament has a free slot (else it is held
    in the database until one frees), or to a background thread when there is no broker.

    The first background analysis of a process also takes up the analyses a previous
    process left behind (its threads died with it; no beat runs the sweep there).
    """
    from matches.services.analysis import analysis_release

    _send(analysis_release(analysis_id=analysis_id))


def _send(analysis_ids: list[int]) -> None:
    """Put released analyses on the queue (or in background threads), in their order."""
    if not in_thread():
        for analysis_id in analysis_ids:
            analyse_match.delay(analysis_id)
        return
    from tournament.tasks import analysis_thread

    for analysis_id in analysis_ids:
        analysis_thread.start(analysis_id, analyse)
    if analysis_ids and analysis_thread.first_start():
        sweep_analyses()


def _release_after(analysis_id: int) -> None:
    """An analysis of the tournament ended: its next held one may go."""
    from matches.services.analysis import analysis_release

    try:
        _send(analysis_release(analysis_id=analysis_id))
    except Exception:
        log.warning("could not release the analyses after %s", analysis_id, exc_info=True)


@bound_task(
    name="tournament.tasks.analyse_match",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.ANALYSIS_TASK_TIME_LIMIT,
    time_limit=settings.ANALYSIS_TASK_TIME_LIMIT + 60,
    max_retries=4,
)
def analyse_match(self: Bound, analysis_id: int) -> str:
    """Analyse one stored match file with gnubg: the quick pass, then the full one."""
    from matches.services.analysis import HEARTBEAT_STALE, analysis_fail

    try:
        outcome = analyse(analysis_id)
    except SoftTimeLimitExceeded:
        analysis_fail(
            analysis_id=analysis_id,
            reason=f"the analysis took longer than {settings.ANALYSIS_TASK_TIME_LIMIT} s",
        )
        _release_after(analysis_id)
        return "failed"
    if outcome == "busy":  # another delivery is running it: look again once it could be lost
        raise self.retry(countdown=HEARTBEAT_STALE.total_seconds() + 30)
    return outcome


def analyse(analysis_id: int) -> str:
    """Run the analysis (both passes), refreshing its pages after each; what happened.
    Then the tournament's next held analysis, if any, goes to the queue."""
    from matches.services.analysis import analysis_run

    outcome = analysis_run(analysis_id=analysis_id, on_pass=lambda: _refresh(analysis_id))
    if outcome != "busy":
        _release_after(analysis_id)
    return outcome


def _refresh(analysis_id: int) -> None:
    """The match's pages (event, tournament, players) show the new figures."""
    from matches.models import Analysis
    from tournament import page_cache

    ids = (
        Analysis.objects.filter(pk=analysis_id)
        .values_list("match__event_id", "match__event__tournament_id")
        .first()
    )
    if ids is not None:
        try:
            page_cache.invalidate_event(ids[0], ids[1])
        except Exception:
            log.warning("could not refresh the pages of analysis %s", analysis_id, exc_info=True)


@task(name="tournament.tasks.sweep_analyses")
def sweep_analyses() -> int:
    """Queue again the analyses whose task was lost (broker or worker down), and release
    held analyses into their tournaments' free slots (a release that was missed)."""
    from matches.services.analysis import (
        analyses_lost,
        analysis_release,
        tournaments_holding_analyses,
    )

    lost = analyses_lost()
    threads = in_thread()
    for analysis_id in lost:
        if threads:
            from tournament.tasks import analysis_thread

            analysis_thread.start(analysis_id, analyse)
        else:
            analyse_match.delay(analysis_id)
    if lost:
        log.info("sweep queued %d analyses again", len(lost))
    for tournament_id in tournaments_holding_analyses():
        _send(analysis_release(tournament_id=tournament_id))
    return len(lost)
