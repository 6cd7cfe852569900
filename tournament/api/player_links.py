"""Players' private links through the API, for the tournament's directors only: list them
(with the address to hand out), set where the tournament's notices to a player go, and
replace a leaked one."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.access import user_directs
from matches.services.ledger import ID_MAX
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, acting_user, check_visible, get_or_404
from tournament.models import Player, PlayerLink, Tournament
from tournament.selectors import players_visible_to
from tournament.services.player_links import player_link_regenerate, player_links_ensure
from tournament.services.players import player_contact_set


class PlayerLinkSerializer(serializers.Serializer[Any]):
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
        request: Request = self.context["request"]
        return request.build_absolute_uri(reverse("matches:entry", args=[link.key]))


def _directed(request: Request, slug: str) -> Tournament:
    """The tournament if the caller directs it: 401 without login, 403 for anyone else."""
    tournament = get_or_404(Tournament, slug=slug)
    check_visible(request, tournament.pk)
    if not request.user or not request.user.is_authenticated:
        raise NotAuthenticated(_("Log in as a director of this tournament."))
    if not user_directs(request.user, tournament.pk):
        raise PermissionDenied(_("Only this tournament's directors see the players' links."))
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


class PlayerContactSerializer(serializers.Serializer[Any]):
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


class PlayerMergeRequestSerializer(serializers.Serializer[Any]):
    other = serializers.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        help_text="The record that goes: a player entered in this tournament. Its entries, "
        "results, private link and account become the kept player's (the one in the path, "
        "who may also be a returning player of another tournament).",
    )


class PlayerMergeSerializer(serializers.Serializer[Any]):
    """A merge done: who was kept, the record removed, what moved (the audit's record)."""

    kept = serializers.IntegerField(source="kept_id")
    removed = serializers.IntegerField(source="removed_id")
    removed_name = serializers.CharField()
    entries_moved = serializers.ListField(child=serializers.IntegerField())
    entries_dropped = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Entries of the one removed in events where both were entered before the "
        "draw (the one holding the place stays)",
    )
    rated_matches = serializers.IntegerField(
        help_text="Rated matches the ratings were recomputed from"
    )
    by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


def merge_data(record: Any) -> dict[str, Any]:
    return {
        "kept_id": record.kept_id,
        "removed_id": record.removed_id,
        "removed_name": record.removed_name,
        "entries_moved": record.moved.get("entries", []),
        "entries_dropped": record.moved.get("dropped", []),
        "rated_matches": record.moved.get("rated_matches", 0),
        "by": record.by.username if record.by else None,
        "created_at": record.created_at,
    }


class PlayerMergeView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_players_merge",
        request=PlayerMergeRequestSerializer,
        responses={
            200: PlayerMergeSerializer,
            **WRITE_ERRORS,
        },
        summary='"These two are one person": the player `other` becomes part of the player '
        "in the path (entries, results, private link, account; ratings recomputed; recorded "
        "with the caller's name). 400 `same-player`, `both-drawn` (both have matches in one "
        "event, or both are entered in a drawn one), `two-accounts`; 403 `player-not-yours` "
        "(the record that goes also plays in tournaments the caller does not direct); 404 "
        "when `other` is not in the tournament or the kept player is not one the caller sees",
    )
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        from tournament.services.merge import players_merge

        tournament = _directed(request, slug)
        seen = players_visible_to(request.user)
        keep = seen.filter(pk=player_id).first() if player_id <= ID_MAX else None
        if keep is None:  # before the body: a player one cannot see answers as a missing one
            raise Http404
        data = PlayerMergeRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        other = seen.filter(pk=data.validated_data["other"]).first()
        if other is None:
            raise Http404
        record = players_merge(
            tournament=tournament, keep=keep, other=other, by=acting_user(request)
        )
        return Response(PlayerMergeSerializer(merge_data(record)).data)
