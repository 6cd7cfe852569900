"""Input and output shapes of the tournament API (api.md fixes the names).

The match read shapes every endpoint that answers with a match uses are
``matches.api.shapes``'s ``MatchSerializer`` and ``MatchDetailSerializer``.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.analysis_selectors import player_summary, pr_summary
from matches.api.analysis_views import PlayerAnalysisSummarySerializer, PrTableSerializer
from matches.api.serializers import IdField, confirm_field, final_score_field
from matches.api.shapes import GameOutSerializer as GameOutSerializer
from matches.api.shapes import MatchSerializer
from tournament.models import Draw, Entry, Event, Player, Round, Tournament
from tournament.selectors import OFF_LIST, TIEBREAKS

# ---- players -------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "country", "rating", "experience"]
        read_only_fields = fields


def _reader(serializer: serializers.Serializer) -> Any:
    """The user the serializer answers (``context["request"]``), or ``None``."""
    request = serializer.context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


class PlayerDetailSerializer(PlayerSerializer):
    """One player, with their gnubg PR (unofficial) per analysed match they may see."""

    analysis = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "analysis"]
        read_only_fields = fields

    @extend_schema_field(PlayerAnalysisSummarySerializer)
    def get_analysis(self, player: Player) -> dict[str, Any]:
        return player_summary(player.pk, _reader(self))


class PlayerCreateSerializer(serializers.Serializer):
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


class PlayerUpdateSerializer(serializers.Serializer):
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


class PlayerImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        required=False, help_text="A CSV file with a header row: name,email,rating,club."
    )
    csv = serializers.CharField(
        required=False, help_text="The CSV text itself, instead of a file.", trim_whitespace=False
    )
    event = IdField(required=False, help_text="Also enter every imported player in this event.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("file") and not attrs.get("csv"):
            raise serializers.ValidationError({"file": ["Send a CSV file or the csv text."]})
        return attrs


class ImportRowErrorSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="Line number in the file (the header is line 1).")
    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class ImportNamesakeSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="Line number in the file (the header is line 1).")
    player = PlayerSerializer(help_text="The player created from that line.")
    existing = PlayerSerializer(many=True, help_text="Players known before with that name.")


class PlayerImportResultSerializer(serializers.Serializer):
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


# ---- tournaments and events ----------------------------------------------------------


class TournamentSerializer(serializers.ModelSerializer):
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
            "is_public",
            "analysis_enabled",
            "analysis_plies",
            "analysis_public",
        ]
        read_only_fields = fields


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(required=False, allow_blank=True, default="", max_length=50)
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    venue = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    time_zone = serializers.CharField(required=False, default="UTC", max_length=64)
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

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        starts_on, ends_on = attrs.get("starts_on"), attrs.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            raise serializers.ValidationError(
                {"ends_on": ["The tournament cannot end before it starts."]}
            )
        return attrs


def _all_optional(fields: dict[str, serializers.Field]) -> dict[str, serializers.Field]:
    """A create serializer's fields for a partial change: a field not sent keeps its value."""
    for field in fields.values():
        field.required = False
        field.default = serializers.empty
    return fields


class TournamentSettingsSerializer(TournamentCreateSerializer):
    """The details to change (only those sent); the slug, the pages' address, stays."""

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        del fields["slug"]
        return _all_optional(fields)


class FeedSerializer(serializers.Serializer):
    """``{"from": event_id, "rounds": [1, 2]}``: the Main whose losers of these rounds enter."""

    rounds = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=64), min_length=1, max_length=64
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = IdField(help_text="The feeding event's id.")
        return fields


class ChampionSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="pk")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class ClockSerializer(serializers.Serializer):
    reserve_minutes_per_point = serializers.FloatField(min_value=0, default=0)
    delay_seconds = serializers.FloatField(min_value=0, default=0)


