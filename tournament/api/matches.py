"""Matches: their tables and the director's decisions (forfeit, walkover, penalty, winner
correction). Listing and reading them are ``matches.api.views``'s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.shapes import MatchDetailSerializer
from matches.api.views import MatchReadView
from matches.client_address import request_meta
from matches.errors import AppError, invalid_input, refuse
from matches.models import Match, Submission
from matches.selectors import match_detail
from matches.services.access import Actor, director_reader_role
from matches.services.ledger import submission_reject
from tournament import services
from tournament.api import serializers as io
from tournament.api.base import WRITE_ERRORS, DirectorView, acting_user
from tournament.models import Entry
from tournament.services.tables import match_table_set


class MatchDetailView(MatchReadView, DirectorView):
    # GET (the read) is matches.api.views.MatchReadView's; PATCH puts it at a table.
    @extend_schema(
        operation_id="matches_table_update",
        request=io.MatchTableSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Put a match at a table (board), or take it off its table",
    )
    def patch(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = io.MatchTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_table_set(match=match, table=data.validated_data["table"], by=acting_user(request))
        return _match_answer(pk)


def _match_answer(pk: int) -> Response:
    return Response(MatchDetailSerializer(match_detail(match_id=pk)).data)


def _entry_of_player(match: Match, player_id: int, field: str) -> Entry:
    for entry_id in (match.entry1_id, match.entry2_id):
        if entry_id is None:
            continue
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        if entry.player_id == player_id:
            return entry
    raise refuse(
        f"Player {player_id} does not play match {match.pk}.", code="not-in-match", field=field
    )


def _parsed(
    request: Request,
    match: Match,
    serializer_class: type[serializers.Serializer],
    *,
    kind: str,
    player_field: str,
) -> tuple[dict[str, Any], Entry]:
    """The director's validated decision and the entry of the player it names.

    A refusal here (bad input, a player of another match) is a report too: stored as a
    rejected submission with the body as sent, then answered as before (400, field-level).
    """
    data = serializer_class(data=request.data)
    try:
        data.is_valid(raise_exception=True)
        entry = _entry_of_player(match, data.validated_data[player_field], player_field)
    except exceptions.ValidationError as exc:
        _keep_refused(request, match, kind, invalid_input(_errors(exc.detail)))
        raise
    except AppError as exc:
        _keep_refused(request, match, kind, exc)
        raise
    return data.validated_data, entry


def _errors(detail: Any) -> dict[str, Any]:
    return dict(detail) if isinstance(detail, Mapping) else {"non_field_errors": detail}


def _keep_refused(request: Request, match: Match, kind: str, error: Exception) -> None:
    body = request.data
    submission_reject(
        match_id=match.pk,
        kind=kind,
        actor=Actor(user=acting_user(request)),
        meta=request_meta(request),
        payload=dict(body.items()) if isinstance(body, Mapping) else {"body": body},
        error=error,
        # The director as the view let them through: a refusal of their input is
        # answered as such (400), whether or not they play in the match.
        role_of=director_reader_role,
    )


class MatchForfeitView(DirectorView):
    decision = "forfeit"

    @extend_schema(
        operation_id="matches_forfeit",
        request=io.ForfeitSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="A director records a forfeit: the named player wins",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data, winner = _parsed(
            request,
            match,
            io.ForfeitSerializer,
            kind=Submission.Kind.FORFEIT,
            player_field="winner",
        )
        decide = services.match_forfeit if self.decision == "forfeit" else services.match_walkover
        decide(
            match=match,
            winner=winner,
            reason=data["reason"],
            by=acting_user(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)


class MatchWalkoverView(MatchForfeitView):
    decision = "walkover"

    @extend_schema(
        operation_id="matches_walkover",
        request=io.ForfeitSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="A director records a walkover: the opponent never came",
    )
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


class MatchPenaltyView(DirectorView):
    @extend_schema(
        operation_id="matches_penalty",
        request=io.PenaltySerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Late-arrival penalty points (past half the length: forfeit)",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data, against = _parsed(
            request,
            match,
            io.PenaltySerializer,
            kind=Submission.Kind.RESOLVE,
            player_field="player",
        )
        services.match_penalty_add(
            match=match,
            against=against,
            points=data["points"],
            reason=data["reason"],
            by=acting_user(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)


class MatchCorrectView(DirectorView):
    @extend_schema(
        operation_id="matches_correct",
        request=io.CorrectSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Correct a decided match's winner (and its score with it); the next round "
        "is re-seated",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data, winner = _parsed(
            request,
            match,
            io.CorrectSerializer,
            kind=Submission.Kind.RESOLVE,
            player_field="winner",
        )
        score = data.get("score")
        services.match_winner_correct(
            match=match,
            winner=winner,
            score=None if score is None else (score[0], score[1]),
            confirm=data["confirm"],
            cascade=data["cascade"],
            reason=data["reason"],
            by=acting_user(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)
