"""Draws and rounds: make the draw, pair the next round, a round's length, its start
and its tables."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import match_list
from tournament import services
from tournament.api import serializers as io
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, acting_user, get_or_404
from tournament.models import Round
from tournament.services.tables import round_tables_assign


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
        draw = services.draw_make(event=event, by=acting_user(request), **data.validated_data)
        first = event.rounds.filter(bracket=Round.Bracket.MAIN, number=1).first()
        matches = match_list(event=event.pk, round_number=1, bracket=Round.Bracket.MAIN)
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
        round_ = services.event_next_round(event=event, by=acting_user(request))
        draw = event.draws.order_by("-created_at").first()
        matches = match_list(event=event.pk, round_number=round_.number)
        body = io.DrawResultSerializer({"draw": draw, "round": round_, "matches": matches}).data
        return Response(body, status=status.HTTP_201_CREATED)


class RoundDetailView(DirectorView):
    def get_round(self, request: Request, pk: int) -> Round:
        return self.checked(request, get_or_404(Round, pk=pk))

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
            round_=round_, length=data.validated_data["match_length"], by=acting_user(request)
        )
        return Response(io.RoundSerializer(round_).data)


class RoundStartView(DirectorView):
    @extend_schema(
        operation_id="rounds_start",
        request=None,
        responses={200: io.RoundSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = self.checked(request, get_or_404(Round, pk=pk))
        round_ = services.round_start(round_=round_, by=acting_user(request))
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
        round_ = self.checked(request, get_or_404(Round, pk=pk))
        round_tables_assign(round_=round_, by=acting_user(request))
        matches = match_list().filter(round_id=round_.pk).order_by("slot")
        return Response(io.MatchSerializer(matches, many=True).data)
