"""GNU Backgammon's analysis of accepted match files: queue, claim, run, store.

An analysis belongs to one accepted record (a ``record`` submission): a corrected or
replaced file is a new submission and gets an analysis of its own; the old one is
kept. A director's re-run is the next ``run`` of the same record. Nothing here
touches the match, its games or its result: an analysis only reads the stored file.

The task that runs it may be delivered twice (late acks) or again after its worker
was lost: :func:`analysis_claim` lets one run at a time own an analysis (a heartbeat
shows it is alive) and a lost run is taken over once, then the analysis fails.

The analysis queue is shared by every tournament: at most
``settings.ANALYSIS_SLOTS_PER_TOURNAMENT`` analyses of one tournament are on it (or
running); the others wait in the database (``held``) and :func:`analysis_release` lets
them go, oldest first, as that tournament's slots free. One tournament's hundred
uploads thus wait behind each other, not in front of another tournament's one.

A director's re-run asked while the match's analysis is queued or running is merged
into it; re-runs are capped per match and per director in any hour (:func:`analysis_rerun`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.access import Actor, NotAllowed, user_directs
from matches.analysis import engine
from matches.analysis.figures import Figures, match_figures
from matches.analysis_selectors import RerunLimits, rerun_limits
from matches.errors import AppError, Invalid
from matches.models import Analysis, AnalysisFigures, Match, Submission
from matches.services.ledger import MatchNotFound
from matches.signals import announce_analysis_queued
from tournament.models import Tournament

log = logging.getLogger(__name__)

#: A running analysis whose heartbeat is older than this lost its worker.
HEARTBEAT_STALE = dt.timedelta(seconds=120)
#: Runs of one analysis: the first, and one more after a lost worker.
MAX_ATTEMPTS = 2
#: The plies of the quick pass that comes first.
QUICK_PLIES = 0

UNAVAILABLE = "analysis unavailable: GNU Backgammon (gnubg) is not installed on this server"


def gnubg_path() -> str | None:
    """The gnubg executable this server runs (setting ``GNUBG_PATH``), or ``None``."""
    return engine.gnubg_find(getattr(settings, "GNUBG_PATH", ""))


def analysis_auto() -> bool:
    """Whether stored records are analysed by themselves (setting ``ANALYSIS_AUTO``)."""
    return bool(getattr(settings, "ANALYSIS_AUTO", True))


def _options(plies: int) -> dict[str, Any]:
    return {
        "quick_plies": QUICK_PLIES,
        "chequer_plies": plies,
        "cube_plies": plies,
        "cubeful": True,
        "prune": True,
        "noise": 0.0,
        "threads": 1,
        "timeout_seconds": settings.ANALYSIS_TIMEOUT,
    }


def analysis_request(
    *, submission_id: int, requested_by: Any = None, again: bool = False
) -> Analysis | None:
    """Queue an analysis of an accepted record, once (``again``: a director's re-run).

    Answers ``None`` when the record is not an accepted match file or (unless
    ``again``) its tournament has analysis off; an existing analysis of the record
    when there is one and this is not a re-run. With gnubg missing the analysis is
    stored as unavailable, with the reason.
    """
    with transaction.atomic():
        submission = (
            Submission.objects.select_for_update(of=("self",))
            .select_related("match__event__tournament")
            .filter(
                pk=submission_id,
                kind=Submission.Kind.RECORD,
                status=Submission.Status.ACCEPTED,
            )
            .first()
        )
        if submission is None:
            return None
        tournament = submission.match.event.tournament
        if not (again or tournament.analysis_enabled):
            return None
        runs = Analysis.objects.filter(submission=submission)
        if not again:
            existing = runs.order_by("-run").first()
            if existing is not None:
                return existing
        last = runs.aggregate(last=Max("run"))["last"] or 0
        path = gnubg_path()
        analysis = Analysis.objects.create(
            match=submission.match,
            submission=submission,
            run=last + 1,
            plies=tournament.analysis_plies,
            options=_options(tournament.analysis_plies),
            requested_by=requested_by,
            engine=engine.gnubg_version(path) if path else "",
            status=Analysis.Status.QUEUED if path else Analysis.Status.UNAVAILABLE,
            reason="" if path else UNAVAILABLE,
        )
        if path:
            announce_analysis_queued(analysis.pk)
    return analysis


def latest_record(match_id: int) -> Submission | None:
    """The match's accepted match file that counts now (the last one accepted)."""
    return (
        Submission.objects.filter(
            match_id=match_id, kind=Submission.Kind.RECORD, status=Submission.Status.ACCEPTED
        )
        .order_by("-version")
        .first()
    )


def analysis_record_stored(*, match_id: int) -> Analysis | None:
    """After a match file was accepted: queue its analysis (if analysis is on)."""
    if not analysis_auto():
        return None
    record = latest_record(match_id)
    if record is None:
        return None
    try:
        return analysis_request(submission_id=record.pk)
    except Exception:  # the result is stored; the sweep queues the analysis later
        log.warning("could not queue the analysis of match %s", match_id, exc_info=True)
        return None


IN_FLIGHT = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)


