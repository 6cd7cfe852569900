"""Sign-up, the waiting list, fees and final places over the API.

``POST /api/events/{id}/signup/`` is public (no account), limited per client address
like the public form (``SIGNUP_RATE``); the rest are the directors'.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from matches.api.shapes import ERROR
from matches.errors import refuse
from tournament.api import serializers as io
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, acting_user, get_or_404
from tournament.models import Entry, Event
from tournament.selectors.final_places import event_final
from tournament.services.payments import entries_check_in, entries_mark_paid
from tournament.services.signup import entry_approve, entry_signup
from tournament.web.signup_rate import signup_wait


class SignupThrottle(BaseThrottle):
    """Sign-ups per client address (POST only), shared with the public form's count."""

    def allow_request(self, request: Any, view: Any) -> bool:
        self._wait = signup_wait(request) if request.method == "POST" else None
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class SignupView(DirectorView):
    permission_classes = [AllowAny]
    throttle_classes = [SignupThrottle]

    @extend_schema(
        operation_id="events_signup",
        request=io.SignupSerializer,
        responses={
            201: io.SignedUpSerializer,
            400: OpenApiResponse(
                ERROR,
                description="A bad field, `signup-closed` (closed, past its deadline or the "
                "draw), `already-signed-up` (that email, this event)",
            ),
            404: OpenApiResponse(ERROR, description="Not found"),
            429: OpenApiResponse(ERROR, description="Too many sign-ups from this address"),
        },
        summary="Sign up for an event (no account): entered, on the waiting list (with its "
        "place) or awaiting approval; the private link is answered and emailed. A new "
        "player record every time: an existing player's details are never touched",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        data = io.SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = entry_signup(event=event, **data.validated_data)
        body = {
            "entry": done.entry.pk,
            "player": done.entry.player_id,
            "status": done.entry.status,
            "waiting_position": done.position,
            "link": request.build_absolute_uri(f"/r/{done.link.key}/"),
            "link_key": done.link.key,
        }
        return Response(io.SignedUpSerializer(body).data, status=201)


class EntriesPaidView(DirectorView):
    @extend_schema(
        operation_id="events_entries_paid",
        request=io.EntriesPaidSerializer,
        responses={200: io.CountSerializer, **WRITE_ERRORS},
        summary='Mark entries paid (cash, transfer, online, waived) or unpaid (`""`)',
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.EntriesPaidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = entries_mark_paid(
            event=event,
            entry_ids=data.validated_data["entries"],
            method=data.validated_data["paid"],
            by=acting_user(request),
        )
        return Response({"changed": changed})


class EntriesCheckInView(DirectorView):
    @extend_schema(
        operation_id="events_entries_check_in",
        request=io.EntriesPickSerializer,
        responses={200: io.CountSerializer, **WRITE_ERRORS},
        summary="Check in every registered player among `entries` (those present) at once",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.EntriesPickSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = entries_check_in(
            event=event, entry_ids=data.validated_data["entries"], by=acting_user(request)
        )
        return Response({"changed": changed})


class EntryApproveView(DirectorView):
    @extend_schema(
        operation_id="entries_approve",
        request=None,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
        summary="Take a sign-up awaiting approval: entered, or on the waiting list when full",
    )
    def post(self, request: Request, pk: int) -> Response:
        from tournament.api.entries import entry_data

        entry = self.checked(request, get_or_404(Entry, pk=pk))
        entry = entry_approve(entry=entry, by=acting_user(request))
        return Response(entry_data(request, entry))


class EventPlacesView(DirectorView):
    @extend_schema(
        operation_id="events_places",
        responses={
            200: io.FinalSheetSerializer,
            400: OpenApiResponse(ERROR, description="`event-unfinished`"),
            **READ_ERRORS,
        },
        summary="Final places and prizes of a finished event",
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        sheet = event_final(event)
        if sheet is None:
            raise refuse(
                f"{event.name} is not finished: places are known at its end.",
                code="event-unfinished",
            )
        return Response(io.FinalSheetSerializer(io.final_sheet_data(sheet)).data)
