"""Draws and rounds: make the draw, pair the next round, a round's length, its start
and its tables."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.access import user_directs
from matches.api.shapes import MatchSerializer
from matches.errors import Forbidden
from matches.selectors import match_list
from tournament.api.base import (
    DIRECTOR_READ_ERRORS,
    READ_ERRORS,
    WRITE_ERRORS,
    DirectorView,
    acting_user,
    get_or_404,
)
from tournament.api.serializers.events import EventDetailSerializer
from tournament.api.serializers.rounds import (
    DrawCreateSerializer,
    DrawResultSerializer,
    RoundLengthSerializer,
    RoundSerializer,
    RoundStartSerializer,
)
from tournament.models import Event, Round
from tournament.services.common import ACTIVE
from tournament.services.draws import draw_make
from tournament.services.pairing_jobs import PAIR_INLINE_LIMIT, pairing_job, pairing_job_queue
from tournament.services.rounds import event_end, event_next_round, round_length_set, round_start
from tournament.services.tables import round_tables_assign


class DrawView(DirectorView):
    @extend_schema(
        operation_id="events_draw",
        request=DrawCreateSerializer,
        responses={201: DrawResultSerializer, **WRITE_ERRORS},
        summary="Make the draw; answers with round 1",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = DrawCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        draw = draw_make(event=event, by=acting_user(request), **data.validated_data)
        first = event.rounds.filter(bracket=Round.Bracket.MAIN, number=1).first()
        matches = match_list(event=event.pk, round_number=1, bracket=Round.Bracket.MAIN)
        body = DrawResultSerializer({"draw": draw, "round": first, "matches": matches}).data
        return Response(body, status=status.HTTP_201_CREATED)


class NextRoundSerializer(RoundStartSerializer):
    relax = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=1000,
        help_text="Ids of forbidden pairs to lift for this round only, when no pairing keeps "
        "them all (the 400 `no-legal-pairing` lists the ones in the way under `blocking`); "
        "logged in the public pairing log.",
    )
    keep = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=1000,
        help_text="`swiss-elimination`: player ids of players who went out in the last "
        "round, kept one more round so that nobody has a bye (the players alive must be "
        "odd, and even with them; 400 `invalid` on `keep` otherwise). They stay out: their "
        "result counts for their place among those out in the same round and for their "
        "opponent's record. Logged in the public pairing log.",
    )
    background = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Pair in a background job (always for a field over "
        f"{PAIR_INLINE_LIMIT} players): answers 202 with the job; "
        "`GET` this URL for its progress.",
    )


class PairingJobSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "refused"],
        help_text="`none`: no job; `done`: the round is paired and started; `refused`: see "
        "`error` (e.g. `no-legal-pairing` with `detail.blocking`).",
    )
    messages = serializers.ListField(child=serializers.CharField(), required=False)
    round = serializers.IntegerField(required=False)
    round_id = serializers.IntegerField(required=False)
    error = serializers.DictField(required=False)


class NextRoundView(DirectorView):
    @extend_schema(
        operation_id="events_rounds_next",
        request=NextRoundSerializer,
        responses={201: DrawResultSerializer, 202: PairingJobSerializer, **WRITE_ERRORS},
        summary="Pair and start the next round (Swiss, swiss-elimination and its playoff, "
        "round robin)",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = NextRoundSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        relax = data.validated_data.get("relax", [])
        keep = data.validated_data.get("keep", [])
        field = event.entries.filter(status__in=ACTIVE).count()
        if data.validated_data.get("background") or field > PAIR_INLINE_LIMIT:
            job = pairing_job_queue(event=event, relax=relax, keep=keep, by=acting_user(request))
            return Response(job, status=status.HTTP_202_ACCEPTED)
        round_ = event_next_round(
            event=event,
            by=acting_user(request),
            tables=data.validated_data.get("tables"),
            relax=relax,
            keep=keep,
        )
        draw = event.draws.order_by("-created_at").first()
        matches = match_list(event=event.pk, round_number=round_.number)
        body = DrawResultSerializer({"draw": draw, "round": round_, "matches": matches}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="events_rounds_next_progress",
        responses={200: PairingJobSerializer, **DIRECTOR_READ_ERRORS},
        summary="The background pairing job of the event: its state and progress",
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        if not user_directs(request.user, event.tournament_id):
            raise Forbidden(_("Only this tournament's directors see its pairing jobs."))
        return Response(pairing_job(event.pk))


class EventEndView(DirectorView):
    @extend_schema(
        operation_id="events_end",
        request=None,
        responses={200: EventDetailSerializer, **WRITE_ERRORS},
        summary="End a swiss-elimination between rounds: the players alive share the "
        "places by record",
    )
    def post(self, request: Request, pk: int) -> Response:
        from tournament import selectors

        event = self.event(request, pk)
        event_end(event=event, by=acting_user(request))
        return Response(
            EventDetailSerializer(
                selectors.event_detail(event.pk), context={"request": request}
            ).data
        )


class RoundDetailView(DirectorView):
    def get_round(self, request: Request, pk: int) -> Round:
        return self.checked(request, get_or_404(Round, pk=pk))

    @extend_schema(operation_id="rounds_retrieve", responses={200: RoundSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(RoundSerializer(self.get_round(request, pk)).data)

    @extend_schema(
        operation_id="rounds_length_update",
        request=RoundLengthSerializer,
        responses={200: RoundSerializer, **WRITE_ERRORS},
        summary="Change a round's match length before it starts",
    )
    def patch(self, request: Request, pk: int) -> Response:
        round_ = self.get_round(request, pk)
        data = RoundLengthSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = round_length_set(
            round_=round_, length=data.validated_data["match_length"], by=acting_user(request)
        )
        return Response(RoundSerializer(round_).data)


class RoundStartView(DirectorView):
    @extend_schema(
        operation_id="rounds_start",
        request=RoundStartSerializer,
        responses={200: RoundSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = self.checked(request, get_or_404(Round, pk=pk))
        data = RoundStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = round_start(
            round_=round_, by=acting_user(request), tables=data.validated_data["tables"]
        )
        return Response(RoundSerializer(round_).data)


class RoundTablesView(DirectorView):
    @extend_schema(
        operation_id="rounds_tables_assign",
        request=None,
        responses={200: MatchSerializer(many=True), **WRITE_ERRORS},
        summary="Number the tables: the round's ready matches without one get the lowest free "
        "tables, in bracket order; their players are emailed the table",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = self.checked(request, get_or_404(Round, pk=pk))
        round_tables_assign(round_=round_, by=acting_user(request))
        matches = match_list().filter(round_id=round_.pk).order_by("slot")
        return Response(MatchSerializer(matches, many=True).data)
