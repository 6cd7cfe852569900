"""GNU Backgammon's analyses over the API: a match's, a director's re-run, PR tables, CSV."""

from __future__ import annotations

import csv
import io as stringio
from dataclasses import asdict
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.access import user_directs
from matches.analysis_selectors import (
    PR_LABEL,
    Viewer,
    analysis_current,
    analysis_data,
    figures_visible,
    match_figures_done,
    player_summary,
    pr_summary,
)
from matches.api.views import ERRORS, request_actor
from matches.models import Match
from matches.services.analysis import analysis_rerun
from tournament.models import Event, Player, Tournament


class FiguresSerializer(serializers.Serializer[Any]):
    """One player's figures (rates in mEMG, one decimal as gnubg prints them)."""

    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    side = serializers.IntegerField()
    error_rate_memg = serializers.FloatField()
    chequer_error_rate_memg = serializers.FloatField()
    cube_error_rate_memg = serializers.FloatField()
    pr = serializers.FloatField(help_text=PR_LABEL + ": half the overall error rate")
    luck_rate_memg = serializers.FloatField()
    error_total_emg = serializers.FloatField()
    chequer_error_total_emg = serializers.FloatField()
    cube_error_total_emg = serializers.FloatField()
    luck_total_emg = serializers.FloatField()
    total_moves = serializers.IntegerField()
    unforced_moves = serializers.IntegerField()
    cube_decisions = serializers.IntegerField(help_text="Close or actual cube decisions")
    total_cube_decisions = serializers.IntegerField()
    blunders = serializers.IntegerField(help_text="Chequer moves marked very bad")
    errors = serializers.IntegerField(help_text="Chequer moves marked bad")  # type: ignore[assignment]
    doubtful = serializers.IntegerField()
    cube_blunders = serializers.IntegerField()
    cube_errors = serializers.IntegerField()


class GameFiguresSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    players = FiguresSerializer(many=True)


class MistakeSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField()
    move = serializers.IntegerField(
        help_text="The row of the game's move list (as the match page and a .mat file number it)"
    )
    kind = serializers.ChoiceField(choices=["chequer", "cube"])
    skill = serializers.CharField(help_text='gnubg\'s mark: "very bad" (blunder) or "bad"')
    loss_emg = serializers.FloatField(allow_null=True)
    dice = serializers.CharField()
    played = serializers.CharField()
    best = serializers.CharField()


class AnalysisSerializer(serializers.Serializer[Any]):
    """A match's current analysis; figures empty while hidden (``visible`` false)."""

    id = serializers.IntegerField(required=False)
    match = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed", "unavailable"]
    )
    reason = serializers.CharField()
    engine = serializers.CharField(help_text='e.g. "gnubg 1.07.001"')
    plies = serializers.IntegerField(allow_null=True)
    plies_shown = serializers.IntegerField(
        allow_null=True, help_text="The plies of the figures shown (0 while the full pass runs)"
    )
    figures_run = serializers.IntegerField(
        allow_null=True,
        help_text="The run whose figures are shown: an earlier one while a re-run is not done",
    )
    being_rerun = serializers.BooleanField(
        help_text="A re-run is queued or running: the figures shown are the earlier run's "
        "(figures_run), until the new ones replace them"
    )
    figures_analysed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the earlier run shown was done (null: the current run)"
    )
    label = serializers.CharField()  # type: ignore[assignment]
    note = serializers.CharField()
    visible = serializers.BooleanField()
    settings = serializers.DictField(required=False)
    record_version = serializers.IntegerField(required=False)
    run = serializers.IntegerField(required=False)
    players = FiguresSerializer(many=True)
    games = GameFiguresSerializer(many=True)
    blunders = MistakeSerializer(many=True)
    queued_at = serializers.DateTimeField(required=False)
    started_at = serializers.DateTimeField(required=False, allow_null=True)
    analysed_at = serializers.DateTimeField(allow_null=True)
    cpu_seconds = serializers.FloatField(required=False, allow_null=True)
    peak_memory_kb = serializers.IntegerField(required=False, allow_null=True)