class EventSerializer(serializers.ModelSerializer):
    tournament: serializers.SlugRelatedField[Tournament] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    rounds = serializers.IntegerField(source="rounds_planned", read_only=True, allow_null=True)
    feeds = serializers.SerializerMethodField()
    champion = ChampionSerializer(read_only=True, allow_null=True)
    entry_count = serializers.SerializerMethodField()

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
        ]
        read_only_fields = fields

    @extend_schema_field(FeedSerializer(allow_null=True))
    def get_feeds(self, event: Event) -> dict[str, Any] | None:
        if event.feeds_from_id is None:
            return None
        return {"from": event.feeds_from_id, "rounds": list(event.feed_rounds)}

    def get_entry_count(self, event: Event) -> int:
        count = getattr(event, "entry_count", None)
        return (
            int(count) if count is not None else event.entries.exclude(status__in=OFF_LIST).count()
        )


class EventCreateSerializer(serializers.Serializer):
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

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        del fields["slug"]
        fields["rounds"].allow_null = True
        fields["feeds"].allow_null = True
        return _all_optional(fields)


class RoundSerializer(serializers.ModelSerializer):
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


class RoundLengthSerializer(serializers.Serializer):
    match_length = serializers.IntegerField(min_value=1, max_value=99)


class DrawSerializer(serializers.ModelSerializer):
    class Meta:
        model = Draw
        fields = ["id", "event", "method", "seed", "log", "created_at"]
        read_only_fields = fields


class PlaceSerializer(serializers.Serializer):
    best = serializers.IntegerField()
    worst = serializers.IntegerField()
    text = serializers.CharField(help_text="`1st`, `3rd-4th`, ...")


class FinalRowSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    place = PlaceSerializer()
    prize = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)


class SidePoolSheetSerializer(serializers.Serializer):
    """A side pool at the end: its players' places among themselves and prizes."""

    name = serializers.CharField()
    stake = serializers.DecimalField(max_digits=12, decimal_places=2)
    payout_split = serializers.ListField(child=serializers.FloatField())
    pool = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid_out = serializers.DecimalField(max_digits=12, decimal_places=2)
    remainder = serializers.DecimalField(max_digits=12, decimal_places=2)
    places = FinalRowSerializer(many=True)


class FinalSheetSerializer(serializers.Serializer):
    """A finished event's final places and prizes."""

    event = serializers.IntegerField()
    places = FinalRowSerializer(many=True)
    pool = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid_entries = serializers.IntegerField()
    paid_out = serializers.DecimalField(max_digits=12, decimal_places=2)
    remainder = serializers.DecimalField(max_digits=12, decimal_places=2)
    prize_unit = serializers.IntegerField()
    side_pools = SidePoolSheetSerializer(many=True)


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

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "round_list", "draw", "final", "analysis"]
        read_only_fields = fields

    @extend_schema_field(PrTableSerializer)
    def get_analysis(self, event: Event) -> dict[str, Any]:
        return pr_summary(_reader(self), event=event)

    @extend_schema_field(FinalSheetSerializer(allow_null=True))
    def get_final(self, event: Event) -> dict[str, Any] | None:
        from tournament.selectors.final_places import event_final

        sheet = event_final(event)
        if sheet is None:
            return None
        return FinalSheetSerializer(final_sheet_data(sheet)).data  # type: ignore[return-value]

    @extend_schema_field(RoundSerializer(many=True))
    def get_round_list(self, event: Event) -> list[dict[str, Any]]:
        return RoundSerializer(event.rounds.all(), many=True).data  # type: ignore[return-value]

    @extend_schema_field(DrawSerializer(allow_null=True))
    def get_draw(self, event: Event) -> dict[str, Any] | None:
        draws = getattr(event, "last_draws", None)
        if draws is None:
            draws = list(event.draws.order_by("-created_at")[:1])
        return DrawSerializer(draws[0]).data if draws else None  # type: ignore[return-value]


class DrawCreateSerializer(serializers.Serializer):
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


# ---- entries -------------------------------------------------------------------------


