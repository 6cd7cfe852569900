"""Players: list and search, create, one player (read, correct), and the CSV import."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.access import user_directs
from matches.errors import refuse
from matches.selectors import tournaments_visible_to
from tournament import selectors
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, acting_user
from tournament.api.json_parser import DepthLimitedJSONParser
from tournament.api.permissions import CanEditPlayer, CanManagePlayers
from tournament.api.serializers.players import (
    ImportRowErrorSerializer,
    PlayerCreateSerializer,
    PlayerDetailSerializer,
    PlayerImportResultSerializer,
    PlayerImportSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    PlayerWithEmailSerializer,
)
from tournament.models import Event, Player, User
from tournament.services.imports import players_import_csv
from tournament.services.players import player_account_link, player_create, player_update


class PlayerListView(generics.ListAPIView[Player]):
    serializer_class = PlayerSerializer
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
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = PlayerCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_create(**data.validated_data, by=acting_user(request))
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(generics.RetrieveAPIView[Player]):
    serializer_class = PlayerDetailSerializer
    permission_classes = [CanEditPlayer]

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.players_visible_to(self.request.user)

    @extend_schema(
        operation_id="players_retrieve", responses={200: PlayerDetailSerializer, **READ_ERRORS}
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="players_partial_update",
        request=PlayerUpdateSerializer,
        responses={200: PlayerWithEmailSerializer, **WRITE_ERRORS},
        summary="Correct a player's name, email, club or country (directors of a "
        "tournament they are entered in, or staff)",
    )
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        data = PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = player_update(player=player, by=acting_user(request), **data.validated_data)
        return Response(PlayerWithEmailSerializer(done.player).data)


class PlayerAccountLinkView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="players_link_account",
        request=None,
        responses={200: PlayerWithEmailSerializer, **WRITE_ERRORS},
        summary='Link this player to your own account: "this is me" (400 `account-link` '
        "unless the player's email is your account's and no tournament you do not direct "
        "has them; staff link any). A linked director may not decide their own matches.",
    )
    def post(self, request: Request, pk: int) -> Response:
        player = _get_visible_player(request, pk)
        user = request.user
        assert isinstance(user, User)  # IsAuthenticated let only a user through
        player = player_account_link(player=player, user=user)
        return Response(PlayerWithEmailSerializer(player).data)


def _get_visible_player(request: Request, pk: int) -> Player:
    """Player ``pk`` if the caller may see them; 404 otherwise, as for one that does not exist."""
    player = selectors.players_visible_to(request.user).filter(pk=pk).first()
    if player is None:
        raise Http404(_("No such player."))
    return player


class PlayerImportView(APIView):
    permission_classes = [CanManagePlayers]
    parser_classes = [MultiPartParser, FormParser, DepthLimitedJSONParser]

    @extend_schema(
        operation_id="players_import",
        request={
            "multipart/form-data": PlayerImportSerializer,
            "application/json": PlayerImportSerializer,
        },
        responses={200: PlayerImportResultSerializer, **WRITE_ERRORS},
        summary="Import players from CSV (name,email,rating,club); all or nothing",
    )
    def post(self, request: Request) -> Response:
        data = PlayerImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = None
        if data.validated_data.get("event") is not None:
            # A private tournament's event is as unknown as one that does not exist.
            event = Event.objects.filter(
                pk=data.validated_data["event"],
                tournament__in=tournaments_visible_to(request.user).values("pk"),
            ).first()
            if event is None:
                raise refuse(_("No such event."), code="invalid", field="event")
            if not user_directs(request.user, event.tournament_id):
                self.permission_denied(
                    request, message="Only this tournament's directors may do that."
                )
        upload = data.validated_data.get("file")
        text: str | bytes = upload.read() if upload is not None else data.validated_data["csv"]
        result = players_import_csv(data=text, event=event, by=acting_user(request))
        if result.errors:
            raise refuse(
                _(
                    "{len_result_errors} problem(s) in the file; nothing was "
                    "imported. Line {result_errors_0_row}: "
                    "{result_errors_0_message}"
                ).format(
                    len_result_errors=len(result.errors),
                    result_errors_0_row=result.errors[0].row,
                    result_errors_0_message=result.errors[0].message,
                ),
                code="invalid-csv",
                field="file",
                errors=ImportRowErrorSerializer(result.errors, many=True).data,
            )
        return Response(PlayerImportResultSerializer(result).data)
