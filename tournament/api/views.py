"""The tournament API: thin views that parse input, check who asks and call a service or a
selector. Shapes are in ``serializers``; errors go through ``tournament.api.errors``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import generics, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.api.views import request_meta
from matches.models import Match
from tournament import selectors, services
from tournament.api import serializers as io
from tournament.api.errors import DomainError
from tournament.api.permissions import (
    CanCreateTournament,
    CanManagePlayers,
    IsDirectorOrReadOnly,
    tournament_id_of,
)
from tournament.json_parser import DepthLimitedJSONParser
from tournament.models import Entry, Event, Player, Round, Tournament, User
from tournament.services.common import refuse
from tournament.services.imports import players_import_csv
from tournament.services.tables import match_table_set, round_tables_assign

ERROR = inline_serializer(
    "Error",
    {
        "code": serializers.CharField(),
        "message": serializers.CharField(),
        "detail": serializers.DictField(),
    },
)
READ_ERRORS = {404: OpenApiResponse(ERROR, description="Not found")}
WRITE_ERRORS = {
    400: OpenApiResponse(ERROR, description="Bad input (field-level detail) or a rule refused it"),
    401: OpenApiResponse(ERROR, description="Not logged in"),
    403: OpenApiResponse(ERROR, description="Not a director of this tournament"),
    404: OpenApiResponse(ERROR, description="Not found"),
    409: OpenApiResponse(ERROR, description="The state changed under you"),
}


def _get(model: Any, **lookup: Any) -> Any:
    """``get_object_or_404``, and 404 for an id too large for any row (never a 500)."""
    if any(isinstance(v, int) and not 0 < v <= io.ID_MAX for v in lookup.values()):
        raise Http404
    return get_object_or_404(model, **lookup)


def _by(request: Request) -> User | None:
    """Who acts, for a service's record (the view's permissions let only users through)."""
    return request.user if isinstance(request.user, User) else None


def _visible(request: Request, tournament_id: int) -> None:
    """404 for a private tournament the user does not direct."""
    if not selectors.tournaments_visible_to(request.user).filter(pk=tournament_id).exists():
        raise Http404


class DirectorView(APIView):
    """Reads for everyone (private tournaments: their directors); writes for directors."""

    permission_classes = [IsDirectorOrReadOnly]

    def checked(self, request: Request, obj: Any) -> Any:
        _visible(request, tournament_id_of(obj))
        self.check_object_permissions(request, obj)
        return obj

    def event(self, request: Request, pk: int) -> Event:
        return self.checked(request, _get(Event, pk=pk))

    def match(self, request: Request, pk: int) -> Match:
        return self.checked(request, _get(Match.objects.select_related("round"), pk=pk))


def _entry_of_player(match: Match, player_id: int, field: str) -> Entry:
    for entry_id in (match.entry1_id, match.entry2_id):
        if entry_id is None:
            continue
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        if entry.player_id == player_id:
            return entry
    raise refuse(
        f"Player {player_id} does not play match {match.pk}.", code="not-in-match", field=field
    )


# ---- players -------------------------------------------------------------------------


class PlayerListView(generics.ListAPIView):
    serializer_class = io.PlayerSerializer
    permission_classes = [CanManagePlayers]

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.player_list(
            q=self.request.query_params.get("q", "").strip(), user=self.request.user
        )

    @extend_schema(
        operation_id="players_list",
        parameters=[
            OpenApiParameter(
                "q",
                str,
                description="Part of a name or club (directors: or email). Players seen "
                "only in private tournaments are listed to their directors only.",
            )
        ],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="players_create",
        request=io.PlayerCreateSerializer,
        responses={201: io.PlayerSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = io.PlayerCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(**data.validated_data)
        return Response(io.PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(generics.RetrieveAPIView):
    serializer_class = io.PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.players_visible_to(self.request.user)

    @extend_schema(
        operation_id="players_retrieve", responses={200: io.PlayerSerializer, **READ_ERRORS}
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerImportView(APIView):
    permission_classes = [CanManagePlayers]
    parser_classes = [MultiPartParser, FormParser, DepthLimitedJSONParser]

    @extend_schema(
        operation_id="players_import",
        request={
            "multipart/form-data": io.PlayerImportSerializer,
            "application/json": io.PlayerImportSerializer,
        },
        responses={200: io.PlayerImportResultSerializer, **WRITE_ERRORS},
        summary="Import players from CSV (name,email,rating,club); all or nothing",
    )
    def post(self, request: Request) -> Response:
        data = io.PlayerImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = None
        if data.validated_data.get("event") is not None:
            event = Event.objects.filter(pk=data.validated_data["event"]).first()
            if event is None:
                raise refuse("No such event.", code="invalid", field="event")
            _visible(request, event.tournament_id)
            if not selectors.user_directs(request.user, event.tournament_id):
                self.permission_denied(
                    request, message="Only this tournament's directors may do that."
                )
        upload = data.validated_data.get("file")
        text: str | bytes = upload.read() if upload is not None else data.validated_data["csv"]
        result = players_import_csv(data=text, event=event, by=_by(request))
        if result.errors:
            raise refuse(
                f"{len(result.errors)} problem(s) in the file; nothing was imported. "
                f"Line {result.errors[0].row}: {result.errors[0].message}",
                code="invalid-csv",
                field="file",
                errors=io.ImportRowErrorSerializer(result.errors, many=True).data,
            )
        return Response(io.PlayerImportResultSerializer(result).data)


# ---- tournaments ---------------------------------------------------------------------


class TournamentListView(generics.ListAPIView):
    serializer_class = io.TournamentSerializer
    permission_classes = [CanCreateTournament]

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournaments_visible_to(self.request.user).order_by("-starts_on", "name")

    @extend_schema(operation_id="tournaments_list")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="tournaments_create",
        request=io.TournamentCreateSerializer,
        responses={201: io.TournamentSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = io.TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(director=_by(request), **data.validated_data)
        return Response(io.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(DirectorView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        responses={200: io.TournamentSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, _get(Tournament, slug=slug))
        return Response(io.TournamentSerializer(tournament).data)

    @extend_schema(
        operation_id="tournaments_partial_update",
        request=io.TournamentSettingsSerializer,
        responses={200: io.TournamentSerializer, **WRITE_ERRORS},
        summary="Change the tournament's details (only those sent; the slug stays)",
    )
    def patch(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, _get(Tournament, slug=slug))
        data = io.TournamentSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        current = {
            field: getattr(tournament, field)
            for field in ("name", "starts_on", "ends_on", "venue", "time_zone", "is_public")
        }
        tournament = services.tournament_update(
            tournament=tournament, **{**current, **data.validated_data}
        )
        return Response(io.TournamentSerializer(tournament).data)


class EventListView(DirectorView):
    @extend_schema(
        operation_id="tournaments_events_list",
        responses={200: io.EventSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, _get(Tournament, slug=slug))
        return Response(io.EventSerializer(selectors.event_list(tournament), many=True).data)

    @extend_schema(
        operation_id="tournaments_events_create",
        request=io.EventCreateSerializer,
        responses={201: io.EventDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, _get(Tournament, slug=slug))
        data = io.EventCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        feeds = values.pop("feeds", None)
        event = services.event_create(
            tournament=tournament,
            feeds_from=_feeding_event(tournament, feeds),
            feed_rounds=feeds["rounds"] if feeds else None,
            **values,
        )
        return Response(
            io.EventDetailSerializer(selectors.event_detail(event.pk)).data,
            status=status.HTTP_201_CREATED,
        )


# ---- events --------------------------------------------------------------------------


class EventDetailView(DirectorView):
    @extend_schema(
        operation_id="events_retrieve",
        responses={200: io.EventDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, _get(Event, pk=pk))
        return Response(io.EventDetailSerializer(selectors.event_detail(event.pk)).data)

    @extend_schema(
        operation_id="events_partial_update",
        request=io.EventSettingsSerializer,
        responses={200: io.EventDetailSerializer, **WRITE_ERRORS},
        summary="Change the event's settings (only those sent; rounds not started take "
        "new match lengths; a setting the draw fixed is refused with the reason)",
    )
    def patch(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.EventSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "feeds" in values:
            feeds = values.pop("feeds")
            values["feeds_from"] = _feeding_event(event.tournament, feeds)
            values["feed_rounds"] = feeds["rounds"] if feeds else []
        with _named_as_sent(EVENT_SETTING_FIELDS):
            services.event_update(event=event, **values)
        return Response(io.EventDetailSerializer(selectors.event_detail(event.pk)).data)


# The request's name of each setting the event services name by the model's field.
EVENT_SETTING_FIELDS = {"rounds_planned": "rounds", "feeds_from": "feeds", "feed_rounds": "feeds"}


@contextmanager
def _named_as_sent(names: dict[str, str]) -> Iterator[None]:
    """Report a service's refusal under the field name the request used."""
    try:
        yield
    except DomainError as err:
        field = err.extra.get("field")
        if field in names:
            err.extra["field"] = names[field]
        raise


