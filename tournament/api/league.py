"""API of ratings, series and deadlines: a player's rating history, a series' leaderboard,
a round's deadline (directors)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.api.base import READ_ERRORS, WRITE_ERRORS, DirectorView
from tournament.models import RatingChange, Round, Series
from tournament.selectors import players_visible_to
from tournament.services.deadlines import round_deadline_set
from tournament.services.series import series_leaderboard


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    change = serializers.SerializerMethodField()
    event = serializers.IntegerField(source="match.event_id")

    class Meta:
        model = RatingChange
        fields = [
            "match",
            "event",
            "rating_before",
            "rating_after",
            "change",
            "experience_before",
            "created_at",
        ]

    def get_change(self, obj: RatingChange) -> float:
        return obj.rating_after - obj.rating_before


class PlayerRatingsSerializer(serializers.Serializer[dict[str, object]]):
    player = serializers.IntegerField()
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    history = RatingChangeSerializer(many=True)


class LeaderboardRowSerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    club = serializers.CharField()
    country = serializers.CharField()
    points = serializers.FloatField()
    events = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Matches won over the board")


class CountedEventSerializer(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    tournament = serializers.CharField()
    kind = serializers.CharField()
    field = serializers.IntegerField()
    finished = serializers.BooleanField()


class LeaderboardSerializer(serializers.Serializer[object]):
    series = serializers.CharField(source="series.slug")
    name = serializers.CharField(source="series.name")
    scheme = serializers.CharField(source="series.scheme")
    rows = LeaderboardRowSerializer(many=True)
    events = CountedEventSerializer(many=True)


class DeadlineSerializer(serializers.Serializer[dict[str, object]]):
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="With its UTC offset (e.g. 2030-03-10T20:00:00+01:00); null removes it",
    )

    def to_internal_value(self, data: Any) -> dict[str, object]:
        raw = data.get("deadline") if isinstance(data, dict) else None
        if isinstance(raw, str):
            parsed = parse_datetime(raw.strip())
            if parsed is not None and timezone.is_naive(parsed):
                raise serializers.ValidationError(
                    {"deadline": [_("A deadline needs its UTC offset, e.g. +01:00 or Z.")]}
                )
        value: dict[str, object] = super().to_internal_value(data)
        return value


class PlayerRatingsView(APIView):
    @extend_schema(
        operation_id="players_ratings",
        responses={200: PlayerRatingsSerializer, **READ_ERRORS},
        summary="A player's FIBS rating, experience and rating history (oldest first)",
    )
    def get(self, request: Request, pk: int) -> Response:
        # 404 for a player seen only in private tournaments, as the player's own page.
        player = get_object_or_404(players_visible_to(request.user), pk=pk)
        history = (
            RatingChange.objects.filter(player=player)
            .select_related("match")
            .order_by("created_at", "match_id")
        )
        data = {
            "player": player.pk,
            "rating": player.rating,
            "experience": player.experience,
            "history": history,
        }
        return Response(PlayerRatingsSerializer(data).data)


class SeriesLeaderboardView(APIView):
    @extend_schema(
        operation_id="series_leaderboard",
        responses={200: LeaderboardSerializer, **READ_ERRORS},
        summary="A series' leaderboard over its public tournaments",
    )
    def get(self, request: Request, slug: str) -> Response:
        series = get_object_or_404(Series, slug=slug)
        board = series_leaderboard(series=series, public_only=True)
        return Response(LeaderboardSerializer(board).data)


class RoundDeadlineView(DirectorView):
    @extend_schema(
        operation_id="rounds_deadline_update",
        request=DeadlineSerializer,
        responses={200: DeadlineSerializer, **WRITE_ERRORS},
        summary="Set or remove a round's deadline (reminders a day before, the rule after)",
    )
    def put(self, request: Request, pk: int) -> Response:
        round_ = self.checked(request, get_object_or_404(Round, pk=pk))
        data = DeadlineSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = round_deadline_set(round=round_, deadline=data.validated_data["deadline"])
        return Response(DeadlineSerializer({"deadline": round_.deadline}).data)
