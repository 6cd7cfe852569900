"""A tournament's directors through the API, for its directors only: list them, add one
(making the account when there is none), remove one, and a new set-password link for one
who has not set a password yet."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.access import user_directs
from tournament.api.base import WRITE_ERRORS, acting_user, check_visible, get_or_404
from tournament.models import Tournament, User
from tournament.selectors import tournament_directors
from tournament.services.directors import (
    IDENTIFIER_MAX,
    tournament_director_invite,
    tournament_director_link,
    tournament_director_remove,
)

ACCESS_ERRORS = {code: WRITE_ERRORS[code] for code in (401, 403, 404)}


class DirectorSerializer(serializers.Serializer[Any]):
    """A director's account; ``has_password`` is false until they set one through their link."""

    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    has_password = serializers.BooleanField(source="has_usable_password")


class DirectorAddSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        max_length=IDENTIFIER_MAX,
        help_text="An account's username or email address; a new username makes a new account.",
    )
    email = serializers.EmailField(
        max_length=IDENTIFIER_MAX,
        required=False,
        allow_blank=True,
        default="",
        help_text="A new account's email address: its set-password link is emailed there.",
    )


class DirectorAddedSerializer(DirectorSerializer):
    """The director added: whether the account was created, and its set-password link when
    it has no password (null otherwise; ``emailed`` when it was emailed too)."""

    created = serializers.BooleanField()
    already_director = serializers.BooleanField()
    set_password_url = serializers.URLField(allow_null=True)
    emailed = serializers.BooleanField()


SET_PASSWORD_LINK = inline_serializer(
    "DirectorSetPasswordLink",
    {
        "set_password_url": serializers.URLField(
            allow_null=True, help_text="null when it was emailed to the director instead"
        ),
        "emailed": serializers.BooleanField(),
    },
)


def _directed(request: Request, slug: str) -> Tournament:
    """The tournament if the caller directs it: 401 without login, 403 for anyone else."""
    tournament = get_or_404(Tournament, slug=slug)
    check_visible(request, tournament.pk)
    if not request.user or not request.user.is_authenticated:
        raise NotAuthenticated(_("Log in as a director of this tournament."))
    if not user_directs(request.user, tournament.pk):
        raise PermissionDenied(_("Only this tournament's directors manage its directors."))
    return tournament


def _director(tournament: Tournament, user_id: int) -> User:
    """Director ``user_id`` of the tournament (404 when they do not direct it)."""
    director: User = get_or_404(tournament_directors(tournament), pk=user_id)
    return director


class DirectorListView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_directors_list",
        responses={200: DirectorSerializer(many=True), **ACCESS_ERRORS},
        summary="The tournament's directors (its directors only)",
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = _directed(request, slug)
        return Response(DirectorSerializer(tournament_directors(tournament), many=True).data)

    @extend_schema(
        operation_id="tournaments_directors_add",
        request=DirectorAddSerializer,
        responses={201: DirectorAddedSerializer, 200: DirectorAddedSerializer, **WRITE_ERRORS},
        summary="Add a director by username or email; a new username makes the account",
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = _directed(request, slug)
        data = DirectorAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invite = tournament_director_invite(
            tournament=tournament, by=acting_user(request), **data.validated_data
        )
        path = invite.set_password_path
        body = {
            **DirectorSerializer(invite.user).data,
            "created": invite.created,
            "already_director": invite.already_director,
            "set_password_url": request.build_absolute_uri(path) if path else None,
            "emailed": invite.emailed,
        }
        added = status.HTTP_200_OK if invite.already_director else status.HTTP_201_CREATED
        return Response(body, status=added)


class DirectorDetailView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_directors_remove",
        request=None,
        responses={204: None, **WRITE_ERRORS},
        summary="Remove a director (400 last-director for the only one)",
    )
    def delete(self, request: Request, slug: str, user_id: int) -> Response:
        tournament = _directed(request, slug)
        director = _director(tournament, user_id)
        tournament_director_remove(tournament=tournament, user=director, by=acting_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DirectorLinkView(APIView):
    permission_classes = [AllowAny]  # checked per tournament in ``_directed``

    @extend_schema(
        operation_id="tournaments_directors_link",
        request=None,
        responses={200: SET_PASSWORD_LINK, **WRITE_ERRORS},
        summary="A new set-password link for a director with no password (400 has-password)",
    )
    def post(self, request: Request, slug: str, user_id: int) -> Response:
        tournament = _directed(request, slug)
        director = _director(tournament, user_id)
        link = tournament_director_link(
            tournament=tournament, user=director, by=acting_user(request)
        )
        url = request.build_absolute_uri(link.path) if link.path else None
        return Response({"set_password_url": url, "emailed": link.emailed})