class RerunLimitsSerializer(serializers.Serializer[Any]):
    per_match = serializers.IntegerField(help_text="Re-runs of one match in any hour")
    per_director = serializers.IntegerField(help_text="Re-runs by one director in any hour")
    match_left = serializers.IntegerField(help_text="Left for this match in the last hour")
    director_left = serializers.IntegerField(help_text="Left for you in the last hour")


class RerunSerializer(AnalysisSerializer):
    """The analysis that will run, whether the ask was merged into one already queued or
    running (nothing new queued), and the re-run caps."""

    merged = serializers.BooleanField(
        help_text="True: an analysis of the match was queued or running; the re-run joined it"
    )
    message = serializers.CharField(help_text="What happened, and the caps, in a sentence")
    limits = RerunLimitsSerializer()


class PrRowSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    matches_analysed = serializers.IntegerField()
    average_pr = serializers.FloatField()
    best_pr = serializers.FloatField()
    best_match = serializers.IntegerField()


class PrTableSerializer(serializers.Serializer[Any]):
    """A PR table (``players`` best average first), as its endpoint and the event embed it."""

    label = serializers.CharField()  # type: ignore[assignment]
    note = serializers.CharField()
    matches_analysed = serializers.IntegerField(
        help_text="Matches whose figures this table counts (done, and visible to you)"
    )
    players = PrRowSerializer(many=True)


class HistorySerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    tournament = serializers.CharField()
    analysed_at = serializers.DateTimeField()
    plies = serializers.IntegerField()
    pr = serializers.FloatField()
    error_rate_memg = serializers.FloatField()
    luck_rate_memg = serializers.FloatField()


class PlayerAnalysisSummarySerializer(serializers.Serializer[Any]):
    """A player's PR per analysed match (oldest first), its average and best."""

    label = serializers.CharField()  # type: ignore[assignment]
    note = serializers.CharField()
    matches_analysed = serializers.IntegerField()
    average_pr = serializers.FloatField(allow_null=True)
    best_pr = serializers.FloatField(allow_null=True)
    matches = HistorySerializer(many=True)


class PlayerAnalysisSerializer(PlayerAnalysisSummarySerializer):
    player = serializers.IntegerField()


def _user(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


def _readable(request: Request, tournament: Tournament) -> None:
    """A private tournament's figures are for its directors only (404 for anybody else)."""
    if not tournament.is_public and not user_directs(_user(request), tournament.pk):
        raise Http404


def _match(pk: int, request: Request) -> Match:
    match = get_object_or_404(Match.objects.select_related("event__tournament"), pk=pk)
    _readable(request, match.event.tournament)
    return match


class MatchAnalysisView(APIView):
    """The match's analysis by GNU Backgammon (anyone; figures as the tournament allows)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="matches_analysis",
        responses={200: AnalysisSerializer, 404: ERRORS[404]},
        summary="GNU Backgammon's analysis of the match's file: gnubg PR (unofficial)",
    )
    def get(self, request: Request, pk: int) -> Response:
        match = _match(pk, request)
        visible = figures_visible(match, _user(request))
        return Response(analysis_data(match, analysis_current(match.pk), visible=visible))


class MatchAnalysisRerunView(APIView):
    """A director queues the analysis of the match's current file again (401 without an
    account, like every director's endpoint)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_analysis_rerun",
        request=None,
        responses={
            202: RerunSerializer,
            **ERRORS,
            429: OpenApiResponse(
                description="Too many re-runs (`rerun-limit`): the caps in `detail`"
            ),
        },
        summary="Re-run the analysis (directors)",
        description=(
            "Queues a new run of the analysis of the match's current file. Asked while the "
            "match's analysis is queued or running, it is merged into it (`merged` true, "
            "nothing new queued). At most `ANALYSIS_RERUNS_PER_MATCH_HOUR` (3) re-runs of a "
            "match and `ANALYSIS_RERUNS_PER_DIRECTOR_HOUR` (20) by a director in any hour: "
            "429 `rerun-limit` past them, its `detail` carries the caps."
        ),
    )
    def post(self, request: Request, pk: int) -> Response:
        actor = request_actor(request, read_body=False)
        rerun = analysis_rerun(match_id=pk, actor=actor)
        match = _match(pk, request)
        data = analysis_data(match, analysis_current(match.pk), visible=True)
        data["merged"] = rerun.merged
        data["message"] = rerun.message()
        data["limits"] = asdict(rerun.limits)
        return Response(data, status=status.HTTP_202_ACCEPTED)


