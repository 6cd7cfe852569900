"""Events: read (with their rounds, draw, final places and PR table), created, changed."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.analysis_selectors import pr_summary
from matches.api.analysis_views import PrTableSerializer
from matches.api.serializers import IdField
from tournament.api.serializers.common import all_optional, reader
from tournament.api.serializers.places import FinalSheetSerializer, final_sheet_data
from tournament.api.serializers.rounds import DrawSerializer, RoundSerializer
from tournament.models import Event, Tournament
from tournament.selectors import TIEBREAKS, in_field


class FeedSerializer(serializers.Serializer[Any]):
    """``{"from": event_id, "rounds": [1, 2]}``: the Main whose losers of these rounds enter."""

    rounds = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=64), min_length=1, max_length=64
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = IdField(help_text="The feeding event's id.")
        return fields


class ChampionSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class ClockSerializer(serializers.Serializer[Any]):
    reserve_minutes_per_point = serializers.FloatField(min_value=0, default=0)
    delay_seconds = serializers.FloatField(min_value=0, default=0)


class PlayoffSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["three-player", "knockout"])
    seeds = serializers.ListField(child=serializers.IntegerField())
    after_round = serializers.IntegerField()


class EventSerializer(serializers.ModelSerializer[Event]):
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    rounds = serializers.IntegerField(source="rounds_planned", read_only=True, allow_null=True)
    feeds = serializers.SerializerMethodField()
    champion = ChampionSerializer(read_only=True, allow_null=True)
    playoff = serializers.SerializerMethodField(
        help_text="`swiss-elimination`, once its playoff has begun: `kind` "
        "(`three-player` or `knockout`), `seeds` (entry ids, best first) and `after_round` "
        "(the last Swiss round); null before, and in other formats."
    )
    entry_count = serializers.SerializerMethodField(
        help_text="The event's players (its field), the number every page shows: before the "
        "draw the entries holding a place; from the draw on the players it placed or a feed "
        "brought in (and a Swiss event's late entries while it runs)."
    )

    class Meta:
        model = Event
        fields = [
            "id",
            "tournament",
            "name",
            "slug",
            "kind",
            "format",
            "status",
            "match_lengths",
            "crawford",
            "holland",
            "clock",
            "rounds",
            "feeds",
            "tiebreaks",
            "deadline_rule",
            "start_matches",
            "entry_fee",
            "payout_split",
            "added_money",
            "prize_unit",
            "signup",
            "signup_deadline",
            "entry_cap",
            "champion",
            "entry_count",
            "losses_to_eliminate",
            "places_paid",
            "playoff_switch",
            "last_loss_cashes",
            "avoid_same_club_first_round",
            "three_player_playoff",
            "wisconsin_after_rounds",
            "playoff",
        ]
        read_only_fields = fields

    @extend_schema_field(FeedSerializer(allow_null=True))
    def get_feeds(self, event: Event) -> dict[str, Any] | None:
        if event.feeds_from_id is None:
            return None
        return {"from": event.feeds_from_id, "rounds": list(event.feed_rounds)}

    @extend_schema_field(PlayoffSerializer(allow_null=True))
    def get_playoff(self, event: Event) -> dict[str, Any] | None:
        return dict(event.playoff) if event.playoff else None

    def get_entry_count(self, event: Event) -> int:
        count = getattr(event, "entry_count", None)
        return int(count) if count is not None else in_field(event.entries.all()).count()


class EventCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    format = serializers.ChoiceField(choices=Event.Format.choices)
    match_lengths = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=99),
        min_length=1,
        max_length=64,
        help_text="Each round's match length; the last one repeats.",
    )
    crawford = serializers.BooleanField(default=True)
    holland = serializers.BooleanField(default=False)
    rounds = serializers.IntegerField(
        required=False, min_value=1, max_value=50, help_text="Swiss: the number of rounds."
    )
    feeds = FeedSerializer(required=False)
    kind = serializers.ChoiceField(choices=Event.Kind.choices, required=False)
    slug = serializers.SlugField(required=False, allow_blank=True, default="", max_length=50)
    clock = ClockSerializer(many=True, required=False)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(TIEBREAKS)), required=False
    )
    deadline_rule = serializers.ChoiceField(
        choices=Event.DeadlineRule.choices, default=Event.DeadlineRule.FLAG
    )
    start_matches = serializers.ChoiceField(
        choices=Event.StartMatches.choices,
        default=Event.StartMatches.BY_ROUND,
        help_text="`auto`: each match is ready (its players told) as soon as both players "
        "are known, its round started as needed; `by-round` (the default here, as before): "
        "matches wait until the director starts their round. Leagues (Swiss, round robin) "
        "always start by round. Switching a drawn event to `auto` opens its matches at once.",
    )
    entry_fee = serializers.DecimalField(
        max_digits=9, decimal_places=2, required=False, allow_null=True, min_value=0
    )
    payout_split = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=100), required=False
    )
    losses_to_eliminate = serializers.IntegerField(
        required=False,
        min_value=2,
        max_value=6,
        help_text="`swiss-elimination`: a player is out at this many losses (default 3; a "
        "bye counts as a win). Fixed at the draw.",
    )
    places_paid = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=1000,
        help_text="`swiss-elimination`: the places paid (the room board counts the players "
        "cashing).",
    )
    playoff_switch = serializers.BooleanField(
        required=False,
        help_text="`swiss-elimination`: the event ends when no more players are alive than "
        "`places_paid`; they share the prizes by record.",
    )
    last_loss_cashes = serializers.BooleanField(
        required=False,
        help_text="`swiss-elimination`: players on N-1 losses can still cash: those out in "
        "the round the field dropped to `places_paid` share the paid places left equally, "
        "whatever their records (without it, a better record, e.g. of a player who "
        "withdrew, places them first).",
    )
    avoid_same_club_first_round = serializers.BooleanField(
        required=False,
        help_text="Round 1 keeps players of the same club apart where it can: Swiss and "
        "swiss-elimination pair it so (an `avoid` prohibition for each such pair), a "
        "bracket's draw swaps seeds, a round robin plays first the round with fewest such "
        "pairs. Fixed at the draw.",
    )
    three_player_playoff = serializers.BooleanField(
        required=False,
        help_text="`swiss-elimination` (default false): when three players are left alive "
        "with identical records they play the three-player playoff (the first two seeds "
        "meet, the loser meets the third, the two winners meet in the final); false: the "
        "Swiss goes on. Fixed once a playoff begins.",
    )
    wisconsin_after_rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=50,
        help_text="`swiss-elimination`: the Wisconsin ending, after this many Swiss rounds "
        "the players alive play a knockout seeded by losses (fewest first, then the record "
        "and tie-breaks; byes to the top seeds); null: none. Fixed once a playoff begins.",
    )


class EventSettingsSerializer(EventCreateSerializer):
    """The settings to change (only those sent); ``feeds: null`` stops a feed. The slug
    stays; settings the draw fixed are refused with the reason."""

    signup = serializers.ChoiceField(
        choices=Event.Signup.choices,
        help_text="Players' own sign-up on the public page: `closed`, `open` (entered as "
        "they come, up to the cap, then a waiting list) or `approval` (the director takes each).",
    )
    signup_deadline = serializers.DateTimeField(allow_null=True, help_text="Sign-up closes then.")
    entry_cap = serializers.IntegerField(
        allow_null=True,
        min_value=2,
        max_value=10000,
        help_text="Entries taken; past it sign-ups wait. Raising it moves the first waiting up.",
    )
    added_money = serializers.DecimalField(
        max_digits=9, decimal_places=2, min_value=0, help_text="Added to the prize pool."
    )
    prize_unit = serializers.ChoiceField(
        choices=[(1, "1"), (5, "5"), (10, "10")], help_text="Prizes are rounded down to it."
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        del fields["slug"]
        fields["rounds"].allow_null = True
        fields["feeds"].allow_null = True
        return all_optional(fields)


class EliminationCountsSerializer(serializers.Serializer[Any]):
    alive = serializers.IntegerField(help_text="Players with fewer losses than the limit.")
    cashing = serializers.IntegerField(
        help_text="Players in the money as things stand: once no more players are alive "
        "than `places_paid`, those whose place is within the places paid (0 before, and "
        "without `places_paid`)."
    )
    out = serializers.IntegerField(help_text="Players out (or withdrawn).")
    losses_to_eliminate = serializers.IntegerField()


class EventDetailSerializer(EventSerializer):
    round_list = serializers.SerializerMethodField()
    draw = serializers.SerializerMethodField()
    final = serializers.SerializerMethodField(
        help_text="Final places and prizes once the event is finished; null before."
    )
    analysis = serializers.SerializerMethodField(
        help_text="The event's PR table (gnubg PR, unofficial), as GET /api/events/{id}/analysis/ "
        "answers it: empty while the figures are hidden from you."
    )

    counts = serializers.SerializerMethodField(
        help_text="`swiss-elimination`: players alive, cashing and out; null otherwise."
    )

    class Meta(EventSerializer.Meta):
        fields = [
            *EventSerializer.Meta.fields,
            "round_list",
            "draw",
            "final",
            "analysis",
            "counts",
        ]
        read_only_fields = fields

    @extend_schema_field(EliminationCountsSerializer(allow_null=True))
    def get_counts(self, event: Event) -> dict[str, Any] | None:
        from tournament.selectors import elimination_counts

        if not event.is_elimination_swiss:
            return None
        return EliminationCountsSerializer(elimination_counts(event)).data

    @extend_schema_field(PrTableSerializer)
    def get_analysis(self, event: Event) -> dict[str, Any]:
        return pr_summary(reader(self), event=event)

    @extend_schema_field(FinalSheetSerializer(allow_null=True))
    def get_final(self, event: Event) -> dict[str, Any] | None:
        from tournament.selectors.final_places import event_final

        sheet = event_final(event)
        if sheet is None:
            return None
        return FinalSheetSerializer(final_sheet_data(sheet)).data

    @extend_schema_field(RoundSerializer(many=True))
    def get_round_list(self, event: Event) -> list[dict[str, Any]]:
        return RoundSerializer(event.rounds.all(), many=True).data  # type: ignore[return-value]

    @extend_schema_field(DrawSerializer(allow_null=True))
    def get_draw(self, event: Event) -> dict[str, Any] | None:
        draws = getattr(event, "last_draws", None)
        if draws is None:
            draws = list(event.draws.order_by("-created_at")[:1])
        return DrawSerializer(draws[0]).data if draws else None
