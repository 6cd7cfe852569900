"""Who may do what through the API: reading is public; managing a tournament is for its
directors (staff manage all of them)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from matches.access import user_directs
from matches.models import Match
from tournament.models import Entry, Event, Player, Round, Tournament
from tournament.selectors import user_may_create_tournaments, user_may_edit_player


def tournament_id_of(obj: Any) -> int:
    """The tournament an API object belongs to."""
    if isinstance(obj, Tournament):
        return obj.pk
    if isinstance(obj, Event):
        return obj.tournament_id
    if isinstance(obj, (Entry, Round, Match)):
        return int(Event.objects.values_list("tournament_id", flat=True).get(pk=obj.event_id))
    raise TypeError(f"no tournament for {type(obj).__name__}")


class IsDirectorOrReadOnly(BasePermission):
    """Anyone reads; only the tournament's directors (or staff) write."""

    message = gettext_lazy("Only this tournament's directors may do that.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return user_directs(request.user, tournament_id_of(obj))


class CanManagePlayers(BasePermission):
    """Anyone reads players; directors of any tournament (or staff) add them."""

    message = gettext_lazy("Only tournament directors may add players.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        if not user or not user.is_authenticated:
            return False
        return bool(user.is_staff or user.is_superuser or user.directed_tournaments.exists())


class CanEditPlayer(BasePermission):
    """Anyone reads a player; staff and the directors of a tournament they are entered in
    correct their details."""

    message = gettext_lazy(
        "Only the directors of a tournament this player is entered in may do that."
    )

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )

    def has_object_permission(self, request: Request, view: Any, obj: Player) -> bool:
        return request.method in SAFE_METHODS or user_may_edit_player(request.user, obj)


class CanCreateTournament(BasePermission):
    """Anyone lists tournaments; staff, holders of the add-tournament permission and
    existing directors create them (the creator directs the new one)."""

    message = gettext_lazy("Only directors may create tournaments.")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return user_may_create_tournaments(request.user)
