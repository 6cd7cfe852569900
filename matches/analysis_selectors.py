"""Reads of GNU Backgammon's analyses: a match's current one, a player's history, PR tables.

A match's current analysis is the latest run of its latest analysed record. Who sees
the figures: everyone when the tournament shows them before the end (its setting) or
once the event is finished; otherwise only its directors. The status is never hidden.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.access import user_directs
from matches.models import Analysis, AnalysisFigures, Match

PR_LABEL = gettext_lazy("gnubg PR (unofficial)")
PR_NOTE = gettext_lazy(
    "PR here is half of GNU Backgammon's overall error rate (mEMG): an unofficial figure. "
    "An official PR for titles and rankings needs eXtreme Gammon (XG) with fixed settings."
)
RATE_FIELDS = (
    "error_rate_memg",
    "chequer_error_rate_memg",
    "cube_error_rate_memg",
    "luck_rate_memg",
)
TOTAL_FIELDS = (
    "error_total_emg",
    "chequer_error_total_emg",
    "cube_error_total_emg",
    "luck_total_emg",
)
COUNT_FIELDS = (
    "total_moves",
    "unforced_moves",
    "cube_decisions",
    "total_cube_decisions",
    "blunders",
    "errors",
    "doubtful",
    "cube_blunders",
    "cube_errors",
)


def rate(value: float) -> float:
    """A rate as gnubg prints it: one decimal."""
    return float(f"{value:.1f}")


def analysis_current(match_id: int) -> Analysis | None:
    """The match's current analysis (latest record, latest run), with its submission."""
    return (
        Analysis.objects.select_related("submission")
        .filter(match_id=match_id)
        .order_by("-submission__version", "-run")
        .first()
    )


class Viewer:
    """Who reads the figures, with one director check per tournament (no query per match).

    Figures are seen by everyone when the tournament shows them before the end (its
    setting) or once the event is finished, otherwise by its directors only; a private
    tournament's by its directors only.
    """

    def __init__(self, user: Any) -> None:
        self.user = user
        self._directs: dict[int, bool] = {}

    def directs(self, tournament_id: int) -> bool:
        if tournament_id not in self._directs:
            self._directs[tournament_id] = user_directs(self.user, tournament_id)
        return self._directs[tournament_id]

    def sees(self, match: Match) -> bool:
        """Whether the match's figures are shown (``match.event.tournament`` loaded with it)."""
        event = match.event
        tournament = event.tournament
        if not tournament.is_public and not self.directs(tournament.pk):
            return False
        if tournament.analysis_public or event.status == "finished":
            return True
        return self.directs(tournament.pk)


def figures_visible(match: Match, user: Any) -> bool:
    """Whether ``user`` may see the match's analysis figures (the status is always shown)."""
    return Viewer(user).sees(match)


def _figures_rows(analysis: Analysis) -> list[AnalysisFigures]:
    plies = analysis.plies_done
    if plies is None:
        return []
    return list(
        AnalysisFigures.objects.filter(analysis=analysis, plies=plies)
        .select_related("player")
        .order_by("game", "side")
    )


def figures_data(row: AnalysisFigures) -> dict[str, Any]:
    """One player's figures in the API's shape (rates to 0.1 mEMG, as gnubg prints them)."""
    data: dict[str, Any] = {
        "player": row.player_id,
        "name": row.player.name if row.player else "",
        "side": row.side,
    }
    for name in RATE_FIELDS:
        data[name] = rate(getattr(row, name))
    data["pr"] = row.pr
    for name in TOTAL_FIELDS:
        data[name] = round(getattr(row, name), 3)
    for name in COUNT_FIELDS:
        data[name] = getattr(row, name)
    return data


