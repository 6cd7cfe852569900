"""A finished event's final places and prizes (its side pools too)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class PlaceSerializer(serializers.Serializer[Any]):
    best = serializers.IntegerField()
    worst = serializers.IntegerField()
    text = serializers.CharField(help_text="`1st`, `3rd-4th`, ...")


class FinalRowSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    place = PlaceSerializer()
    prize = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)


class SidePoolSheetSerializer(serializers.Serializer[Any]):
    """A side pool at the end: its players' places among themselves and prizes."""

    name = serializers.CharField()
    stake = serializers.DecimalField(max_digits=12, decimal_places=2)
    payout_split = serializers.ListField(child=serializers.FloatField())
    pool = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid_out = serializers.DecimalField(max_digits=12, decimal_places=2)
    remainder = serializers.DecimalField(max_digits=12, decimal_places=2)
    places = FinalRowSerializer(many=True)


class FinalSheetSerializer(serializers.Serializer[Any]):
    """A finished event's final places and prizes."""

    event = serializers.IntegerField()
    places = FinalRowSerializer(many=True)
    pool = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid_entries = serializers.IntegerField()
    paid_out = serializers.DecimalField(max_digits=12, decimal_places=2)
    remainder = serializers.DecimalField(max_digits=12, decimal_places=2)
    prize_unit = serializers.IntegerField()
    side_pools = SidePoolSheetSerializer(many=True)


def _final_rows(rows: Any) -> list[dict[str, Any]]:
    return [
        {
            "entry": row.entry.pk,
            "player": row.entry.player_id,
            "player_name": row.entry.player.name,
            "place": {"best": row.place.best, "worst": row.place.worst, "text": str(row.place)},
            "prize": row.prize,
        }
        for row in rows
    ]


def final_sheet_data(sheet: Any) -> dict[str, Any]:
    """A ``tournament.selectors.final_places.FinalSheet`` in the shape of ``FinalSheetSerializer``."""
    return {
        "event": sheet.event.pk,
        "places": _final_rows(sheet.rows),
        "pool": sheet.pool,
        "paid_entries": sheet.paid_entries,
        "paid_out": sheet.paid_out,
        "remainder": sheet.remainder,
        "prize_unit": sheet.event.prize_unit,
        "side_pools": [
            {
                "name": side.pool.name,
                "stake": side.pool.stake,
                "payout_split": side.pool.payout_split,
                "pool": side.total,
                "paid_out": side.paid_out,
                "remainder": side.remainder,
                "places": _final_rows(side.rows),
            }
            for side in sheet.side_pools
        ],
    }