class EntrySerializer(serializers.ModelSerializer):
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
        positions = self.context.get("waiting")
        if positions is not None:
            return positions.get(entry.pk)  # type: ignore[no-any-return]
        from tournament.services.waiting_list import waiting_position

        return waiting_position(entry)

    def get_link_key(self, entry: Entry) -> str | None:
        return self.context.get("link_keys", {}).get(entry.player_id)

    def get_link(self, entry: Entry) -> str | None:
        key = self.get_link_key(entry)
        if key is None:
            return None
        return self.context["request"].build_absolute_uri(reverse("matches:entry", args=[key]))


class EntryCreateSerializer(serializers.Serializer):
    player = IdField(help_text="The player's id.")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100_000)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


# ---- matches -------------------------------------------------------------------------


# The match's own shapes are the matches app's (``matches.api.shapes``), imported above.


class ForfeitSerializer(serializers.Serializer):
    winner = IdField(help_text="The winning player's id.")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class PenaltySerializer(serializers.Serializer):
    player = IdField(help_text="The late player's id.")
    points = serializers.IntegerField(min_value=1, max_value=99)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class MatchTableSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1,
        max_value=999,
        allow_null=True,
        help_text="The table (board) to play the match at; null takes it off its table.",
    )


class CorrectSerializer(serializers.Serializer):
    """``POST /api/matches/{id}/correct/``: the decided match's real winner, and its score.

    Without ``score`` a played or score-only result's score is swapped (the new winner
    gets the points the old winner had); with it, the new winner must be the player who
    reached the match length (400 ``winner-score-mismatch`` otherwise), and the result
    becomes score-only.
    """

    winner = IdField(help_text="The player who really won.")
    score = final_score_field(
        required=False,
        help_text="The real final score [player1, player2], if not the recorded one swapped.",
    )
    confirm = confirm_field()
    cascade = serializers.BooleanField(
        default=False,
        help_text="Also void and reopen later matches that have started.",
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


# ---- brackets and standings ----------------------------------------------------------


class BracketRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="round.pk")
    number = serializers.IntegerField(source="round.number")
    name = serializers.CharField(source="round.name")
    match_length = serializers.IntegerField(source="round.match_length")
    status = serializers.CharField(source="round.status")
    matches = MatchSerializer(many=True)


class BracketPartSerializer(serializers.Serializer):
    bracket = serializers.ChoiceField(choices=Round.Bracket.choices)
    rounds = BracketRoundSerializer(many=True)


class FedEventSerializer(serializers.Serializer):
    event = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    rounds = serializers.ListField(child=serializers.IntegerField(), source="feed_rounds")


class BracketSerializer(serializers.Serializer):
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


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk")
    player = serializers.IntegerField(source="entry.player_id")
    name = serializers.CharField(source="entry.player.name")
    status = serializers.CharField(source="entry.status")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    columns = serializers.DictField(child=serializers.FloatField())


class StandingsSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class DrawResultSerializer(serializers.Serializer):
    draw = DrawSerializer()
    round = RoundSerializer(allow_null=True)
    matches = MatchSerializer(many=True)


class SignupSerializer(serializers.Serializer):
    """A player's own sign-up (as the public form)."""

    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(max_length=254)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")


class SignedUpSerializer(serializers.Serializer):
    """A sign-up taken: the entry's status, its waiting-list place and the private link."""

    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    waiting_position = serializers.IntegerField(allow_null=True)
    link = serializers.URLField(help_text="The player's private link (also emailed).")
    link_key = serializers.CharField()


class EntriesPickSerializer(serializers.Serializer):
    entries = serializers.ListField(child=IdField(), min_length=1, max_length=10_000)


class EntriesPaidSerializer(EntriesPickSerializer):
    paid = serializers.ChoiceField(
        choices=[("", "Unpaid"), *Entry.Payment.choices],
        allow_blank=True,
        help_text='How they paid; `""` marks them unpaid.',
    )


class CountSerializer(serializers.Serializer):
    changed = serializers.IntegerField()


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