@dataclass(frozen=True)
class Rerun:
    """A director's re-run: the analysis that will run and whether the ask was merged into
    one already queued or running (no new run)."""

    analysis: Analysis
    merged: bool
    limits: RerunLimits

    def message(self) -> str:
        """What happened, for the director (the console's notice, the API's ``message``)."""
        if self.merged:
            said = _(
                "The analysis is already {status} (run {run}): your re-run was merged into it."
            ).format(status=self.analysis.status_in_text(), run=self.analysis.run)
        else:
            said = _("Analysis queued again (run {run}).").format(run=self.analysis.run)
        return f"{said} {self.limits.sentence()}"


def analysis_rerun(*, match_id: int, actor: Actor) -> Rerun:
    """A director's re-run of the analysis of the match's current file (403 for others).

    Merged into the match's analysis when one is queued or running (nothing new is
    queued); otherwise a new run, within the caps per match and per director in any
    hour (429 ``rerun-limit`` past them, saying the caps and when the next is allowed).
    """
    match = Match.objects.select_related("event__tournament").filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    if not user_directs(actor.user, match.event.tournament_id):
        if not match.event.tournament.is_public:
            raise MatchNotFound()  # a private tournament's match: as if there were none
        raise NotAllowed(_("Only the tournament's directors may re-run an analysis."))
    record = latest_record(match_id)
    if record is None:
        raise Invalid(
            _("This match has no accepted match file to analyse."), code="no-match-file", field=None
        )
    with transaction.atomic():
        # One re-run at a time per director (the director's cap) and per record (the merge).
        if actor.user is not None:
            get_user_model().objects.select_for_update().filter(pk=actor.user.pk).first()
        Submission.objects.select_for_update().filter(pk=record.pk).first()
        waiting = (
            Analysis.objects.filter(match_id=match_id, status__in=IN_FLIGHT).order_by("-pk").first()
        )
        limits = rerun_limits(match_id=match_id, user=actor.user)
        if waiting is not None:
            return Rerun(analysis=waiting, merged=True, limits=limits)
        if limits.match_left == 0 or limits.director_left == 0:
            raise AppError(
                _("Too many re-runs: {limits} Try again later; the analysis shown stays.").format(
                    limits=limits.sentence()
                ),
                code="rerun-limit",
                status=429,
                per_match=limits.per_match,
                per_director=limits.per_director,
                match_left=limits.match_left,
                director_left=limits.director_left,
            )
        analysis = analysis_request(submission_id=record.pk, requested_by=actor.user, again=True)
        assert analysis is not None
        limits = rerun_limits(match_id=match_id, user=actor.user)
    return Rerun(analysis=analysis, merged=False, limits=limits)


def analysis_release(
    *, tournament_id: int | None = None, analysis_id: int | None = None
) -> list[int]:
    """The held analyses of a tournament (or of ``analysis_id``'s) that may go to the queue
    now: its oldest, up to its free slots; they are marked sent. The caller sends them.

    A tournament's slots are its analyses queued and sent, or running
    (``settings.ANALYSIS_SLOTS_PER_TOURNAMENT``).
    """
    if tournament_id is None:
        if analysis_id is None:
            return []
        tournament_id = (
            Analysis.objects.filter(pk=analysis_id)
            .values_list("match__event__tournament_id", flat=True)
            .first()
        )
        if tournament_id is None:
            return []
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        ours = Analysis.objects.filter(match__event__tournament_id=tournament_id)
        busy = ours.filter(status__in=IN_FLIGHT, held=False).count()
        free = max(0, settings.ANALYSIS_SLOTS_PER_TOURNAMENT - busy)
        if not free:
            return []
        ids = list(
            ours.filter(status=Analysis.Status.QUEUED, held=True)
            .order_by("queued_at", "pk")
            .values_list("pk", flat=True)[:free]
        )
        Analysis.objects.filter(pk__in=ids).update(held=False)
    return ids


