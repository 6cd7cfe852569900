"""What the tournament API's views share: thin views parse input, check who asks and
call a service or a selector. Shapes are in ``serializers``; errors go through
``tournament.api.errors``. Here: the error shapes for the schema, lookups that 404
(never 500), and ``DirectorView``."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.views import APIView

from matches.api.shapes import ERROR
from matches.models import Match
from matches.selectors import tournaments_visible_to
from matches.services.ledger import ID_MAX
from tournament.api.permissions import IsDirectorOrReadOnly, tournament_id_of
from tournament.models import Event, User

READ_ERRORS = {404: OpenApiResponse(ERROR, description="Not found")}
#: A read only the tournament's directors may make (its pairing jobs, forbidden pairs).
DIRECTOR_READ_ERRORS = {
    401: OpenApiResponse(ERROR, description="Not logged in"),
    403: OpenApiResponse(ERROR, description="Not a director of this tournament"),
    **READ_ERRORS,
}
WRITE_ERRORS = {
    400: OpenApiResponse(ERROR, description="Bad input (field-level detail) or a rule refused it"),
    401: OpenApiResponse(ERROR, description="Not logged in"),
    403: OpenApiResponse(ERROR, description="Not a director of this tournament"),
    404: OpenApiResponse(ERROR, description="Not found"),
    409: OpenApiResponse(ERROR, description="The state changed under you"),
    413: OpenApiResponse(ERROR, description="The body is over the size limit (sent unread)"),
}


def get_or_404[M: Model](model: type[M] | QuerySet[M], **lookup: Any) -> M:
    """``get_object_or_404``, and 404 for an id too large for any row (never a 500)."""
    if any(isinstance(v, int) and not 0 < v <= ID_MAX for v in lookup.values()):
        raise Http404
    return get_object_or_404(model, **lookup)


def acting_user(request: Request) -> User | None:
    """Who acts, for a service's record (the view's permissions let only users through)."""
    return request.user if isinstance(request.user, User) else None


def check_visible(request: Request, tournament_id: int) -> None:
    """404 for a private tournament the user does not direct."""
    if not tournaments_visible_to(request.user).filter(pk=tournament_id).exists():
        raise Http404


class DirectorView(APIView):
    """Reads for everyone (private tournaments: their directors); writes for directors."""

    permission_classes = [IsDirectorOrReadOnly]

    def checked[T](self, request: Request, obj: T) -> T:
        check_visible(request, tournament_id_of(obj))
        self.check_object_permissions(request, obj)
        return obj

    def event(self, request: Request, pk: int) -> Event:
        return self.checked(request, get_or_404(Event, pk=pk))

    def match(self, request: Request, pk: int) -> Match:
        return self.checked(request, get_or_404(Match.objects.select_related("round"), pk=pk))