def _table(request: Request, **where: Any) -> dict[str, Any]:
    return pr_summary(_user(request), **where)


class EventAnalysisView(APIView):
    """The event's PR table: matches analysed, average and best PR per player."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="events_analysis",
        responses={200: PrTableSerializer, 404: ERRORS[404]},
        summary="The event's PR table (gnubg PR, unofficial)",
    )
    def get(self, request: Request, pk: int) -> Response:
        event = get_object_or_404(Event.objects.select_related("tournament"), pk=pk)
        _readable(request, event.tournament)
        return Response(_table(request, event=event))


def _tournament(slug: str, request: Request) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    _readable(request, tournament)
    return tournament


class TournamentAnalysisView(APIView):
    """The tournament's PR table over all its events."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_analysis",
        responses={200: PrTableSerializer, 404: ERRORS[404]},
        summary="The tournament's PR table (gnubg PR, unofficial)",
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(_table(request, event__tournament=_tournament(slug, request)))


class TournamentAnalysisCsvView(APIView):
    """Every analysed match's figures, one row per player and match, as CSV."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournaments_analysis_csv",
        responses={
            (200, "text/csv"): OpenApiResponse(response=OpenApiTypes.STR),
            (404, "application/json"): ERRORS[404],
        },
        summary="The tournament's analysis figures as CSV",
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug, request)
        matches = Match.objects.filter(event__tournament=tournament).select_related(
            "event__tournament"
        )
        viewer = Viewer(_user(request))
        visible = [m.pk for m in matches if viewer.sees(m)]
        out = stringio.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [
                "match",
                "event",
                "player",
                "name",
                "plies",
                "engine",
                "gnubg_pr_unofficial",
                "error_rate_memg",
                "chequer_error_rate_memg",
                "cube_error_rate_memg",
                "luck_rate_memg",
                "unforced_moves",
                "cube_decisions",
                "blunders",
                "errors",
                "analysed_at",
            ]
        )
        for f in sorted(match_figures_done(visible), key=lambda f: (f.analysis.match_id, f.side)):
            writer.writerow(
                [
                    f.analysis.match_id,
                    f.analysis.match.event_id,
                    f.player_id,
                    _csv_text(f.player.name if f.player else ""),
                    f.plies,
                    f.analysis.engine,
                    f.pr,
                    f"{f.error_rate_memg:.1f}",
                    f"{f.chequer_error_rate_memg:.1f}",
                    f"{f.cube_error_rate_memg:.1f}",
                    f"{f.luck_rate_memg:.1f}",
                    f.unforced_moves,
                    f.cube_decisions,
                    f.blunders,
                    f.errors,
                    # On the tournament's clock, as results.csv and the pages.
                    f.analysis.finished_at.astimezone(tournament.zone).isoformat()
                    if f.analysis.finished_at
                    else "",
                ]
            )
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-analysis.csv"'
        return response


def _csv_text(value: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


class PlayerAnalysisView(APIView):
    """A player's PR per analysed match, oldest first."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_analysis",
        responses={200: PlayerAnalysisSerializer, 404: ERRORS[404]},
        summary="A player's gnubg PR (unofficial) per analysed match",
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(
            Player.objects.filter(Q(entries__event__tournament__is_public=True)).distinct(), pk=pk
        )
        return Response({"player": player.pk, **player_summary(player.pk, _user(request))})
