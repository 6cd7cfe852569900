"""Forbidden pairings of an event: directors only, reads too (players never see them)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.access import user_directs
from matches.errors import Forbidden, NotAuthenticated
from tournament.api.base import (
    DIRECTOR_READ_ERRORS,
    WRITE_ERRORS,
    DirectorView,
    acting_user,
    get_or_404,
)
from tournament.models import Event, ForbiddenPair
from tournament.services.forbidden_pairs import forbidden_pair_add, forbidden_pair_remove


class ForbiddenPairSerializer(serializers.ModelSerializer[ForbiddenPair]):
    players = serializers.SerializerMethodField()

    class Meta:
        model = ForbiddenPair
        fields = ["id", "players", "strength", "rounds", "created_at"]
        read_only_fields = fields

    def get_players(self, pair: ForbiddenPair) -> list[int]:
        return [pair.player_a_id, pair.player_b_id]


class ForbiddenPairCreateSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=2,
        max_length=2,
        help_text="The two players' ids (both entered in the event).",
    )
    strength = serializers.ChoiceField(
        choices=ForbiddenPair.Strength.choices,
        default=ForbiddenPair.Strength.ABSOLUTE,
        help_text="`absolute`: never paired while a legal pairing exists; `avoid`: a penalty.",
    )
    rounds = serializers.ChoiceField(
        choices=ForbiddenPair.Rounds.choices,
        default=ForbiddenPair.Rounds.ALL,
        help_text="`first`: round 1 only; `all`: every round.",
    )


class _DirectorsOnly(DirectorView):
    def directed_event(self, request: Request, pk: int) -> Event:
        event = self.checked(request, get_or_404(Event, pk=pk))
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Log in as a director to see the forbidden pairs."))
        if not user_directs(request.user, event.tournament_id):
            raise Forbidden(_("Only this tournament's directors see its forbidden pairs."))
        return event


class ForbiddenPairListView(_DirectorsOnly):
    @extend_schema(
        operation_id="events_forbidden_pairs_list",
        responses={200: ForbiddenPairSerializer(many=True), **DIRECTOR_READ_ERRORS},
        summary="The event's forbidden pairings (directors only)",
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.directed_event(request, pk)
        pairs = event.forbidden_pairs.order_by("pk")
        return Response(ForbiddenPairSerializer(pairs, many=True).data)

    @extend_schema(
        operation_id="events_forbidden_pairs_create",
        request=ForbiddenPairCreateSerializer,
        responses={201: ForbiddenPairSerializer, **WRITE_ERRORS},
        summary="Keep two players apart in the pairings",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = ForbiddenPairCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = forbidden_pair_add(event=event, by=acting_user(request), **data.validated_data)
        return Response(ForbiddenPairSerializer(pair).data, status=status.HTTP_201_CREATED)


class ForbiddenPairDetailView(_DirectorsOnly):
    @extend_schema(
        operation_id="events_forbidden_pairs_destroy",
        responses={204: None, **WRITE_ERRORS},
        summary="Lift a prohibition for the rounds to come",
    )
    def delete(self, request: Request, pk: int, pair_id: int) -> Response:
        event = self.event(request, pk)
        pair = get_or_404(ForbiddenPair, pk=pair_id, event=event)
        forbidden_pair_remove(pair=pair, by=acting_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
