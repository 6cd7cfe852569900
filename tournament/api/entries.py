"""Entries: register, check in, withdraw, and take a withdrawal back."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.client_address import request_meta
from matches.errors import NotFound
from tournament import selectors, services
from tournament.api import serializers as io
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, acting_user, get_or_404
from tournament.models import Entry, Event


def entry_context(request: Request, tournament_id: int, entries: Iterable[Entry]) -> dict[str, Any]:
    """The serializer's context: the players' link keys for the tournament's directors only."""
    entries = list(entries)
    waiting = sorted(
        (e for e in entries if e.status == Entry.Status.WAITING),
        key=lambda e: (e.waiting_since is None, e.waiting_since, e.pk),
    )
    context: dict[str, Any] = {"request": request}
    if len(waiting) > 1 or len(entries) > 1:  # a whole list: places counted here
        context["waiting"] = {e.pk: place for place, e in enumerate(waiting, 1)}
    if not selectors.user_directs(request.user, tournament_id):
        return context
    keys = selectors.player_link_keys(tournament_id, {e.player_id for e in entries})
    return {**context, "link_keys": keys}


def entry_data(request: Request, entry: Entry) -> Any:
    """One entry as the API shows it to the caller."""
    tournament_id = Event.objects.filter(pk=entry.event_id).values_list("tournament_id", flat=True)
    context = entry_context(request, tournament_id.get(), [entry])
    return io.EntrySerializer(entry, context=context).data


class EntryListView(DirectorView):
    @extend_schema(
        operation_id="events_entries_list",
        responses={200: io.EntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        entries = list(selectors.entry_list(event))
        context = entry_context(request, event.tournament_id, entries)
        return Response(io.EntrySerializer(entries, many=True, context=context).data)

    @extend_schema(
        operation_id="events_entries_create",
        request=io.EntryCreateSerializer,
        responses={201: io.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = io.EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Only a player the caller may see: one seen only in another director's private
        # tournament is not found, exactly as one that does not exist (no enumeration).
        player = (
            selectors.players_visible_to(request.user)
            .filter(pk=data.validated_data["player"])
            .first()
        )
        if player is None:
            raise NotFound("No such player.", code="not-found", field="player")
        entry = services.entry_register(
            event=event,
            player=player,
            seed=data.validated_data.get("seed"),
            by=acting_user(request),
        )
        return Response(entry_data(request, entry), status=status.HTTP_201_CREATED)


class EntryCheckInView(DirectorView):
    @extend_schema(
        operation_id="entries_check_in",
        request=None,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.checked(request, get_or_404(Entry, pk=pk))
        entry = services.entry_check_in(entry=entry, by=acting_user(request))
        return Response(entry_data(request, entry))


class EntryWithdrawView(DirectorView):
    @extend_schema(
        operation_id="entries_withdraw",
        request=io.ReasonSerializer,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.checked(request, get_or_404(Entry, pk=pk))
        data = io.ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_withdraw(
            entry=entry, by=acting_user(request), meta=request_meta(request), **data.validated_data
        )
        return Response(entry_data(request, entry))


class EntryWithdrawUndoView(DirectorView):
    @extend_schema(
        operation_id="entries_withdraw_undo",
        request=None,
        responses={200: io.EntrySerializer, **WRITE_ERRORS},
        summary="Take a withdrawal back (400 place-given-away once a walkover gave their "
        "place to someone else)",
    )
    def post(self, request: Request, pk: int) -> Response:
        from tournament.services.entries import entry_withdraw_undo

        entry = self.checked(request, get_or_404(Entry, pk=pk))
        entry = entry_withdraw_undo(entry=entry, by=acting_user(request))
        return Response(entry_data(request, entry))
