"""Matches: their tables and the director's decisions (forfeit, walkover, penalty, winner
and score correction, reopening a forfeit or walkover), each through the console's service. Listing and reading them are ``matches.api.views``'s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.http import request_meta
from matches.access import Actor, director_reader_role
from matches.api.shapes import MatchDetailSerializer
from matches.api.views import MatchReadView
from matches.errors import AppError, invalid_input, refuse
from matches.models import Match, Submission
from matches.selectors import match_detail
from matches.services.ledger import submission_reject
from tournament.api.base import WRITE_ERRORS, DirectorView, acting_user
from tournament.api.serializers.common import ReasonSerializer
from tournament.api.serializers.matches import (
    CorrectSerializer,
    FinalScoreSerializer,
    ForfeitSerializer,
    MatchTableSerializer,
    PenaltySerializer,
)
from tournament.models import Entry
from tournament.services.results import (
    match_award,
    match_final_score_enter,
    match_penalty_add,
    match_reopen_decision,
    match_winner_correct,
)
from tournament.services.tables import match_table_set


class MatchDetailView(MatchReadView, DirectorView):
    # GET (the read) is matches.api.views.MatchReadView's; PATCH puts it at a table.
    @extend_schema(
        operation_id="matches_table_update",
        request=MatchTableSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Put a match at a table (board), or take it off its table",
    )
    def patch(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = MatchTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_table_set(match=match, table=data.validated_data["table"], by=acting_user(request))
        return _match_answer(pk)


#: What the schema says of ``matches_forfeit`` and ``matches_walkover``: what the decision
#: does to the feed (the console's forfeit form says the same).
FORFEIT_DESCRIPTION = (
    "The match is decided without play (or without further play) for `winner`, who moves "
    "on as after a played match. A forfeit or walkover decides this match only: in a Main "
    "that feeds a Consolation its loser still goes into the Consolation, as the draw says "
    "(and may play there). A player who leaves the tournament is withdrawn instead "
    "(`POST /api/entries/{id}/withdraw/`): their open matches are walked over and they are "
    "out of every event the Main feeds, their Consolation place a bye for the opponent "
    "there. Taken back with `POST /api/matches/{id}/reopen/` while the winner has not "
    "played on."
)


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
        _("Player {player_id} does not play match {match_pk}.").format(
            player_id=player_id, match_pk=match.pk
        ),
        code="not-in-match",
        field=field,
    )


def _parsed(
    request: Request,
    match: Match,
    serializer_class: type[serializers.Serializer[Any]],
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
        request=ForfeitSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="A director records a forfeit: the named player wins; in a Main, its loser "
        "still goes into the Consolation it feeds",
        description=FORFEIT_DESCRIPTION,
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data, winner = _parsed(
            request,
            match,
            ForfeitSerializer,
            kind=Submission.Kind.FORFEIT,
            player_field="winner",
        )
        match_award(
            match=match,
            decision=Match.Decision.FORFEIT
            if self.decision == "forfeit"
            else Match.Decision.WALKOVER,
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
        request=ForfeitSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="A director records a walkover: the opponent never came; in a Main, its "
        "loser still goes into the Consolation it feeds",
        description=FORFEIT_DESCRIPTION,
    )
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


class MatchPenaltyView(DirectorView):
    @extend_schema(
        operation_id="matches_penalty",
        request=PenaltySerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Late-arrival penalty points (past half the length: forfeit)",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data, against = _parsed(
            request,
            match,
            PenaltySerializer,
            kind=Submission.Kind.RESOLVE,
            player_field="player",
        )
        match_penalty_add(
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
        request=CorrectSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Correct a decided match's winner (and its score with it); the next round "
        "is re-seated",
        description=(
            "The new winner takes the old winner's place further on (and the old winner the "
            "loser's, a Consolation line included); players told of a match that is now off "
            "are sent a correction. Refused, 400 `next-match-started` (`match`: its id, "
            "named in the message), once a match the change would touch has started, unless "
            "`cascade`: then that match's games are voided (kept, marked) and it is reopened, "
            "and so on down the bracket. Without `confirm` a change that needs it is refused "
            "with what it would do. The console's correction form does the same."
        ),
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data, winner = _parsed(
            request,
            match,
            CorrectSerializer,
            kind=Submission.Kind.RESOLVE,
            player_field="winner",
        )
        score = data.get("score")
        match_winner_correct(
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


class MatchScoreView(DirectorView):
    @extend_schema(
        operation_id="matches_score",
        request=FinalScoreSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Enter a match's final score alone, or correct a decided match's score "
        "(a changed winner re-seats the next round)",
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = FinalScoreSerializer(data=request.data)
        try:
            data.is_valid(raise_exception=True)
        except exceptions.ValidationError as exc:
            _keep_refused(request, match, Submission.Kind.SCORE, invalid_input(_errors(exc.detail)))
            raise
        score = data.validated_data["score"]
        match_final_score_enter(
            match=match,
            score1=score[0],
            score2=score[1],
            confirm=data.validated_data["confirm"],
            cascade=data.validated_data["cascade"],
            reason=data.validated_data["reason"],
            by=acting_user(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)


class MatchReopenView(DirectorView):
    @extend_schema(
        operation_id="matches_reopen",
        request=ReasonSerializer,
        responses={200: MatchDetailSerializer, **WRITE_ERRORS},
        summary="Take back a forfeit or walkover: the match is ready to play again and its "
        "winner leaves the next round (refused once they have played on there)",
        description=(
            "What the walkover or forfeit moved on is taken back with it, in one step: the "
            "winner leaves the next matches it reached while those are only ready at 0-0 or "
            "were decided by a further walkover or a bye. Players told of a match that is now "
            "off are sent a correction. Refused, 400 `next-match-started` (`match`: its id, "
            "named in the message), once one of those matches has really been played: "
            "correct it first (`POST /api/matches/{id}/correct/` with `cascade`). A "
            "withdrawal's walkovers are taken back by undoing the withdrawal "
            "(`POST /api/entries/{id}/withdraw/undo/`)."
        ),
    )
    def post(self, request: Request, pk: int) -> Response:
        match = self.match(request, pk)
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match_reopen_decision(
            match=match,
            reason=data.validated_data["reason"],
            by=acting_user(request),
            meta=request_meta(request),
        )
        return _match_answer(pk)
