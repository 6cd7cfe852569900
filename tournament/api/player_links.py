"""Players' private links through the API, for the tournament's directors only: list them
(with the address to hand out), set where the tournament's notices to a player go, and
replace a leaked one."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.api.base import READ_ERRORS, WRITE_ERRORS, acting_user, check_visible, get_or_404
from tournament.models import Player, PlayerLink, Tournament
from tournament.selectors import user_directs
from tournament.services import player_contact_set
from tournament.services.player_links import player_link_regenerate, player_links_ensure


class PlayerLinkSerializer(serializers.Serializer):
    """One player's private link: ``report_url`` opens all their matches in the tournament
    and reports them (it is also the ``X-Report-Key`` the match API takes, as ``key``)."""

    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    email = serializers.CharField(
        source="contact_email",
        help_text="Where this tournament's notices to the player go: the tournament's own "
        "contact for them, else the player's own email (empty: none).",
    )
    tournament_email = serializers.CharField(
        source="email",
        help_text="The tournament's own contact for the player (empty: the player's own email).",
    )
    key = serializers.CharField()
    report_url = serializers.SerializerMethodField()
    regenerated_at = serializers.DateTimeField(allow_null=True)
    regenerated_by = serializers.CharField(source="regenerated_by.username", allow_null=True)

    def get_report_url(self, link: PlayerLink) -> str:
        return self.context["request"].build_absolute_uri(reverse("matches:entry", args=[link.key]))


def _directed(request: Request, slug: str) -> Tournament:
    """The tournament if the caller directs it: 401 without login, 403 for anyone else."""
    tournament = get_or_404(Tournament, slug=slug)
    check_visible(request, tournament.pk)
    if not request.user or not request.user.is_authenticated:
        raise NotAuthenticated("Log in as a director of this tournament.")
    if not user_directs(request.user, tournament.pk):
        raise PermissionDenied("Only this tournament's directors see the players' links.")
    return tournament


def _links(tournament: Tournament) -> Any:
    return (
        PlayerLink.objects.filter(tournament=tournament)
        .select_related("player", "regenerated_by")
        .order_by("player__name", "player_id")
    )


class PlayerLinkListView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_player_links_list",
        responses={
            200: PlayerLinkSerializer(many=True),
            **READ_ERRORS,
            401: WRITE_ERRORS[401],
            403: WRITE_ERRORS[403],
        },
        summary="Every player's private link (directors of the tournament only)",
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = _directed(request, slug)
        player_links_ensure(tournament=tournament)
        data = PlayerLinkSerializer(_links(tournament), many=True, context={"request": request})
        return Response(data.data)


class PlayerLinkRegenerateView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_player_links_regenerate",
        request=None,
        responses={200: PlayerLinkSerializer, **WRITE_ERRORS},
        summary="Replace a player's leaked link: the old address answers 404 from now on",
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        tournament = _directed(request, slug)
        link = _links(tournament).filter(player_id=player_id).first()
        if link is None:
            raise Http404
        link = player_link_regenerate(link=link, by=acting_user(request))
        data = PlayerLinkSerializer(
            _links(tournament).get(pk=link.pk), context={"request": request}
        )
        return Response(data.data)


class PlayerContactSerializer(serializers.Serializer):
    email = serializers.EmailField(
        allow_blank=True,
        help_text="Where this tournament's notices to the player go; empty (or the player's "
        "own email): the player's own email. No other tournament's notices change.",
    )


class PlayerLinkDetailView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_player_links_partial_update",
        request=PlayerContactSerializer,
        responses={200: PlayerLinkSerializer, **WRITE_ERRORS},
        summary="Set where this tournament's notices to a player go (directors of the "
        "tournament; the player's own email is not changed)",
    )
    def patch(self, request: Request, slug: str, player_id: int) -> Response:
        tournament = _directed(request, slug)
        player = Player.objects.filter(
            pk=player_id, entries__event__tournament=tournament
        ).first()  # one of this tournament's players, or not found
        if player is None:
            raise Http404
        data = PlayerContactSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        link = player_contact_set(
            tournament=tournament,
            player=player,
            email=data.validated_data["email"],
            by=acting_user(request),
        )
        out = PlayerLinkSerializer(_links(tournament).get(pk=link.pk), context={"request": request})
        return Response(out.data)
