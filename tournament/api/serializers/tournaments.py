"""Tournaments: read, created, their details changed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import serializers

from matches.errors import Invalid
from tournament.api.serializers.common import all_optional
from tournament.models import Tournament
from tournament.services.tournaments import currency_code


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "starts_on",
            "ends_on",
            "venue",
            "time_zone",
            "language",
            "currency",
            "is_public",
            "analysis_enabled",
            "analysis_plies",
            "analysis_public",
        ]
        read_only_fields = fields


class TournamentCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(required=False, allow_blank=True, default="", max_length=50)
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    venue = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    time_zone = serializers.CharField(required=False, default="UTC", max_length=64)
    language = serializers.ChoiceField(
        choices=[code for code, _label in settings.LANGUAGES],
        required=False,
        default="en",
        help_text="The tournament's language: its pages for visitors whose browser asks for "
        "none of the site's, its print sheets, and its emails to players who signed up in "
        "no language of their own",
    )
    currency = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="The ISO 4217 code its fees and prizes are shown in (EUR, DKK, JPY...; "
        'lower case is taken as upper); "": amounts without a currency',
    )
    is_public = serializers.BooleanField(required=False, default=True)
    analysis_enabled = serializers.BooleanField(
        required=False, default=True, help_text="GNU Backgammon analyses uploaded match files"
    )
    analysis_plies = serializers.ChoiceField(
        choices=list(Tournament._meta.get_field("analysis_plies").choices or ()),
        required=False,
        default=2,
        help_text="The full analysis' plies (a quick 0-ply pass always comes first)",
    )
    analysis_public = serializers.BooleanField(
        required=False,
        default=True,
        help_text="Everyone sees the figures before the event ends (else directors only)",
    )

    def validate_currency(self, value: str) -> str:
        try:
            return currency_code(value)
        except Invalid as refusal:
            raise serializers.ValidationError(refusal.message) from refusal

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        starts_on, ends_on = attrs.get("starts_on"), attrs.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            raise serializers.ValidationError(
                {"ends_on": [_("The tournament cannot end before it starts.")]}
            )
        return attrs


class TournamentSettingsSerializer(TournamentCreateSerializer):
    """The details to change (only those sent); the slug, the pages' address, stays."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        del fields["slug"]
        return all_optional(fields)
