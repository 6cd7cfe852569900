"""Reporting endpoints: thin views that parse, find the actor and call a service.

Who may act is the service's business (``matches.access``): the match's
players (a user account linked to the entry, or the entry's private report key in
the ``X-Report-Key`` header or a ``key`` field) and the tournament's directors.
Every answer except 401/403/404 and an unreadably large upload is stored as a
versioned submission, accepted or rejected.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from core.http import declared_length, declares_too_much, request_meta
from matches.access import Actor, director_reader_role, director_role
from matches.api import serializers as io
from matches.api.report_throttle import ReportLinkThrottle
from matches.api.shapes import ERROR, MatchDetailSerializer, MatchSerializer, match_detail_data
from matches.errors import AppError, NotAuthenticated, invalid_input
from matches.models import Match
from matches.selectors import match_detail, match_list, match_submissions, tournaments_visible_to
from matches.services.confirmation import match_confirm, match_dispute, match_resolve
from matches.services.decisions import match_final_score
from matches.services.idempotency import KEPT_HOURS_MIN, key_checked
from matches.services.ledger import ID_MAX, submission_reject
from matches.services.records import file_too_large, max_file_bytes, record_upload
from matches.services.reporting import game_report, match_report
from matches.services.sync import Queue, device_sync
from tournament.models import User

KEY_HEADER = OpenApiParameter(
    "X-Report-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="An entry's private report key, instead of logging in.",
)
IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="A key of your choosing for this report (a UUID; at most 100 printable "
    "characters without spaces). The same report sent again with the same key, on the same "
    "match, within "
    f"{KEPT_HOURS_MIN} hours at least, is answered as the first time (the match, or the same "
    "refusal, with `Idempotent-Replayed: true`) and records nothing. The same key with "
    "another report is refused: 400 `idempotency-key-reused`.",
)
ERRORS = {
    400: OpenApiResponse(description="Bad input or a rules violation (the engine's code)"),
    401: OpenApiResponse(description="No credentials"),
    403: OpenApiResponse(description="Not a player of this match nor a director"),
    404: OpenApiResponse(description="No such match"),
    409: OpenApiResponse(description="The match changed: e.g. the game is already recorded"),
    429: OpenApiResponse(description="Too many reports from this link: wait (Retry-After)"),
}


def _body(request: Request) -> Mapping[str, Any]:
    return request.data if isinstance(request.data, Mapping) else {}


def request_actor(request: Request, *, read_body: bool = True) -> Actor:
    """The user and/or the entry whose report key came with the request."""
    key = request.headers.get("X-Report-Key")
    if not key and read_body:
        value = _body(request).get("key")
        key = value if isinstance(value, str) else None
    user = request.user if isinstance(request.user, User) else None  # not AnonymousUser
    return Actor(user=user, key=key or None)


def request_key(request: Request) -> str:
    """The request's ``Idempotency-Key`` (blank: none); 400 for one that cannot be a key."""
    return key_checked(request.headers.get("Idempotency-Key"))


#: The header a replayed report's answer carries (as Stripe's API names it).
REPLAYED_HEADER = "Idempotent-Replayed"


def match_response(match: Match, code: int = status.HTTP_200_OK) -> Response:
    """The match as ``GET /api/matches/{id}/`` shows it (``MatchDetailSerializer``'s shape,
    built as a plain dict: ``matches.api.shapes``).

    A service that knows the match's games after the report hands them over with the
    match (``Match.games_after``: no further query); otherwise the match is read again.
    """
    games = getattr(match, "games_after", None)
    headers = {REPLAYED_HEADER: "true"} if match.replayed else None
    if games is None:
        match = match_detail(match_id=match.pk)
    return Response(match_detail_data(match, games), status=code, headers=headers)


@functools.cache
def validator(serializer_class: type[serializers.Serializer[Any]]) -> serializers.Serializer[Any]:
    """One instance of a report serializer per process, for ``run_validation`` only.

    Building a serializer's fields (deep copies of the declared ones) costs more than
    validating a report; validation keeps no state in the serializer or its fields.
    """
    return serializer_class()