def _feeding_event(tournament: Tournament, feeds: dict[str, Any] | None) -> Event | None:
    """The event named by ``feeds`` (``{"from": id, "rounds": [...]}``), of this tournament."""
    if feeds is None:
        return None
    source = Event.objects.filter(pk=feeds["from"], tournament=tournament).first()
    if source is None:
        raise refuse(
            f"Event {feeds['from']} is not an event of this tournament.",
            code="bad-feed",
            field="feeds",
        )
    return source


class EntryListView(DirectorView):
    @extend_schema(
        operation_id="events_entries_list",
        responses={200: io.EntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        return Response(io.EntrySerializer(selectors.entry_list(event), many=True).data)

    @extend_schema(
        operation_id="events_entries_create",
        request=io.EntryCreateSerializer,
        responses={201: io.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = Player.objects.filter(pk=data.validated_data["player"]).first()
        if player is None:
            raise refuse("No such player.", code="invalid", field="player")
        entry = services.entry_register(
            event=event, player=player, seed=data.validated_data.get("seed"), by=_by(request)
        )
        return Response(io.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryCheckInView(DirectorView):
    @extend_schema(
        operation_id="entries_check_in",
        request=None,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.checked(request, _get(Entry, pk=pk))
        entry = services.entry_check_in(entry=entry, by=_by(request))
        return Response(io.EntrySerializer(entry).data)


class EntryWithdrawView(DirectorView):
    @extend_schema(
        operation_id="entries_withdraw",
        request=io.ReasonSerializer,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.checked(request, _get(Entry, pk=pk))
        data = io.ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_withdraw(entry=entry, by=_by(request), **data.validated_data)
        return Response(io.EntrySerializer(entry).data)


class EntryWithdrawUndoView(DirectorView):
    @extend_schema(
        operation_id="entries_withdraw_undo",
        request=None,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
        summary="Take a withdrawal back (400 place-given-away once a walkover gave their "
        "place to someone else)",
    )
    def post(self, request: Request, pk: int) -> Response:
        from tournament.services.entries import entry_withdraw_undo

        entry = self.checked(request, _get(Entry, pk=pk))
        entry = entry_withdraw_undo(entry=entry, by=_by(request))
        return Response(io.EntrySerializer(entry).data)


class DrawView(DirectorView):
    @extend_schema(
        operation_id="events_draw",
        request=io.DrawCreateSerializer,
        responses={201: io.DrawResultSerializer, **WRITE_ERRORS},
        summary="Make the draw; answers with round 1",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.DrawCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        draw = services.draw_make(event=event, by=_by(request), **data.validated_data)
        first = event.rounds.filter(bracket=Round.Bracket.MAIN, number=1).first()
        matches = selectors.match_list(event=event.pk, round_number=1, bracket=Round.Bracket.MAIN)
        body = io.DrawResultSerializer({"draw": draw, "round": first, "matches": matches}).data
        return Response(body, status=status.HTTP_201_CREATED)


class NextRoundView(DirectorView):
    @extend_schema(
        operation_id="events_rounds_next",
        request=None,
        responses={201: io.DrawResultSerializer, **WRITE_ERRORS},
        summary="Pair and start the next round (Swiss, round robin)",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        round_ = services.event_next_round(event=event, by=_by(request))
        draw = event.draws.order_by("-created_at").first()
        matches = selectors.match_list(event=event.pk, round_number=round_.number)
        body = io.DrawResultSerializer({"draw": draw, "round": round_, "matches": matches}).data
        return Response(body, status=status.HTTP_201_CREATED)


class RoundDetailView(DirectorView):
    def get_round(self, request: Request, pk: int) -> Round:
        return self.checked(request, _get(Round, pk=pk))

    @extend_schema(
        operation_id="rounds_retrieve", responses={200: io.RoundSerializer, **READ_ERRORS}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(io.RoundSerializer(self.get_round(request, pk)).data)

    @extend_schema(
        operation_id="rounds_length_update",
        request=io.RoundLengthSerializer,
        responses={200: io.RoundSerializer, **WRITE_ERRORS},
        summary="Change a round's match length before it starts",
    )
    def patch(self, request: Request, pk: int) -> Response:
        round_ = self.get_round(request, pk)
        data = io.RoundLengthSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = services.round_length_set(
            round_=round_, length=data.validated_data["match_length"], by=_by(request)
        )
        return Response(io.RoundSerializer(round_).data)


class RoundStartView(DirectorView):
    @extend_schema(
        operation_id="rounds_start",
        request=None,
        responses={200: io.RoundSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = self.checked(request, _get(Round, pk=pk))
        round_ = services.round_start(round_=round_, by=_by(request))
        return Response(io.RoundSerializer(round_).data)


class RoundTablesView(DirectorView):
    @extend_schema(
        operation_id="rounds_tables_assign",
        request=None,
        responses={200: io.MatchSerializer(many=True), **WRITE_ERRORS},
        summary="Number the tables: the round's ready matches without one get the lowest free "
        "tables, in bracket order",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = self.checked(request, _get(Round, pk=pk))
        round_tables_assign(round_=round_, by=_by(request))
        matches = selectors.match_list().filter(round_id=round_.pk).order_by("slot")
        return Response(io.MatchSerializer(matches, many=True).data)


class BracketView(DirectorView):
    @extend_schema(
        operation_id="events_bracket",
        responses={200: io.BracketSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(
            request,
            _get(Event.objects.select_related("champion__player"), pk=pk),
        )
        return Response(io.BracketSerializer(selectors.bracket_tree(event)).data)


class StandingsView(DirectorView):
    @extend_schema(
        operation_id="events_standings",
        responses={200: io.StandingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, _get(Event, pk=pk))
        rows = selectors.standings(event)
        body = {
            "event": event.pk,
            "tiebreaks": selectors.event_tiebreaks(event),
            "rows": rows,
        }
        return Response(io.StandingsSerializer(body).data)


# ---- matches -------------------------------------------------------------------------


class MatchFilterSerializer(serializers.Serializer):
    event = io.IdField(required=False)
    tournament = io.IdField(required=False)
    round = serializers.IntegerField(required=False, min_value=1, max_value=1000)
    bracket = serializers.ChoiceField(choices=Round.Bracket.choices, required=False)
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    player = io.IdField(required=False)


class MatchListView(generics.ListAPIView):
    serializer_class = io.MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        params = MatchFilterSerializer(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        f = params.validated_data
        qs = selectors.match_list(
            event=f.get("event"),
            tournament=f.get("tournament"),
            round_number=f.get("round"),
            bracket=f.get("bracket"),
            status=f.get("status"),
            player=f.get("player"),
        )
        visible = selectors.tournaments_visible_to(self.request.user)
        return qs.filter(event__tournament__in=visible)

    @extend_schema(
        operation_id="matches_list",
        parameters=[MatchFilterSerializer],
        responses={200: io.MatchSerializer(many=True), 400: OpenApiResponse(ERROR)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class MatchDetailView(DirectorView):
    @extend_schema(
        operation_id="matches_retrieve",
        responses={200: io.MatchDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        self.match(request, pk)
        return Response(io.MatchDetailSerializer(selectors.match_detail(pk)).data)

    @extend_schema(
        operation_id="matches_table_update",
        request=io.MatchTableSerializer,
        responses={200: io.MatchDetailSerializer, **WRITE_ERRORS},
        summary="Put a match at a table (board), or take it off its table",
    )
    def patch(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = io.MatchTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_table_set(match=match, table=data.validated_data["table"], by=_by(request))
        return _match_answer(pk)


def _match_answer(pk: int) -> Response:
    return Response(io.MatchDetailSerializer(selectors.match_detail(pk)).data)


class MatchForfeitView(DirectorView):
    decision = "forfeit"

    @extend_schema(
        operation_id="matches_forfeit",
        request=io.ForfeitSerializer,
        responses={200: io.MatchDetailSerializer, **WRITE_ERRORS},
        summary="A director records a forfeit: the named player wins",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = io.ForfeitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        winner = _entry_of_player(match, data.validated_data["winner"], "winner")
        decide = services.match_forfeit if self.decision == "forfeit" else services.match_walkover
        decide(
            match=match,
            winner=winner,
            reason=data.validated_data["reason"],
            by=_by(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)


class MatchWalkoverView(MatchForfeitView):
    decision = "walkover"

    @extend_schema(
        operation_id="matches_walkover",
        request=io.ForfeitSerializer,
        responses={200: io.MatchDetailSerializer, **WRITE_ERRORS},
        summary="A director records a walkover: the opponent never came",
    )
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


class MatchPenaltyView(DirectorView):
    @extend_schema(
        operation_id="matches_penalty",
        request=io.PenaltySerializer,
        responses={200: io.MatchDetailSerializer, **WRITE_ERRORS},
        summary="Late-arrival penalty points (past half the length: forfeit)",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = io.PenaltySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        against = _entry_of_player(match, data.validated_data["player"], "player")
        services.match_penalty_add(
            match=match,
            against=against,
            points=data.validated_data["points"],
            reason=data.validated_data["reason"],
            by=_by(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)


class MatchCorrectView(DirectorView):
    @extend_schema(
        operation_id="matches_correct",
        request=io.CorrectSerializer,
        responses={200: io.MatchDetailSerializer, **WRITE_ERRORS},
        summary="Correct a decided match's winner (and its score with it); the next round "
        "is re-seated",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = io.CorrectSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        winner = _entry_of_player(match, data.validated_data["winner"], "winner")
        score = data.validated_data.get("score")
        services.match_correct_winner(
            match=match,
            winner=winner,
            score=None if score is None else (score[0], score[1]),
            confirm=data.validated_data["confirm"],
            cascade=data.validated_data["cascade"],
            reason=data.validated_data["reason"],
            by=_by(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)
