"""An event's bracket and its standings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.api.shapes import MatchSerializer
from tournament.api.serializers.events import (
    ChampionSerializer,
    EliminationCountsSerializer,
    FeedSerializer,
)
from tournament.models import Round


class BracketRoundSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="round.pk")
    number = serializers.IntegerField(source="round.number")
    name = serializers.CharField(source="round.name")
    match_length = serializers.IntegerField(source="round.match_length")
    status = serializers.CharField(source="round.status")
    matches = MatchSerializer(many=True)


class BracketPartSerializer(serializers.Serializer[Any]):
    bracket = serializers.ChoiceField(choices=Round.Bracket.choices)
    rounds = BracketRoundSerializer(many=True)


class FedEventSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    rounds = serializers.ListField(child=serializers.IntegerField(), source="feed_rounds")


class BracketSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField(source="event.pk")
    format = serializers.CharField(source="event.format")
    status = serializers.CharField(source="event.status")
    champion = ChampionSerializer(source="event.champion", allow_null=True)
    feeds = serializers.SerializerMethodField()
    fed_events = FedEventSerializer(many=True, help_text="Events fed by this one's losers.")
    parts = BracketPartSerializer(many=True)

    @extend_schema_field(FeedSerializer(allow_null=True))
    def get_feeds(self, tree: Any) -> dict[str, Any] | None:
        event = tree.event
        if event.feeds_from_id is None:
            return None
        return {"from": event.feeds_from_id, "rounds": list(event.feed_rounds)}


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk")
    player = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    status = serializers.SerializerMethodField(
        help_text="`swiss-elimination`: `alive` or `eliminated`; other formats: the entry's "
        "status (as `entry_status`)."
    )
    entry_status = serializers.CharField(source="entry.status")
    eliminated_in_round = serializers.IntegerField(
        allow_null=True,
        help_text="`swiss-elimination`: the round of the player's last loss; null while alive "
        "(and in other formats).",
    )
    playoff = serializers.ChoiceField(
        choices=["in", "out", "won"],
        allow_null=True,
        help_text="`swiss-elimination`, a player of its playoff: `in` (still playing), `out` "
        "(lost in it) or `won`; null otherwise. The playoff leaves `status`, `wins` and "
        "`losses` as the Swiss rounds left them: the place (`rank`) says how it went.",
    )
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    columns = serializers.DictField(child=serializers.FloatField())

    def get_status(self, row: Any) -> str:
        return str(row.status if row.status is not None else row.entry.status)


class StandingsSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    counts = EliminationCountsSerializer(
        allow_null=True, help_text="`swiss-elimination`: alive, cashing and out; null otherwise."
    )
    rows = StandingRowSerializer(many=True)