class ReportView(APIView):
    """A report endpoint: anyone may call it; the service decides who may act."""

    permission_classes = [AllowAny]
    throttle_classes = [ReportLinkThrottle]
    kind = ""
    #: Whether the endpoint takes an ``Idempotency-Key`` (read by ``parse`` into ``key``).
    keyed = False
    key = ""
    serializer_class: type[serializers.Serializer[Any]] = serializers.Serializer

    def parse(self, request: Request, pk: int, actor: Actor) -> dict[str, Any]:
        """The validated body; an invalid report is stored as rejected, then answered 400.

        The class's shared validator checks it (no fields to build); its errors are those
        ``is_valid()`` would give.
        """
        body = _body(request)
        key = ""
        error: AppError
        try:
            key = self.key = request_key(request) if self.keyed else ""
            data: dict[str, Any] = validator(self.serializer_class).run_validation(body)
            return data
        except exceptions.ValidationError as exc:
            detail = exc.detail
            errors = (
                detail
                if isinstance(detail, Mapping)
                else {api_settings.NON_FIELD_ERRORS_KEY: detail}
            )
            error = invalid_input(dict(errors))
        except AppError as exc:  # a bad Idempotency-Key
            error = exc
        submission_reject(
            match_id=pk,
            kind=self.kind,
            actor=actor,
            meta=request_meta(request),
            payload=dict(body),
            error=error,
            idempotency_key=key,
            **self.reject_options(),
        )
        raise error

    def reject_options(self) -> dict[str, Any]:
        return {}


class GameReportView(ReportView):
    kind = "game"
    keyed = True
    serializer_class = io.GameReportSerializer

    @extend_schema(
        operation_id="matches_game_report",
        request=io.GameReportSerializer,
        responses={201: MatchDetailSerializer, **ERRORS},
        parameters=[KEY_HEADER, IDEMPOTENCY_HEADER],
        summary="Report the next game of a match",
    )
    def post(self, request: Request, pk: int) -> Response:
        actor = request_actor(request)
        data = self.parse(request, pk, actor)
        match = game_report(
            match_id=pk,
            actor=actor,
            game=io.reported_game(data),
            meta=request_meta(request),
            idempotency_key=self.key,
        )
        return match_response(match, status.HTTP_201_CREATED)


class MatchReportView(ReportView):
    kind = "match"
    keyed = True
    serializer_class = io.MatchReportSerializer

    @extend_schema(
        operation_id="matches_match_report",
        request=io.MatchReportSerializer,
        responses={201: MatchDetailSerializer, **ERRORS},
        parameters=[KEY_HEADER, IDEMPOTENCY_HEADER],
        summary="Report a whole match: every game's cube and result, and the final score",
    )
    def post(self, request: Request, pk: int) -> Response:
        actor = request_actor(request)
        data = self.parse(request, pk, actor)
        match = match_report(
            match_id=pk,
            actor=actor,
            games=io.games_input(data) or [],
            score=io.score_input(data),
            meta=request_meta(request),
            idempotency_key=self.key,
        )
        return match_response(match, status.HTTP_201_CREATED)


class RecordUploadView(ReportView):
    kind = "record"
    keyed = True
    serializer_class = io.RecordUploadSerializer
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="matches_record_upload",
        request={"multipart/form-data": io.RecordUploadSerializer},
        responses={
            201: MatchDetailSerializer,
            413: OpenApiResponse(description="The file is over the size limit"),
            **ERRORS,
        },
        parameters=[KEY_HEADER, IDEMPOTENCY_HEADER],
        summary="Upload the match's .mat or .sgf file; the engine replays it move by move",
    )
    def post(self, request: Request, pk: int) -> Response:
        limit = max_file_bytes()
        if declares_too_much(request, limit):
            self.refuse_unread(request, pk, file_too_large(declared_length(request)))
        actor = request_actor(request)
        data = self.parse(request, pk, actor)
        upload = data["file"]
        if upload.size is not None and upload.size > limit:
            error = file_too_large(upload.size)
            submission_reject(
                match_id=pk,
                kind=self.kind,
                actor=actor,
                meta=request_meta(request),
                payload={},
                error=error,
                file_name=upload.name or "",
                idempotency_key=self.key,
            )
            raise error
        match = record_upload(
            match_id=pk,
            actor=actor,
            file_name=upload.name or "",
            data=upload.read(limit + 1),
            first_is=data.get("first_is"),
            swap=data.get("swap"),
            meta=request_meta(request),
            idempotency_key=self.key,
        )
        return match_response(match, status.HTTP_201_CREATED)

    def refuse_unread(self, request: Request, pk: int, error: AppError) -> None:
        """Refuse an upload over the limit without reading its body (stored if the
        reporter is known from the headers alone)."""
        actor = request_actor(request, read_body=False)
        if not actor.anonymous:
            submission_reject(
                match_id=pk,
                kind=self.kind,
                actor=actor,
                meta=request_meta(request),
                payload={"content_length": request.META.get("CONTENT_LENGTH")},
                error=error,
            )
        raise error


