"""Entries: read (the private link for the tournament's directors), entered."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers
from rest_framework.request import Request

from matches.api.serializers import IdField
from tournament.models import Entry
from tournament.services.entries import MAX_SEED


class EntrySerializer(serializers.ModelSerializer[Entry]):
    """An entry; ``link`` and ``link_key`` (the player's private link for the whole
    tournament) only for its directors: the view puts the keys in the context as
    ``link_keys`` (player id -> key), read in one query; anyone else gets ``null``."""

    player = serializers.IntegerField(source="player_id", read_only=True)
    player_name = serializers.CharField(source="player.name", read_only=True)
    rating = serializers.FloatField(source="player.rating", read_only=True)
    link = serializers.SerializerMethodField(
        help_text="The player's private link (directors of the tournament only; else null)."
    )
    link_key = serializers.SerializerMethodField(
        help_text="The key of that link, as taken by X-Report-Key (directors only; else null)."
    )
    paid = serializers.SerializerMethodField(
        help_text='How the fee was paid (`cash`, `transfer`, `online`, `waived`), `""` '
        "unpaid (directors of the tournament only; else null)."
    )
    waiting_position = serializers.SerializerMethodField(
        help_text="The place on the waiting list (1 = next in); null off the list."
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "event",
            "player",
            "player_name",
            "rating",
            "seed",
            "status",
            "checked_in_at",
            "signed_up",
            "waiting_position",
            "paid",
            "link",
            "link_key",
        ]
        read_only_fields = fields

    def get_paid(self, entry: Entry) -> str | None:
        return entry.paid if "link_keys" in self.context else None

    def get_waiting_position(self, entry: Entry) -> int | None:
        if entry.status != Entry.Status.WAITING:
            return None
        positions: dict[int, int] | None = self.context.get("waiting")
        if positions is not None:
            return positions.get(entry.pk)
        from tournament.services.waiting_list import waiting_position

        return waiting_position(entry)

    def get_link_key(self, entry: Entry) -> str | None:
        keys: dict[int, str] = self.context.get("link_keys", {})
        return keys.get(entry.player_id)

    def get_link(self, entry: Entry) -> str | None:
        key = self.get_link_key(entry)
        if key is None:
            return None
        request: Request = self.context["request"]
        return request.build_absolute_uri(reverse("matches:entry", args=[key]))


class EntryCreateSerializer(serializers.Serializer[Any]):
    player = IdField(help_text="The player's id.")
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_SEED
    )
