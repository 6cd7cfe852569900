"""Sign-up, the waiting list, fees and final places over the API.

``POST /api/events/{id}/signup/`` is public (no account), limited per client address
like the public form (``SIGNUP_RATE``): it asks, and the address gets a mail whose
link's token ``POST /api/signup/confirm/`` takes (public too); the rest are the directors'.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from matches.api.shapes import ERROR
from matches.errors import refuse
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, acting_user, get_or_404
from tournament.api.serializers.entries import EntrySerializer
from tournament.api.serializers.places import FinalSheetSerializer, final_sheet_data
from tournament.api.serializers.signup import (
    CountSerializer,
    EntriesPaidSerializer,
    EntriesPickSerializer,
    SignedUpSerializer,
    SignupAskedSerializer,
    SignupConfirmSerializer,
    SignupSerializer,
)
from tournament.models import Entry, Event
from tournament.selectors.final_places import event_final
from tournament.services.payments import entries_check_in, entries_mark_paid
from tournament.services.signup import (
    CONFIRM_FOR,
    entries_approve,
    entry_approve,
    signup_ask,
    signup_confirm,
)
from tournament.web.language import language_asked_for
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
        request=SignupSerializer,
        responses={
            202: SignupAskedSerializer,
            400: OpenApiResponse(
                ERROR,
                description="A bad field, `signup-closed` (closed, past its deadline or the draw)",
            ),
            404: OpenApiResponse(ERROR, description="Not found"),
            429: OpenApiResponse(
                ERROR,
                description="Too many sign-ups from this address, or `too-many-mails`: the "
                "email got its `SIGNUP_MAILS_PER_ADDRESS_DAY` sign-up mails today",
            ),
        },
        summary="Ask to sign up for an event (no account): a mail goes to the address with "
        "the link that takes the sign-up (`POST /api/signup/confirm/`). The same answer "
        "for an address already signed up: its owner is told by mail instead",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.checked(request, get_or_404(Event, pk=pk))
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        asked = signup_ask(
            event=event, **data.validated_data, language=translation.get_language() or ""
        )
        hours = int(CONFIRM_FOR.total_seconds() // 3600)
        body = {
            "status": "confirmation-sent",
            "email": asked.email,
            "message": ngettext(
                "We sent a message to {email}: open its link within {hours} hour to confirm "
                "the sign-up for {event}.",
                "We sent a message to {email}: open its link within {hours} hours to confirm "
                "the sign-up for {event}.",
                hours,
            ).format(email=asked.email, hours=hours, event=event.name),
            "expires_in_hours": hours,
        }
        return Response(SignupAskedSerializer(body).data, status=202)


class SignupConfirmView(DirectorView):
    """Public: the token (32 random characters) is the credential; no address limit, so a
    sign-up and its confirmation count once against ``SIGNUP_RATE``."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="signup_confirm",
        request=SignupConfirmSerializer,
        responses={
            201: SignedUpSerializer,
            400: OpenApiResponse(
                ERROR,
                description="`signup-link-expired`, `signup-closed`, `already-signed-up`",
            ),
            404: OpenApiResponse(ERROR, description="`signup-link`: no such link"),
        },
        summary="Confirm a sign-up with the token its mail carried: entered, on the waiting "
        "list (with its place) or awaiting approval; the private link is answered and "
        "emailed. Confirming again answers the same sign-up",
    )
    def post(self, request: Request) -> Response:
        data = SignupConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = signup_confirm(
            token=data.validated_data["token"], language=language_asked_for(request)
        )
        hide = done.known  # another person's record: nothing of it is answered
        body = {
            "entry": None if hide else done.entry.pk,
            "player": None if hide else done.entry.player_id,
            "status": done.entry.status,
            "waiting_position": done.position,
            "known": hide,
            "link": None if hide else request.build_absolute_uri(f"/r/{done.link.key}/"),
            "link_key": None if hide else done.link.key,
        }
        return Response(SignedUpSerializer(body).data, status=201)


class EntriesPaidView(DirectorView):
    @extend_schema(
        operation_id="events_entries_paid",
        request=EntriesPaidSerializer,
        responses={200: CountSerializer, **WRITE_ERRORS},
        summary='Mark entries paid (cash, transfer, online, waived) or unpaid (`""`)',
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = EntriesPaidSerializer(data=request.data)
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
        request=EntriesPickSerializer,
        responses={200: CountSerializer, **WRITE_ERRORS},
        summary="Check in every registered player among `entries` (those present) at once",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = EntriesPickSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = entries_check_in(
            event=event, entry_ids=data.validated_data["entries"], by=acting_user(request)
        )
        return Response({"changed": changed})


class EntriesApproveView(DirectorView):
    @extend_schema(
        operation_id="events_entries_approve",
        request=EntriesPickSerializer,
        responses={200: CountSerializer, **WRITE_ERRORS},
        summary="Approve every sign-up awaiting approval among `entries` at once (in the "
        "order they signed up: entered while there is room, else on the waiting list)",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = EntriesPickSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = entries_approve(
            event=event, entry_ids=data.validated_data["entries"], by=acting_user(request)
        )
        return Response({"changed": changed})


class EntryApproveView(DirectorView):
    @extend_schema(
        operation_id="entries_approve",
        request=None,
        responses={200: EntrySerializer, **WRITE_ERRORS},
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
            200: FinalSheetSerializer,
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
                _("{event_name} is not finished: places are known at its end.").format(
                    event_name=event.name
                ),
                code="event-unfinished",
            )
        return Response(FinalSheetSerializer(final_sheet_data(sheet)).data)