class ConfirmView(ReportView):
    kind = "confirm"
    keyed = True
    serializer_class = io.ConfirmSerializer

    @extend_schema(
        operation_id="matches_confirm",
        request=io.ConfirmSerializer,
        responses={200: MatchDetailSerializer, **ERRORS},
        parameters=[KEY_HEADER, IDEMPOTENCY_HEADER],
        summary="Confirm the result the opponent reported",
    )
    def post(self, request: Request, pk: int) -> Response:
        actor = request_actor(request)
        self.parse(request, pk, actor)
        match = match_confirm(
            match_id=pk, actor=actor, meta=request_meta(request), idempotency_key=self.key
        )
        return match_response(match)


class DisputeView(ReportView):
    kind = "dispute"
    keyed = True
    serializer_class = io.DisputeSerializer

    @extend_schema(
        operation_id="matches_dispute",
        request=io.DisputeSerializer,
        responses={200: MatchDetailSerializer, **ERRORS},
        parameters=[KEY_HEADER, IDEMPOTENCY_HEADER],
        summary="Dispute the reported result: the match goes to the director",
    )
    def post(self, request: Request, pk: int) -> Response:
        actor = request_actor(request)
        data = self.parse(request, pk, actor)
        match = match_dispute(
            match_id=pk,
            actor=actor,
            reason=data["reason"],
            meta=request_meta(request),
            idempotency_key=self.key,
        )
        return match_response(match)


class ResolveView(ReportView):
    kind = "resolve"
    keyed = True
    serializer_class = io.ResolveSerializer

    def reject_options(self) -> dict[str, Any]:
        return {"role_of": director_role}

    @extend_schema(
        operation_id="matches_resolve",
        request=io.ResolveSerializer,
        responses={200: MatchDetailSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_HEADER],
        summary="A director's final decision: uphold the games, replace them, or enter or "
        "correct the final score alone",
    )
    def post(self, request: Request, pk: int) -> Response:
        actor = request_actor(request, read_body=False)
        data = self.parse(request, pk, actor)
        score = io.score_input(data)
        if score is not None:
            match = match_final_score(
                match_id=pk,
                actor=actor,
                meta=request_meta(request),
                score=score,
                confirm=data["confirm"],
                reason=data["note"],
                role_of=director_role,
                idempotency_key=self.key,
            )
            return match_response(match)
        match = match_resolve(
            match_id=pk,
            actor=actor,
            meta=request_meta(request),
            note=data["note"],
            games=io.games_input(data),
            from_version=data.get("submission"),
            idempotency_key=self.key,
        )
        return match_response(match)


class SubmissionListView(APIView):
    """Every report about a match, accepted or rejected (directors only)."""

    @extend_schema(
        operation_id="matches_submissions",
        responses={200: io.SubmissionSerializer(many=True), **ERRORS},
        summary="The match's audit trail: every stored report",
    )
    def get(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("event"), pk=pk)
        director_reader_role(match=match, actor=request_actor(request, read_body=False))
        submissions = match_submissions(match=match)
        return Response(io.SubmissionSerializer(submissions, many=True).data)


# ---- reading matches: anyone, a private tournament's only for its directors ---------------