def tournaments_holding_analyses() -> list[int]:
    """Tournaments with analyses held for a slot (the sweep releases what it can)."""
    return list(
        Analysis.objects.filter(status=Analysis.Status.QUEUED, held=True)
        .values_list("match__event__tournament_id", flat=True)
        .distinct()[:500]
    )


def analysis_claim(*, analysis_id: int) -> tuple[Analysis | None, str]:
    """Take an analysis to run it: ``(analysis, "")``, or ``(None, why not)``.

    ``why`` is ``"finished"`` (nothing to do: a duplicate delivery), ``"busy"`` (another
    run is alive: try later) or ``"gone"``.
    """
    now = timezone.now()
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None:
            return None, "gone"
        if analysis.status not in (Analysis.Status.QUEUED, Analysis.Status.RUNNING):
            return None, "finished"
        if analysis.status == Analysis.Status.RUNNING:
            beat = analysis.heartbeat_at or analysis.started_at or now
            if now - beat < HEARTBEAT_STALE:
                return None, "busy"
            if analysis.attempts >= MAX_ATTEMPTS:
                _finish(
                    analysis,
                    Analysis.Status.FAILED,
                    f"the worker running it was lost {analysis.attempts} times",
                )
                return None, "finished"
        analysis.status = Analysis.Status.RUNNING
        analysis.attempts += 1
        analysis.started_at = analysis.started_at or now
        analysis.heartbeat_at = now
        analysis.save(update_fields=["status", "attempts", "started_at", "heartbeat_at"])
    return analysis, ""


def _finish(analysis: Analysis, status: str, reason: str = "") -> None:
    analysis.status = status
    analysis.reason = reason[:2000]
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["status", "reason", "finished_at"])


def _heartbeat(analysis_id: int) -> None:
    Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.RUNNING).update(
        heartbeat_at=timezone.now()
    )


def analysis_run(*, analysis_id: int, on_pass: Callable[[], None] | None = None) -> str:
    """Run a claimed analysis: the quick pass, then the full one; answers what happened.

    Each pass is stored as it finishes (figures per plies), so a page shows the quick
    figures while the full pass runs. A pass that fails marks the analysis failed with
    gnubg's reason; the figures of an earlier pass stay. ``on_pass`` runs after each
    stored pass (the pages that show it are refreshed).
    """
    analysis, why = analysis_claim(analysis_id=analysis_id)
    if analysis is None:
        return why
    path = gnubg_path()
    if path is None:
        with transaction.atomic():
            _finish(analysis, Analysis.Status.UNAVAILABLE, UNAVAILABLE)
        return Analysis.Status.UNAVAILABLE
    submission = analysis.submission
    passes = [QUICK_PLIES] if analysis.plies == QUICK_PLIES else [QUICK_PLIES, analysis.plies]
    if analysis.plies_done is not None:  # a lost run finished some passes
        passes = [p for p in passes if p > analysis.plies_done] or passes[-1:]
    for plies in passes:
        try:
            run = engine.analyse(
                gnubg=path,
                text=submission.file_text,
                file_name=submission.file_name,
                plies=plies,
                timeout=float(settings.ANALYSIS_TIMEOUT),
                tick=lambda: _heartbeat(analysis_id),
            )
            stored = _store_pass(analysis_id, plies, run, path, final=plies == passes[-1])
        except Exception as exc:  # failed at once with the reason, never left running
            log.exception("analysis %s crashed", analysis_id)
            analysis_fail(analysis_id=analysis_id, reason=f"the analysis crashed: {exc}")
            return Analysis.Status.FAILED
        if stored and on_pass is not None:
            on_pass()
        if not stored:
            return "finished"  # somebody else finished or failed it meanwhile
        if not run.ok:
            return Analysis.Status.FAILED
    return Analysis.Status.DONE