def analysis_data(match: Match, analysis: Analysis | None, *, visible: bool) -> dict[str, Any]:
    """``GET /api/matches/{id}/analysis/``: status, engine, settings, figures, biggest mistakes."""
    base: dict[str, Any] = {
        "match": match.pk,
        "label": PR_LABEL,
        "note": PR_NOTE,
        "visible": visible,
    }
    if analysis is None:
        return {
            **base,
            "status": "none",
            "reason": "no accepted match file to analyse",
            "engine": "",
            "plies": None,
            "plies_shown": None,
            "figures_run": None,
            "being_rerun": False,
            "figures_analysed_at": None,
            "players": [],
            "games": [],
            "blunders": [],
            "analysed_at": None,
        }
    # A re-run (or a lost run taken over) keeps the figures of the last finished run of
    # the same file on show, marked as being re-run, until its own are done.
    shown = analysis
    if analysis.status != Analysis.Status.DONE:
        shown = _previous_done(analysis) or analysis
    being_rerun = shown.pk != analysis.pk and analysis.status != Analysis.Status.FAILED
    rows = _figures_rows(shown) if visible else []
    games: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        if row.game:
            games.setdefault(row.game, []).append(figures_data(row))
    return {
        **base,
        "id": analysis.pk,
        "status": analysis.status,
        "reason": analysis.reason,
        "engine": analysis.engine,
        "plies": analysis.plies,
        "plies_shown": shown.plies_done if visible else None,
        "figures_run": shown.run if visible and shown.plies_done is not None else None,
        "being_rerun": being_rerun,
        "figures_analysed_at": shown.finished_at if shown.pk != analysis.pk else None,
        "settings": analysis.options,
        "record_version": analysis.submission.version,
        "run": analysis.run,
        "players": [figures_data(r) for r in rows if r.game == 0],
        "games": [{"game": n, "players": p} for n, p in sorted(games.items())],
        "blunders": shown.mistakes if visible else [],
        "queued_at": analysis.queued_at,
        "started_at": analysis.started_at,
        "analysed_at": analysis.finished_at if analysis.status == "done" else None,
        "cpu_seconds": analysis.cpu_seconds,
        "peak_memory_kb": analysis.peak_memory_kb,
    }


def _previous_done(analysis: Analysis) -> Analysis | None:
    """The last finished run of the same record before ``analysis``, if any."""
    return (
        Analysis.objects.filter(
            match_id=analysis.match_id,
            submission_id=analysis.submission_id,
            status=Analysis.Status.DONE,
            run__lt=analysis.run,
        )
        .order_by("-run")
        .first()
    )


def current_done(matches: Iterable[int]) -> dict[int, Analysis]:
    """Per match id, its current analysis when that one is done."""
    current: dict[int, Analysis] = {}
    rows = (
        Analysis.objects.filter(match_id__in=list(matches))
        .select_related("submission")
        .order_by("match_id", "-submission__version", "-run")
    )
    for analysis in rows:
        current.setdefault(analysis.match_id, analysis)
    return {k: a for k, a in current.items() if a.status == Analysis.Status.DONE}


def match_figures_done(match_ids: Iterable[int]) -> list[AnalysisFigures]:
    """Whole-match figures (full pass) of the matches' current finished analyses."""
    done = current_done(match_ids)
    if not done:
        return []
    figures = AnalysisFigures.objects.filter(
        analysis_id__in=[a.pk for a in done.values()], game=0
    ).select_related("player", "analysis__match")
    return [f for f in figures if f.plies == f.analysis.plies]


@dataclass
class PrRow:
    """One player in a PR table: matches analysed, average PR, the best single match."""

    player_id: int
    name: str
    prs: list[tuple[float, int]] = field(default_factory=list)  # (pr, match id)

    @property
    def matches(self) -> int:
        return len(self.prs)

    @property
    def average(self) -> float:
        return round(sum(p for p, _ in self.prs) / len(self.prs), 2)

    @property
    def best(self) -> float:
        return min(p for p, _ in self.prs)

    @property
    def best_match(self) -> int:
        return min(self.prs)[1]

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player_id,
            "name": self.name,
            "matches_analysed": self.matches,
            "average_pr": self.average,
            "best_pr": self.best,
            "best_match": self.best_match,
        }


def pr_table(user: Any, **where: Any) -> list[PrRow]:
    """The PR table of the matches ``where`` names (``event=...``, ``event__tournament=...``),
    of those whose figures ``user`` may see; best average first.

    One query for the analyses, one more for their figures when there are any.
    """
    analyses = (
        Analysis.objects.filter(**{f"match__{k}": v for k, v in where.items()})
        .select_related("match__event__tournament")
        .order_by("match_id", "-submission__version", "-run")
    )
    current: dict[int, Analysis] = {}
    for a in analyses:
        current.setdefault(a.match_id, a)
    viewer = user if isinstance(user, Viewer) else Viewer(user)
    chosen = {
        a.pk: a
        for a in current.values()
        if a.status == Analysis.Status.DONE and viewer.sees(a.match)
    }
    if not chosen:
        return []
    rows: dict[int, PrRow] = {}
    figures = AnalysisFigures.objects.filter(analysis_id__in=list(chosen), game=0).select_related(
        "player"
    )
    for f in figures:
        analysis = chosen[f.analysis_id]
        if f.plies != analysis.plies or f.player_id is None or f.player is None:
            continue
        row = rows.setdefault(f.player_id, PrRow(f.player_id, f.player.name))
        row.prs.append((f.pr, analysis.match_id))
    return sorted(rows.values(), key=lambda r: (r.average, r.name))