class MatchListView(generics.ListAPIView[Match]):
    # Matches filtered by event, tournament, round, bracket, status and player (ids).
    serializer_class = MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        params = io.MatchFilterSerializer(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        f = params.validated_data
        qs = match_list(
            event=f.get("event"),
            tournament=f.get("tournament"),
            round_number=f.get("round"),
            bracket=f.get("bracket"),
            status=f.get("status"),
            player=f.get("player"),
        )
        visible = tournaments_visible_to(self.request.user)
        return qs.filter(event__tournament__in=visible)

    @extend_schema(
        operation_id="matches_list",
        parameters=[io.MatchFilterSerializer],
        responses={200: MatchSerializer(many=True), 400: OpenApiResponse(ERROR)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class MatchReadView(APIView):
    # One match with its games; 404 for a private tournament's match to anyone but its
    # directors (and staff), as for a match that does not exist.

    @extend_schema(
        operation_id="matches_retrieve",
        responses={
            200: MatchDetailSerializer,
            404: OpenApiResponse(ERROR, description="Not found"),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        visible = tournaments_visible_to(request.user)
        if (
            not 0 < pk <= ID_MAX
            or not Match.objects.filter(pk=pk, event__tournament__in=visible).exists()
        ):
            raise Http404
        return Response(MatchDetailSerializer(match_detail(match_id=pk)).data)


class DeviceSyncView(APIView):
    """A player's phone says what it still holds (``matches.services.sync``)."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []  # the private key only: no session, no CSRF

    @extend_schema(
        operation_id="devices_sync",
        request=io.DeviceSyncSerializer,
        responses={
            200: io.DeviceSyncAnswerSerializer,
            400: ERRORS[400],
            401: ERRORS[401],
            404: OpenApiResponse(description="No player link has this key"),
        },
        parameters=[
            OpenApiParameter(
                "X-Report-Key",
                str,
                OpenApiParameter.HEADER,
                required=True,
                description="The player's private link key (or an entry's report key).",
            )
        ],
        summary="A player's phone syncs: per match, how many reports it holds unsent and "
        "how many refused ones await the player",
    )
    def post(self, request: Request) -> Response:
        key = request.headers.get("X-Report-Key", "")
        if not key:
            raise NotAuthenticated(_("Send the player's private link key in X-Report-Key."))
        serializer = io.DeviceSyncSerializer(data=_body(request))
        if not serializer.is_valid():
            raise invalid_input(dict(serializer.errors))
        queues = {
            q["match"]: Queue(unsent=q["unsent"], attention=q["attention"])
            for q in serializer.validated_data["matches"]
        }
        rows = device_sync(key=key, queues=queues)
        return Response(
            {
                "synced_at": rows[0].synced_at if rows else timezone.now(),
                "matches": [
                    {"match": r.match_id, "unsent": r.unsent, "attention": r.attention}
                    for r in rows
                ],
            }
        )


class BmabSerializer(serializers.Serializer[Any]):
    designated = serializers.BooleanField(
        required=False,
        help_text="BMAB-designated: by a player or a director before the first game is "
        "reported; after it, a director with a `reason`.",
    )
    recorded = serializers.BooleanField(required=False)
    clocked = serializers.BooleanField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")
    xg_pr1 = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Directors: player1's PR as eXtreme Gammon reported it (shown as 'XG PR "
        "(reported)'); null takes it off.",
    )
    xg_pr2 = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, required=False, allow_null=True
    )


class BmabView(APIView):
    """The BMAB flags of a match and the XG PRs (the service decides who may act)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="matches_bmab",
        request=BmabSerializer,
        responses={200: MatchDetailSerializer, **ERRORS},
        parameters=[KEY_HEADER],
        summary="Set the BMAB flags (designated, recorded, clocked) and the XG PRs",
    )
    def post(self, request: Request, pk: int) -> Response:
        from matches.services.bmab import match_bmab_set

        actor = request_actor(request, read_body=False)
        data = BmabSerializer(data=request.data)
        if not data.is_valid():
            raise invalid_input(dict(data.errors))
        values = dict(data.validated_data)
        get_object_or_404(Match, pk=pk)
        match_bmab_set(
            match_id=pk,
            actor=actor,
            designated=values.get("designated"),
            recorded=values.get("recorded"),
            clocked=values.get("clocked"),
            reason=values.get("reason", ""),
            xg_pr={k: values[k] for k in ("xg_pr1", "xg_pr2") if k in values},
        )
        return match_response(Match(pk=pk))
