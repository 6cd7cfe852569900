"""Tournaments: list, create, read one and change its details."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.selectors import tournaments_visible_to
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, acting_user, get_or_404
from tournament.api.permissions import CanCreateTournament
from tournament.api.serializers.tournaments import (
    TournamentCreateSerializer,
    TournamentSerializer,
    TournamentSettingsSerializer,
)
from tournament.models import Tournament
from tournament.services.tournaments import tournament_create, tournament_update


class TournamentListView(generics.ListAPIView[Tournament]):
    serializer_class = TournamentSerializer
    permission_classes = [CanCreateTournament]

    def get_queryset(self) -> QuerySet[Tournament]:
        return tournaments_visible_to(self.request.user).order_by("-starts_on", "name")

    @extend_schema(operation_id="tournaments_list")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="tournaments_create",
        request=TournamentCreateSerializer,
        responses={201: TournamentSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = tournament_create(director=acting_user(request), **data.validated_data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(DirectorView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        responses={200: TournamentSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, get_or_404(Tournament, slug=slug))
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        operation_id="tournaments_partial_update",
        request=TournamentSettingsSerializer,
        responses={200: TournamentSerializer, **WRITE_ERRORS},
        summary="Change the tournament's details (only those sent; the slug stays)",
    )
    def patch(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, get_or_404(Tournament, slug=slug))
        data = TournamentSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        current = {
            field: getattr(tournament, field)
            for field in (
                "name",
                "starts_on",
                "ends_on",
                "venue",
                "time_zone",
                "language",
                "currency",
                "is_public",
                "analysis_enabled",
                "analysis_plies",
                "analysis_public",
            )
        }
        tournament = tournament_update(tournament=tournament, **{**current, **data.validated_data})
        return Response(TournamentSerializer(tournament).data)
