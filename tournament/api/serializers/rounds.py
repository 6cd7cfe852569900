"""Draws and rounds: the draw made, a round read, its length, its start."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from matches.api.serializers import IdField
from matches.api.shapes import MatchSerializer
from tournament.models import Draw, Round


class RoundSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = [
            "id",
            "event",
            "bracket",
            "number",
            "name",
            "match_length",
            "status",
            "started_at",
            "deadline",
        ]
        read_only_fields = fields


class RoundLengthSerializer(serializers.Serializer[Any]):
    match_length = serializers.IntegerField(min_value=1, max_value=99)


class DrawSerializer(serializers.ModelSerializer[Draw]):
    class Meta:
        model = Draw
        fields = ["id", "event", "method", "seed", "log", "created_at"]
        read_only_fields = fields


class DrawCreateSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=["random", "rating", "manual"], default="random")
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**53 - 1,
        help_text="Random draws: the seed that makes the draw repeatable.",
    )
    order = serializers.ListField(
        child=IdField(),
        max_length=100_000,
        required=False,
        help_text="Manual draws: player ids, best seed first.",
    )
    tables = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Number the tables of round 1 with the draw, before the players are told "
        "their matches (their notices and pages name the table).",
    )


class RoundStartSerializer(serializers.Serializer[Any]):
    """Starting a round (or a league's next one): whether to number its tables first."""

    tables = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Number the round's tables as it starts, before the players are told their "
        "matches (the notices name the table). Left out or null: as the tournament does, "
        "numbered once any match of it has had a table.",
    )


class DrawResultSerializer(serializers.Serializer[Any]):
    draw = DrawSerializer()
    round = RoundSerializer(allow_null=True)
    matches = MatchSerializer(many=True)
