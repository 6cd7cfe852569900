"""Events: a tournament's events, one event's settings, its bracket and standings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.errors import Invalid, refuse
from tournament import selectors, services
from tournament.api import serializers as io
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, get_or_404
from tournament.models import Event, Tournament


class EventListView(DirectorView):
    @extend_schema(
        operation_id="tournaments_events_list",
        responses={200: io.EventSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, get_or_404(Tournament, slug=slug))
        return Response(io.EventSerializer(selectors.event_list(tournament), many=True).data)

    @extend_schema(
        operation_id="tournaments_events_create",
        request=io.EventCreateSerializer,
        responses={201: io.EventDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, get_or_404(Tournament, slug=slug))
        data = io.EventCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        feeds = values.pop("feeds", None)
        event = services.event_create(
            tournament=tournament,
            feeds_from=_feeding_event(tournament, feeds),
            feed_rounds=feeds["rounds"] if feeds else None,
            **values,
        )
        return Response(
            io.EventDetailSerializer(
                selectors.event_detail(event.pk), context={"request": request}
            ).data,
            status=status.HTTP_201_CREATED,
        )


class EventDetailView(DirectorView):
    @extend_schema(
        operation_id="events_retrieve",
        responses={200: io.EventDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        return Response(
            io.EventDetailSerializer(
                selectors.event_detail(event.pk), context={"request": request}
            ).data
        )

    @extend_schema(
        operation_id="events_partial_update",
        request=io.EventSettingsSerializer,
        responses={200: io.EventDetailSerializer, **WRITE_ERRORS},
        summary="Change the event's settings (only those sent; rounds not started take "
        "new match lengths; a setting the draw fixed is refused with the reason)",
    )
    def patch(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.EventSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "feeds" in values:
            feeds = values.pop("feeds")
            values["feeds_from"] = _feeding_event(event.tournament, feeds)
            values["feed_rounds"] = feeds["rounds"] if feeds else []
        with _named_as_sent(EVENT_SETTING_FIELDS):
            services.event_update(event=event, **values)
        return Response(
            io.EventDetailSerializer(
                selectors.event_detail(event.pk), context={"request": request}
            ).data
        )


# The request's name of each setting the event services name by the model's field.
EVENT_SETTING_FIELDS = {"rounds_planned": "rounds", "feeds_from": "feeds", "feed_rounds": "feeds"}


@contextmanager
def _named_as_sent(names: dict[str, str]) -> Iterator[None]:
    """Report a service's refusal under the field name the request used."""
    try:
        yield
    except Invalid as err:
        field = err.detail.get("field")
        if field in names:
            err.detail["field"] = names[field]
        raise


def _feeding_event(tournament: Tournament, feeds: dict[str, Any] | None) -> Event | None:
    """The event named by ``feeds`` (``{"from": id, "rounds": [...]}``), of this tournament."""
    if feeds is None:
        return None
    source = Event.objects.filter(pk=feeds["from"], tournament=tournament).first()
    if source is None:
        raise refuse(
            f"Event {feeds['from']} is not an event of this tournament.",
            code="bad-feed",
            field="feeds",
        )
    return source


class BracketView(DirectorView):
    @extend_schema(
        operation_id="events_bracket",
        responses={200: io.BracketSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(
            request,
            get_or_404(Event.objects.select_related("champion__player"), pk=pk),
        )
        return Response(io.BracketSerializer(selectors.bracket_tree(event)).data)


class StandingsView(DirectorView):
    @extend_schema(
        operation_id="events_standings",
        responses={200: io.StandingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        rows = selectors.standings(event)
        body = {
            "event": event.pk,
            "tiebreaks": selectors.event_tiebreaks(event),
            "rows": rows,
        }
        return Response(io.StandingsSerializer(body).data)