def player_history(player_id: int, user: Any) -> list[dict[str, Any]]:
    """A player's PR per analysed match, oldest first (the player page's chart and the API)."""
    figures = (
        AnalysisFigures.objects.filter(player_id=player_id, game=0)
        .select_related("analysis__match__event__tournament", "analysis__submission")
        .order_by("analysis__finished_at")
    )
    by_match: dict[int, AnalysisFigures] = {}
    current = current_done({f.analysis.match_id for f in figures})
    viewer = user if isinstance(user, Viewer) else Viewer(user)
    for f in figures:
        match = f.analysis.match
        chosen = current.get(match.pk)
        if chosen is None or chosen.pk != f.analysis_id or f.plies != chosen.plies:
            continue
        if viewer.sees(match):
            by_match[match.pk] = f
    history = [
        {
            "match": f.analysis.match_id,
            "event": f.analysis.match.event_id,
            "event_name": f.analysis.match.event.name,
            "tournament": f.analysis.match.event.tournament.slug,
            "analysed_at": f.analysis.finished_at,
            "plies": f.plies,
            "pr": f.pr,
            "error_rate_memg": rate(f.error_rate_memg),
            "luck_rate_memg": rate(f.luck_rate_memg),
        }
        for f in by_match.values()
    ]
    history.sort(key=lambda h: str(h["analysed_at"]))
    return history


def pr_summary(user: Any, **where: Any) -> dict[str, Any]:
    """The PR table of the matches ``where`` names with its label and how many matches
    it counts (the event API embeds it); two queries at most."""
    rows = pr_table(user, **where)
    return {
        "label": PR_LABEL,
        "note": PR_NOTE,
        "matches_analysed": len({m for row in rows for _, m in row.prs}),
        "players": [row.as_dict() for row in rows],
    }


def player_summary(player_id: int, user: Any) -> dict[str, Any]:
    """A player's PR per analysed match with its average and best (the player API embeds it)."""
    history = player_history(player_id, user)
    prs = [h["pr"] for h in history]
    return {
        "label": PR_LABEL,
        "note": PR_NOTE,
        "matches_analysed": len(history),
        "average_pr": round(sum(prs) / len(prs), 2) if prs else None,
        "best_pr": min(prs) if prs else None,
        "matches": history,
    }


#: The window of the re-run caps.
RERUN_WINDOW = dt.timedelta(hours=1)


@dataclass(frozen=True)
class RerunLimits:
    """The re-run caps and what is left of them in the last hour."""

    per_match: int
    per_director: int
    match_left: int
    director_left: int

    def sentence(self) -> str:
        return _(
            "Re-runs: {per_match} per match and {per_director} per director in any hour "
            "({match_left} left for this match, {director_left} for you)."
        ).format(
            per_match=self.per_match,
            per_director=self.per_director,
            match_left=self.match_left,
            director_left=self.director_left,
        )


def rerun_limits(*, match_id: int, user: Any) -> RerunLimits:
    """The caps on re-runs and what is left of them for this match and this director."""
    since = timezone.now() - RERUN_WINDOW
    per_match = settings.ANALYSIS_RERUNS_PER_MATCH_HOUR
    per_director = settings.ANALYSIS_RERUNS_PER_DIRECTOR_HOUR
    reruns = Analysis.objects.filter(run__gt=1, requested_by__isnull=False, queued_at__gte=since)
    of_match = reruns.filter(match_id=match_id).count()
    of_director = reruns.filter(requested_by=user).count() if user is not None else 0
    return RerunLimits(
        per_match=per_match,
        per_director=per_director,
        match_left=max(0, per_match - of_match),
        director_left=max(0, per_director - of_director),
    )
