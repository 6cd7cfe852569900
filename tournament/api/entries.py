"""Entries: register, check in, withdraw, and take a withdrawal back."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.http import request_meta
from matches.access import user_directs
from matches.errors import NotFound
from tournament import selectors
from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView, acting_user, get_or_404
from tournament.api.serializers.common import ReasonSerializer
from tournament.api.serializers.entries import EntryCreateSerializer, EntrySerializer
from tournament.models import Entry, Event
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.withdrawals import entry_withdraw


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
    if not user_directs(request.user, tournament_id):
        return context
    keys = selectors.player_link_keys(tournament_id, {e.player_id for e in entries})
    return {**context, "link_keys": keys}


def entry_data(request: Request, entry: Entry) -> Any:
    """One entry as the API shows it to the caller."""
    tournament_id = Event.objects.filter(pk=entry.event_id).values_list("tournament_id", flat=True)
    context = entry_context(request, tournament_id.get(), [entry])
    return EntrySerializer(entry, context=context).data


class EntryListView(DirectorView):
    @extend_schema(
        operation_id="events_entries_list",
        responses={200: EntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        entries = list(selectors.entry_list(event))
        context = entry_context(request, event.tournament_id, entries)
        return Response(EntrySerializer(entries, many=True, context=context).data)

    @extend_schema(
        operation_id="events_entries_create",
        request=EntryCreateSerializer,
        responses={201: EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        data = EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Only a player the caller may see: one seen only in another director's private
        # tournament is not found, exactly as one that does not exist (no enumeration).
        player = (
            selectors.players_visible_to(request.user)
            .filter(pk=data.validated_data["player"])
            .first()
        )
        if player is None:
            raise NotFound(_("No such player."), code="not-found", field="player")
        entry = entry_register(
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
        responses={200: EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.checked(request, get_or_404(Entry, pk=pk))
        entry = entry_check_in(entry=entry, by=acting_user(request))
        return Response(entry_data(request, entry))


#: What the schema says of ``entries_withdraw_undo`` (``entry_withdraw_undo``).
UNDO_DESCRIPTION = (
    "The entry is registered or checked in again, as it was, and everything the withdrawal "
    "caused is taken back in this one operation (one transaction: all of it or nothing): "
    "each match it gave away by walkover is ready to play again, and with it the cascade "
    "of that walkover: the winner leaves the next matches it reached while those are only "
    "ready at 0-0 or were decided by a further walkover, and the Consolation line the "
    "withdrawal left empty (the bye it gave the opponent there) is the player's again. "
    "Players told of a match that is now off are sent a correction. A Swiss round paired "
    "but not started is paired again with them.\n\n"
    "Refused, and nothing changes: 400 `place-given-away` once one of those matches has "
    "really been played (a game reported, or decided otherwise than by a walkover or a "
    "bye): the message names it and what to do (correct that match first: reopen or "
    "correct its result, with the cascade; then undo again), `match` is its id and "
    "`walkover` the walkover that led to it; also when the draw was made without the "
    "player (no place to give back). 400 `event-finished` in a finished event, "
    "`not-withdrawn` for an entry not withdrawn. The console's Undo does the same."
)


class EntryWithdrawView(DirectorView):
    @extend_schema(
        operation_id="entries_withdraw",
        request=ReasonSerializer,
        responses={200: EntrySerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.checked(request, get_or_404(Entry, pk=pk))
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_withdraw(
            entry=entry, by=acting_user(request), meta=request_meta(request), **data.validated_data
        )
        return Response(entry_data(request, entry))


class EntryWithdrawUndoView(DirectorView):
    @extend_schema(
        operation_id="entries_withdraw_undo",
        request=None,
        responses={200: EntrySerializer, **WRITE_ERRORS},
        summary="Take a withdrawal back, with every walkover and feed it caused, in one step",
        description=UNDO_DESCRIPTION,
    )
    def post(self, request: Request, pk: int) -> Response:
        from tournament.services.withdrawals import entry_withdraw_undo

        entry = self.checked(request, get_or_404(Entry, pk=pk))
        entry = entry_withdraw_undo(entry=entry, by=acting_user(request))
        return Response(entry_data(request, entry))