def _store_pass(analysis_id: int, plies: int, run: engine.Run, path: str, *, final: bool) -> bool:
    """Store one pass' figures (or its failure); ``False`` if the analysis is no longer ours."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update(of=("self",))
            .select_related("match__entry1", "match__entry2", "submission")
            .filter(pk=analysis_id, status=Analysis.Status.RUNNING)
            .first()
        )
        if analysis is None:
            return False
        analysis.cpu_seconds = (analysis.cpu_seconds or 0.0) + run.cpu_seconds
        analysis.wall_seconds = (analysis.wall_seconds or 0.0) + run.wall_seconds
        analysis.peak_memory_kb = max(analysis.peak_memory_kb or 0, run.peak_kb)
        analysis.engine = engine.gnubg_version(path)
        analysis.heartbeat_at = timezone.now()
        fields = ["cpu_seconds", "wall_seconds", "peak_memory_kb", "engine", "heartbeat_at"]
        if not run.ok or run.match is None:
            analysis.save(update_fields=fields)
            label = "quick" if plies == QUICK_PLIES and analysis.plies != plies else "full"
            _finish(analysis, Analysis.Status.FAILED, f"{label} {plies}-ply pass: {run.reason}")
            return True
        swapped = bool(analysis.submission.payload.get("swapped"))
        try:
            # The match page lists the match's first player on the left: gnubg's O if swapped.
            result = match_figures(run.match, left=1 if swapped else 0)
        except (
            KeyError,
            TypeError,
            ValueError,
            IndexError,
            AttributeError,
            ArithmeticError,
        ) as exc:
            analysis.save(update_fields=fields)
            _finish(
                analysis, Analysis.Status.FAILED, f"gnubg's statistics could not be read: {exc}"
            )
            return True
        match = analysis.match
        # gnubg's X is the file's first player: the match's second one when swapped.
        match_side = (2, 1) if swapped else (1, 2)
        players = {1: match.entry1.player_id if match.entry1 else None}
        players[2] = match.entry2.player_id if match.entry2 else None
        rows: list[AnalysisFigures] = []
        scopes: list[tuple[int, tuple[Figures, Figures] | None]] = [(0, result.match)]
        scopes += list(enumerate(result.games, start=1))
        for game, pair in scopes:
            if pair is None:
                continue
            for gnubg_side, figures in enumerate(pair):
                side = match_side[gnubg_side]
                rows.append(
                    AnalysisFigures(
                        analysis=analysis,
                        plies=plies,
                        game=game,
                        side=side,
                        player_id=players[side],
                        **figures.as_dict(),
                    )
                )
        AnalysisFigures.objects.filter(analysis=analysis, plies=plies).delete()
        AnalysisFigures.objects.bulk_create(rows)
        analysis.mistakes = [
            {**m.as_dict(), "side": match_side[m.side], "player": players[match_side[m.side]]}
            for m in result.mistakes
        ]
        analysis.plies_done = plies
        fields += ["mistakes", "plies_done"]
        analysis.save(update_fields=fields)
        if final:
            _finish(analysis, Analysis.Status.DONE)
    return True


def analysis_fail(*, analysis_id: int, reason: str) -> None:
    """Mark a queued or running analysis failed (its task ran out of time or crashed)."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update()
            .filter(pk=analysis_id, status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING])
            .first()
        )
        if analysis is not None:
            _finish(analysis, Analysis.Status.FAILED, reason)


def analyses_lost(*, older_than: dt.timedelta = dt.timedelta(hours=1)) -> list[int]:
    """Analyses whose task seems lost: queued long ago, or running with a stale heartbeat.

    An hour in the queue is longer than a weekend's burst of uploads keeps one waiting
    (bench/RESULTS.md), so a backlog is not queued twice; a duplicate would do nothing.
    """
    now = timezone.now()
    queued = Analysis.objects.filter(
        status=Analysis.Status.QUEUED, held=False, queued_at__lt=now - older_than
    ).values_list("pk", flat=True)[:200]
    running = Analysis.objects.filter(
        status=Analysis.Status.RUNNING, heartbeat_at__lt=now - HEARTBEAT_STALE
    ).values_list("pk", flat=True)[:200]
    return [*queued, *running]
