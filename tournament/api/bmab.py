"""The BMAB export: an event's or a player's designated matches as a zip."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from matches.access import user_directs
from matches.api.shapes import ERROR
from matches.errors import Forbidden, NotAuthenticated
from tournament.api.base import check_visible, get_or_404
from tournament.models import Event
from tournament.selectors import players_visible_to, tournaments_directed_by
from tournament.selectors.bmab import bmab_zip, designated_matches

ZIP_RESPONSES = {
    (200, "application/zip"): OpenApiResponse(
        response=OpenApiTypes.BINARY,
        description="README.txt (the XG settings BMAB asks for), matches.csv and the match files",
    ),
    (401, "application/json"): OpenApiResponse(ERROR, description="Not logged in"),
    (403, "application/json"): OpenApiResponse(ERROR, description="Not allowed"),
    (404, "application/json"): OpenApiResponse(ERROR, description="Not found"),
}


def _zip(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class EventBmabExportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="events_bmab_export",
        responses=ZIP_RESPONSES,
        summary="The event's BMAB-designated matches as a zip (directors)",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        event = get_or_404(Event.objects.select_related("tournament"), pk=pk)
        check_visible(request, event.tournament_id)  # a private one answers as a missing one
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Log in as a director."))
        if not user_directs(request.user, event.tournament_id):
            raise Forbidden(_("Only this tournament's directors export its BMAB matches."))
        body = bmab_zip(designated_matches(event_id=event.pk))
        return _zip(body, f"{event.tournament.slug}-{event.slug}-bmab.zip")


class PlayerBmabExportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_bmab_export",
        responses=ZIP_RESPONSES,
        summary="A player's BMAB-designated matches as a zip: the player's own account sees "
        "all of them, a director those of the tournaments they direct",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        # A player seen only in private tournaments answers as a missing one.
        player = get_or_404(players_visible_to(request.user), pk=pk)
        user = request.user
        if not user.is_authenticated:
            raise NotAuthenticated(_("Log in as the player or a director."))
        matches = designated_matches(player_id=player.pk)
        if player.user_id != user.pk and not user.is_staff:
            directed = tournaments_directed_by(user)
            if not directed.exists():
                raise Forbidden(_("Only the player and directors export these matches."))
            matches = matches.filter(event__tournament__in=directed)
        return _zip(bmab_zip(matches), f"player-{player.pk}-bmab.zip")
