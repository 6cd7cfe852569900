"""One clock per tournament: a request about a tournament runs on its time zone.

Pages of a tournament (public ``/t/<slug>/...``, the console's ``/director/t/<slug>/...``),
of one of its matches (the audit, the match pages) and a player's private link
(``/r/<key>/...``) activate the tournament's zone before the view runs, so that forms read
the times typed in it (a sign-up deadline of 10:00 in Copenhagen is 10:00 there) and
templates show every time in it (the schedule, the audit, a director's last login). The
API is left on UTC: it writes ISO 8601 with the offset, which says the same moment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from matches.models import Match
from tournament.models import Entry, PlayerLink, Tournament, zone_named

#: The address prefixes whose ``slug`` names a tournament (not a series, not the API).
TOURNAMENT_PREFIXES = ("/t/", "/director/t/")


def tournament_zone_name(path: str, kwargs: dict[str, Any]) -> str | None:
    """The time zone name of the tournament a request is about, if it is about one."""
    if path.startswith("/api/"):
        return None
    if "key" in kwargs and path.startswith("/r/"):
        key = str(kwargs["key"])
        zone = (
            PlayerLink.objects.filter(key=key).values_list("tournament__time_zone", flat=True)
        ).first()
        if zone is None:
            zone = (
                Entry.objects.filter(report_key=key).values_list(
                    "event__tournament__time_zone", flat=True
                )
            ).first()
        return zone
    if "slug" in kwargs and path.startswith(TOURNAMENT_PREFIXES):
        return (
            Tournament.objects.filter(slug=str(kwargs["slug"]))
            .values_list("time_zone", flat=True)
            .first()
        )
    if (
        "match_id" in kwargs
        and isinstance(kwargs["match_id"], int)
        and 0 < kwargs["match_id"] < 2**63
    ):
        return (
            Match.objects.filter(pk=kwargs["match_id"])
            .values_list("event__tournament__time_zone", flat=True)
            .first()
        )
    return None


def own_clock[View: Callable[..., Any]](view: View) -> View:
    """Mark a view that renders on the tournament's clock itself (the public pages cached
    whole, rendered under ``timezone.override``): the middleware leaves it alone, so that
    a cached page still costs no query."""
    view.own_clock = True  # type: ignore[attr-defined]
    return view


class TournamentTimeZoneMiddleware:
    """Activate the time zone of the tournament the request is about (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        if getattr(view_func, "own_clock", False):
            return None
        try:
            name = tournament_zone_name(request.path_info, view_kwargs)
        except (ValueError, OverflowError):
            name = None
        if name:
            timezone.activate(zone_named(name))
        return None
