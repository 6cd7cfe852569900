"""Players: read, created, corrected, imported from CSV."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.analysis_selectors import player_summary
from matches.api.analysis_views import PlayerAnalysisSummarySerializer
from matches.api.serializers import IdField
from tournament.api.serializers.common import reader
from tournament.models import Player


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "country", "rating", "experience"]
        read_only_fields = fields


class PlayerDetailSerializer(PlayerSerializer):
    """One player, with their gnubg PR (unofficial) per analysed match they may see."""

    analysis = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "analysis"]
        read_only_fields = fields

    @extend_schema_field(PlayerAnalysisSummarySerializer)
    def get_analysis(self, player: Player) -> dict[str, Any]:
        return player_summary(player.pk, reader(self))


class PlayerCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    rating = serializers.FloatField(required=False, allow_null=True, min_value=1, max_value=4000)
    club = serializers.CharField(required=False, allow_blank=True, default="", max_length=120)
    country = serializers.CharField(required=False, allow_blank=True, default="", max_length=2)
    confirm_new = serializers.BooleanField(
        default=False,
        help_text="A name that a player already has is refused (400 `possible-duplicate`, "
        "with the `existing` players) unless this is true: use that player, or confirm.",
    )


class PlayerWithEmailSerializer(PlayerSerializer):
    """A player as those who may correct them see it: with the email."""

    # Not an EmailField: its schema says format "email", which "" (no email known) is not.
    email = serializers.CharField(read_only=True, help_text="Empty when none is known.")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "email"]
        read_only_fields = fields


class TextField(serializers.CharField):
    """A string, refused when it is anything else (a plain ``CharField`` turns 42 into "42")."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class PlayerUpdateSerializer(serializers.Serializer[Any]):
    """The fields to correct; those left out stay as they are."""

    name = TextField(required=False, max_length=120)
    email = serializers.EmailField(required=False, allow_blank=True)
    club = TextField(required=False, allow_blank=True, max_length=120)
    country = TextField(
        required=False, allow_blank=True, max_length=2, help_text="Two-letter ISO code."
    )
    confirm_new = serializers.BooleanField(
        default=False,
        help_text="A new name that another player has is refused (400 `possible-duplicate`, "
        "with the `existing` players) unless this is true: confirm they are different people.",
    )


class PlayerImportSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(
        required=False, help_text="A CSV file with a header row: name,email,rating,club."
    )
    csv = serializers.CharField(
        required=False, help_text="The CSV text itself, instead of a file.", trim_whitespace=False
    )
    event = IdField(required=False, help_text="Also enter every imported player in this event.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("file") and not attrs.get("csv"):
            raise serializers.ValidationError({"file": [_("Send a CSV file or the csv text.")]})
        return attrs


class ImportRowErrorSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField(help_text="Line number in the file (the header is line 1).")
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class ImportNamesakeSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField(help_text="Line number in the file (the header is line 1).")
    player = PlayerSerializer(help_text="The player created from that line.")
    existing = PlayerSerializer(many=True, help_text="Players known before with that name.")


class PlayerImportResultSerializer(serializers.Serializer[Any]):
    created = PlayerSerializer(many=True)
    existing = PlayerSerializer(many=True)
    entered = serializers.IntegerField()
    # DRF's metaclass pops declared fields, so this does not shadow Serializer.errors.
    errors = ImportRowErrorSerializer(many=True)  # type: ignore[assignment]
    possible_duplicates = ImportNamesakeSerializer(
        many=True,
        source="namesakes",
        help_text="New players whose name a known player has: the same person twice?",
    )
