"""Events: a tournament's events, one event's settings, its bracket and standings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.errors import Invalid, refuse
from tournament import selectors
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, get_or_404
from tournament.api.serializers.brackets import BracketSerializer, StandingsSerializer
from tournament.api.serializers.events import (
    EventCreateSerializer,
    EventDetailSerializer,
    EventSerializer,
    EventSettingsSerializer,
)
from tournament.models import Event, Tournament
from tournament.services.event_settings import event_update
from tournament.services.events import event_create


class EventListView(DirectorView):
    @extend_schema(
        operation_id="tournaments_events_list",
        responses={200: EventSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, get_or_404(Tournament, slug=slug))
        return Response(EventSerializer(selectors.event_list(tournament), many=True).data)

    @extend_schema(
        operation_id="tournaments_events_create",
        request=EventCreateSerializer,
        responses={201: EventDetailSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self.checked(request, get_or_404(Tournament, slug=slug))
        data = EventCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        feeds = values.pop("feeds", None)
        event = event_create(
            tournament=tournament,
            feeds_from=_feeding_event(tournament, feeds),
            feed_rounds=feeds["rounds"] if feeds else None,
            **values,
        )
        return Response(
            EventDetailSerializer(
                selectors.event_detail(event.pk), context={"request": request}
            ).data,
            status=status.HTTP_201_CREATED,
        )


class EventDetailView(DirectorView):
    @extend_schema(
        operation_id="events_retrieve",
        responses={200: EventDetailSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        return Response(
            EventDetailSerializer(
                selectors.event_detail(event.pk), context={"request": request}
            ).data
        )

    @extend_schema(
        operation_id="events_partial_update",
        request=EventSettingsSerializer,
        responses={200: EventDetailSerializer, **WRITE_ERRORS},
        summary="Change the event's settings (only those sent; rounds not started take "
        "new match lengths; a setting the draw fixed is refused with the reason)",
    )
    def patch(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = EventSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "feeds" in values:
            feeds = values.pop("feeds")
            values["feeds_from"] = _feeding_event(event.tournament, feeds)
            values["feed_rounds"] = feeds["rounds"] if feeds else []
        with _named_as_sent(EVENT_SETTING_FIELDS):
            event_update(event=event, **values)
        return Response(
            EventDetailSerializer(
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
            _("Event {feeds_from} is not an event of this tournament.").format(
                feeds_from=feeds["from"]
            ),
            code="bad-feed",
            field="feeds",
        )
    return source


class BracketView(DirectorView):
    @extend_schema(
        operation_id="events_bracket",
        responses={200: BracketSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(
            request,
            get_or_404(Event.objects.select_related("champion__player"), pk=pk),
        )
        return Response(BracketSerializer(selectors.bracket_tree(event)).data)


class StandingsView(DirectorView):
    @extend_schema(
        operation_id="events_standings",
        responses={200: StandingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        rows = selectors.standings(event)
        body = {
            "event": event.pk,
            "tiebreaks": selectors.event_tiebreaks(event),
            "counts": selectors.elimination_counts(event) if event.is_elimination_swiss else None,
            "rows": rows,
        }
        return Response(StandingsSerializer(body).data)
