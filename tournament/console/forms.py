"""The console's forms: they parse and check the shape of what a director typed, nothing more.

Business rules (may this event be drawn, is this score a finished match...) belong to
the services, whose refusals the views show next to the field they name.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable, Mapping
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from matches.models import Game, Match
from tournament.models import Entry, Event, Player, Round, Tournament
from tournament.selectors import DEFAULT_TIEBREAKS, TIEBREAKS

MAX_CSV_BYTES = 1_000_000


class IntListField(forms.CharField):
    """A comma- or space-separated list of whole numbers, e.g. ``11, 11, 13, 17``."""

    def __init__(self, *, minimum: int = 1, **kwargs: Any) -> None:
        self.minimum = minimum
        kwargs.setdefault("max_length", 200)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value

    def clean(self, value: Any) -> list[int]:
        text = super().clean(value)
        if not text:
            return []
        numbers = []
        for part in re.split(r"[\s,;]+", text.strip()):
            if not part:
                continue
            if not part.isdigit():
                raise ValidationError(f"“{part}” is not a whole number.", code="invalid")
            number = int(part)
            if number < self.minimum:
                raise ValidationError(f"Each number must be at least {self.minimum}.", code="min")
            numbers.append(number)
        return numbers


class NumberListField(forms.CharField):
    """A comma- or space-separated list of numbers of 0 or more, e.g. ``50, 30, 12.5``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 200)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(f"{v:g}" for v in value)
        return value

    def clean(self, value: Any) -> list[float | int]:
        text = super().clean(value)
        numbers: list[float | int] = []
        for part in re.split(r"[\s,;]+", (text or "").strip()):
            if not part:
                continue
            try:
                number = float(part)
            except ValueError:
                raise ValidationError(f"“{part}” is not a number.", code="invalid") from None
            if not number >= 0 or number == float("inf"):
                raise ValidationError("Each number must be 0 or more.", code="min")
            numbers.append(int(number) if number.is_integer() else number)
        return numbers


class TiebreaksField(forms.CharField):
    """Tie-break names in order, comma-separated, e.g. ``wins, head_to_head``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 200)
        kwargs.setdefault(
            "help_text",
            "In order; blank takes the default. Known: "
            + ", ".join(f"{name} ({label})" for name, label in TIEBREAKS.items())
            + ".",
        )
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value)
        names = [part for part in re.split(r"[\s,;]+", (text or "").strip()) if part]
        unknown = [name for name in names if name not in TIEBREAKS]
        if unknown:
            raise ValidationError(f"Unknown tie-break(s): {', '.join(unknown)}.", code="invalid")
        if len(set(names)) != len(names):
            raise ValidationError("A tie-break is named twice.", code="invalid")
        return names


class DateInput(forms.DateInput):
    """A browser date picker: its value is an ISO date whatever the locale."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


def _time_zones() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class LockedBoundField(forms.BoundField):
    """A locked field shows (and its hidden input carries) the current value, even when a
    refused new one was posted: sending the page again then changes nothing locked."""

    def value(self) -> Any:
        return self.field.prepare_value(self.initial)


class LockedFieldsForm(forms.Form):
    """A settings form some of whose fields can no longer change.

    ``locked`` maps a field's name to the reason. A locked field is shown disabled
    with the reason as its help, and its current value travels in a hidden input
    (``_fields.html``), so the services see it unchanged; a changed value sent anyway
    is refused next to the field (by ``clean_<field>`` or the service), never dropped.
    """

    def __init__(self, *args: Any, locked: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.locked = {
            name: reason for name, reason in (locked or {}).items() if name in self.fields
        }
        for name, reason in self.locked.items():
            field = self.fields[name]
            field.help_text = f"Locked: {reason}"
            field.widget.attrs["disabled"] = True
            field.required = False
            field.get_bound_field = (  # type: ignore[method-assign]
                lambda form, name, field=field: LockedBoundField(form, field, name)  # type: ignore[misc]
            )

    def locked_value_error(self, name: str, value: Any) -> None:
        """Refuse a new ``value`` for the locked field ``name`` (one the form itself holds)."""
        current = self.initial.get(name)
        if name in self.locked and value not in ("", None, current):
            raise ValidationError(
                f"This cannot change: {self.locked[name]} It stays {current!r}.", code="locked"
            )


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=160)
    slug = forms.SlugField(
        required=False, help_text="The address of its public pages; blank derives it from the name."
    )
    starts_on = forms.DateField(required=False, widget=DateInput)
    ends_on = forms.DateField(required=False, widget=DateInput)
    venue = forms.CharField(max_length=200, required=False)
    time_zone = forms.ChoiceField(
        choices=_time_zones,
        required=False,
        initial="UTC",
        help_text="Round start times and deadlines are shown in it.",
    )
    is_public = forms.BooleanField(
        required=False, initial=True, label="Public", help_text="Listed on the public pages."
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", "The last day cannot be before the first.")
        return data


class EventForm(forms.Form):
    """An event's settings as the director types them; ``clean`` shapes the clock per round."""

    name = forms.CharField(max_length=120)
    slug = forms.SlugField(required=False, help_text="Blank derives it from the name.")
    kind = forms.ChoiceField(
        choices=[("", "From the format and feed"), *Event.Kind.choices],
        required=False,
        help_text="Main, Consolation (fed by a Main), Last Chance or a side event.",
    )
    format = forms.ChoiceField(
        choices=Event.Format.choices, initial=Event.Format.SINGLE_ELIMINATION
    )
    match_lengths = IntListField(
        initial="7",
        label="Match length per round",
        help_text="Points per round, first round first; the last one repeats, e.g. 11, 11, 13, 17.",
    )
    crawford = forms.BooleanField(required=False, initial=True, label="Crawford rule")
    holland = forms.BooleanField(required=False, initial=False, label="Holland rule")
    feeds_from = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        required=False,
        empty_label="None (not a Consolation)",
        label="Fed by the losers of",
        help_text="For a Consolation: the event whose early losers enter it.",
    )
    feed_rounds = IntListField(
        required=False,
        label="Feeding rounds",
        help_text="Rounds of that event whose losers enter, e.g. 1, 2.",
    )
    rounds_planned = forms.IntegerField(
        required=False, min_value=1, max_value=50, label="Rounds (Swiss)"
    )
    clock_reserve = IntListField(
        required=False,
        minimum=0,
        label="Clock: reserve minutes per point",
        help_text="Per round, the last repeats; blank plays without clocks.",
    )
    clock_delay = IntListField(
        required=False,
        minimum=0,
        label="Clock: delay seconds",
        help_text="Per round, the last repeats.",
    )
    entry_fee = forms.DecimalField(required=False, min_value=0, max_digits=9, decimal_places=2)
    payout_split = NumberListField(
        required=False,
        label="Payout split (%)",
        help_text="Percent of the pool by place, e.g. 50, 30, 20.",
    )
    tiebreaks = TiebreaksField(required=False, label="Tie-breaks (Swiss, round robin)")
    start_matches = forms.ChoiceField(
        choices=Event.StartMatches.choices,
        required=False,
        # A new event opens each match as soon as both players are known, as backgammon
        # weekends do; a post without the field (a script) keeps the stored setting, or
        # by round for a new event.
        initial=Event.StartMatches.AUTO,
        widget=forms.RadioSelect,
        label="Start matches",
        help_text="By round: nothing is played until you press Start on the event page, "
        "Consolation rounds too.",
    )
    deadline_rule = forms.ChoiceField(
        choices=Event.DeadlineRule.choices,
        required=False,
        initial=Event.DeadlineRule.FLAG,
        label="At a round's deadline",
        help_text="What happens to a match nobody reported.",
    )

    #: The fields in the fieldsets of the create and settings pages.
    GROUPS = {
        "event": ("name", "slug", "kind", "format"),
        "matches": (
            "start_matches",
            "match_lengths",
            "crawford",
            "holland",
            "rounds_planned",
            "tiebreaks",
        ),
        "feed": ("feeds_from", "feed_rounds"),
        "clock": ("clock_reserve", "clock_delay", "deadline_rule"),
        "money": ("entry_fee", "payout_split"),
    }

    def __init__(self, *args: Any, feeds: QuerySet[Event] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if feeds is not None:
            cast(forms.ModelChoiceField, self.fields["feeds_from"]).queryset = feeds

    def groups(self) -> dict[str, list[forms.BoundField]]:
        """The bound fields of each fieldset, by group name."""
        return {group: [self[name] for name in names] for group, names in self.GROUPS.items()}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        reserve: list[int] = data.get("clock_reserve") or []
        delay: list[int] = data.get("clock_delay") or []
        if delay and not reserve:
            self.add_error("clock_reserve", "Give the reserve minutes as well as the delay.")
        rounds = max(len(reserve), len(delay))
        data["clock"] = [
            {
                "reserve_minutes_per_point": reserve[min(i, len(reserve) - 1)],
                "delay_seconds": delay[min(i, len(delay) - 1)] if delay else 0,
            }
            for i in range(rounds)
            if reserve
        ]
        if data.get("feed_rounds") and not data.get("feeds_from"):
            self.add_error("feeds_from", "Choose the event whose losers feed this one.")
        data["deadline_rule"] = data.get("deadline_rule") or Event.DeadlineRule.FLAG
        return data


class TournamentSettingsForm(LockedFieldsForm, TournamentForm):
    """A tournament's details after its creation; its slug stays (links are out)."""

    SLUG_REASON = "It is the address of the public pages: links already shared would break."

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        initial = {
            "name": tournament.name,
            "slug": tournament.slug,
            "starts_on": tournament.starts_on,
            "ends_on": tournament.ends_on,
            "venue": tournament.venue,
            "time_zone": tournament.time_zone,
            "is_public": tournament.is_public,
        }
        super().__init__(*args, initial=initial, locked={"slug": self.SLUG_REASON}, **kwargs)

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        self.locked_value_error("slug", slug)
        return self.initial["slug"]  # type: ignore[no-any-return]


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: The event form's fields holding each model field (the clock is two of them).
EVENT_FORM_FIELDS: dict[str, tuple[str, ...]] = {
    "clock": ("clock_reserve", "clock_delay"),
}


class EventSettingsForm(LockedFieldsForm, EventForm):
    """An event's settings after its creation; ``locked`` (by model field) says which stay."""

    SLUG_REASON = "It is the address of the event's pages and printed sheets."

    def __init__(
        self, *args: Any, event: Event, locked: Mapping[str, str] | None = None, **kwargs: Any
    ) -> None:
        clock = list(event.clock or [])
        initial = {
            "name": event.name,
            "slug": event.slug,
            "kind": event.kind,
            "format": event.format,
            "match_lengths": list(event.match_lengths or []),
            "crawford": event.crawford,
            "holland": event.holland,
            "feeds_from": event.feeds_from_id,
            "feed_rounds": list(event.feed_rounds or []),
            "rounds_planned": event.rounds_planned,
            "clock_reserve": [_whole(c.get("reserve_minutes_per_point", 0)) for c in clock],
            "clock_delay": [_whole(c.get("delay_seconds", 0)) for c in clock],
            "entry_fee": event.entry_fee,
            "payout_split": list(event.payout_split or []),
            "tiebreaks": list(event.tiebreaks or DEFAULT_TIEBREAKS),
            "deadline_rule": event.deadline_rule,
            "start_matches": event.start_matches,
        }
        by_form_field = {"slug": self.SLUG_REASON}
        for name, reason in (locked or {}).items():
            for form_field in EVENT_FORM_FIELDS.get(name, (name,)):
                by_form_field[form_field] = reason
        super().__init__(*args, initial=initial, locked=by_form_field, **kwargs)
        cast(forms.ChoiceField, self.fields["kind"]).choices = Event.Kind.choices

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        self.locked_value_error("slug", slug)
        return self.initial["slug"]  # type: ignore[no-any-return]

    def field_for(self, name: str | None) -> str | None:
        """The form field a service's refusal about ``name`` belongs to (None: the form)."""
        name = {"rounds": "rounds_planned", "feeds": "feeds_from"}.get(name or "", name)
        name = EVENT_FORM_FIELDS.get(name or "", (name,))[0]
        return name if name in self.fields else None


class PlayersCsvForm(forms.Form):
    """A CSV of players (name, email, rating, club), uploaded or pasted, and where to enter them."""

    file = forms.FileField(required=False, label="CSV file")
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        label="…or paste the CSV",
        help_text="A header row name,email,rating,club (country too); email, rating and club "
        "may be empty. Fix any line here and preview again.",
    )
    event = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        required=False,
        label="Enter them in",
        empty_label="No event (players only)",
    )

    def __init__(self, *args: Any, events: QuerySet[Event] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if events is not None:
            cast(forms.ModelChoiceField, self.fields["event"]).queryset = events

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_CSV_BYTES:
                self.add_error("file", "The file is over 1 MB; split it.")
                return data
            raw = upload.read()
            try:
                data["csv_text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", "The file is not UTF-8 text; save it as CSV UTF-8.")
                return data
        else:
            data["csv_text"] = data.get("text") or ""
        if not data["csv_text"].strip() and not self.errors:
            self.add_error("text", "Upload a CSV file or paste its text.")
        return data


class RegisterForm(forms.Form):
    """Enter an existing player of the tournament, or a new one, in an event."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label="A player of this tournament",
        empty_label="—",
    )
    name = forms.CharField(max_length=120, required=False, label="…or a new player")
    email = forms.EmailField(required=False)
    rating = forms.FloatField(required=False, min_value=1)
    club = forms.CharField(max_length=120, required=False)
    seed = forms.IntegerField(required=False, min_value=1)
    confirm_new = forms.BooleanField(
        required=False,
        label="Yes, this is a new player",
        help_text="Only when a player of the same name already exists and this is someone else.",
    )

    def __init__(self, *args: Any, players: QuerySet[Player] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if players is not None:
            cast(forms.ModelChoiceField, self.fields["player"]).queryset = players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not data.get("name"):
            self.add_error("name", "Choose a player or type a new player's name.")
        if data.get("player") and data.get("name"):
            self.add_error("name", "Either choose a player or type a new one, not both.")
        return data


class AskToConfirm(forms.Form):
    """A hidden tick box, ``confirm_field``, that a refusal the director may overrule
    brings into sight (``call_service`` calls ``ask_to_confirm`` for those refusals)."""

    confirm_field = "confirm"
    confirm_label = ""
    confirm_help = ""

    def ask_to_confirm(self) -> None:
        """Show the tick box with its label."""
        field = self.fields[self.confirm_field]
        field.widget = forms.CheckboxInput()
        field.label = self.confirm_label
        field.help_text = self.confirm_help
        # shown with its new widget and label (Django's private cache, not in the stubs)
        self._bound_fields_cache.pop(self.confirm_field, None)  # type: ignore[attr-defined]


class PlayerEditForm(AskToConfirm):
    """A player's name, email, club and country, to correct; the rating is computed.

    ``confirm_new`` stays hidden until the service warns that another player has the
    new name (``ask_to_confirm``), as the score forms ask about an unlikely score.
    """

    name = forms.CharField(max_length=120)
    email = forms.EmailField(
        required=False, help_text="Where their private link goes when you email it."
    )
    club = forms.CharField(max_length=120, required=False)
    country = forms.CharField(
        max_length=2, required=False, help_text="Two-letter ISO code, e.g. NO or DE."
    )
    confirm_new = forms.BooleanField(required=False, widget=forms.HiddenInput)
    confirm_field = "confirm_new"
    confirm_label = "Yes, this is another person of that name"
    confirm_help = "Tick it if they are different people, and save again."

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        kwargs["initial"] = {
            "name": player.name,
            "email": player.email,
            "club": player.club,
            "country": player.country,
        }
        super().__init__(*args, **kwargs)
        if self.is_bound and self.fields["confirm_new"].clean(self.data.get("confirm_new")):
            self.ask_to_confirm()  # ticked once: stays in sight, never silently kept


class DrawForm(forms.Form):
    """How to draw: at random (seed shown and kept), by rating, or in the order typed."""

    METHODS = [
        ("random", "Random (the seed is kept in the public draw log)"),
        ("rating", "By rating (highest first)"),
        ("manual", "By hand, in the order below"),
    ]
    method = forms.ChoiceField(choices=METHODS, widget=forms.RadioSelect, initial="random")
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62,
        label="Random seed",
        help_text="Blank picks one; give one to repeat a draw.",
    )
    order = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label="Order (by hand)",
        help_text="One line per player, seed 1 first; each line starts with the player number.",
    )

    def __init__(self, *args: Any, entries: Iterable[Entry] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player_ids = {entry.player_id for entry in entries}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("method") != "manual":
            data["order_ids"] = None
            return data
        ids: list[int] = []
        for number, line in enumerate((data.get("order") or "").splitlines(), start=1):
            if not line.strip():
                continue
            found = re.match(r"\s*#?(\d+)", line)
            if found is None:
                self.add_error("order", f"Line {number} does not start with a player number.")
                return data
            player_id = int(found.group(1))
            if player_id not in self.player_ids:
                self.add_error("order", f"Line {number}: player {player_id} is not entered here.")
                return data
            if player_id in ids:
                self.add_error("order", f"Line {number}: player {player_id} is listed twice.")
                return data
            ids.append(player_id)
        if not ids:
            self.add_error("order", "List the players in the order of the draw.")
        data["order_ids"] = ids
        return data


class MatchLengthsForm(forms.Form):
    """The event's match length per round; rounds not started yet take the new lengths."""

    match_lengths = IntListField(
        label="Match length per round",
        help_text="First round first; the last one repeats. Started rounds keep theirs.",
    )


def _side_choices(match: Match) -> list[tuple[str, str]]:
    return [
        (str(entry.pk), entry.player.name)
        for entry in (match.entry1, match.entry2)
        if entry is not None
    ]


class SideForm(forms.Form):
    """A form that names one of the match's two entries."""

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match

    def entry_for(self, value: str) -> Entry:
        """The match's entry whose id is ``value``."""
        for entry in (self.match.entry1, self.match.entry2):
            if entry is not None and str(entry.pk) == value:
                return entry
        raise ValidationError("Choose one of the two players.")


class ConfirmScoreMixin(AskToConfirm):
    """A tick box to confirm an unlikely final score, shown once the score was warned about."""

    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
    confirm_label = "Confirm this unlikely score"
    confirm_help = "Tick it if the score is right, and save again."


class FinalScoreForm(ConfirmScoreMixin, SideForm):
    """The match's final score alone ("score only"), entered or corrected by the director."""

    field_order = ["score1", "score2", "confirm", "reason", "cascade"]

    score1 = forms.IntegerField(min_value=0, max_value=999)
    score2 = forms.IntegerField(min_value=0, max_value=999)
    reason = forms.CharField(max_length=300, required=False, label="Note")
    cascade = forms.BooleanField(
        required=False,
        label="Cascade",
        help_text="If the winner changes: also reset the later matches already played.",
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        if match.entry1 is not None:
            self.fields["score1"].label = match.entry1.player.name
        if match.entry2 is not None:
            self.fields["score2"].label = match.entry2.player.name
        if match.status != Match.Status.COMPLETE:
            del self.fields["cascade"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data.setdefault("cascade", False)
        return data


class ForfeitForm(SideForm):
    """A forfeit (a player did not play) or a walkover (the opponent never came)."""

    winner = forms.ChoiceField(widget=forms.RadioSelect)
    decision = forms.ChoiceField(
        choices=[(Match.Decision.FORFEIT, "Forfeit"), (Match.Decision.WALKOVER, "Walkover")],
        widget=forms.RadioSelect,
        initial=Match.Decision.FORFEIT,
    )
    reason = forms.CharField(max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = _side_choices(match)

    def clean_winner(self) -> Entry:
        return self.entry_for(self.cleaned_data["winner"])


class PenaltyForm(SideForm):
    """Late-arrival penalty points: the late player's opponent starts with them."""

    late = forms.ChoiceField(widget=forms.RadioSelect, label="Late player")
    points = forms.IntegerField(min_value=1, max_value=99, label="Penalty points")
    reason = forms.CharField(max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        cast(forms.ChoiceField, self.fields["late"]).choices = _side_choices(match)

    def clean_late(self) -> Entry:
        return self.entry_for(self.cleaned_data["late"])


class CorrectionForm(ConfirmScoreMixin, SideForm):
    """Change a decided match's winner; ``cascade`` also undoes the next rounds' results.

    The score changes with the winner: swapped (the new winner gets the old winner's
    points) unless the director gives the final score.
    """

    field_order = ["winner", "score1", "score2", "confirm", "cascade", "reason"]

    winner = forms.ChoiceField(widget=forms.RadioSelect, label="Correct winner")
    score1 = forms.IntegerField(min_value=0, max_value=999, required=False)
    score2 = forms.IntegerField(min_value=0, max_value=999, required=False)
    cascade = forms.BooleanField(
        required=False,
        label="Cascade",
        help_text="Also reset the later matches this winner already played.",
    )
    reason = forms.CharField(max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, match=match, **kwargs)
        cast(forms.ChoiceField, self.fields["winner"]).choices = _side_choices(match)
        for name, entry in (("score1", match.entry1), ("score2", match.entry2)):
            player = entry.player.name if entry is not None else name
            self.fields[name].label = f"Final score of {player}"
        self.fields["score1"].help_text = "Leave both empty to swap the recorded score."

    def clean_winner(self) -> Entry:
        return self.entry_for(self.cleaned_data["winner"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        s1, s2 = data.get("score1"), data.get("score2")
        if (s1 is None) != (s2 is None):
            self.add_error("score2" if s2 is None else "score1", "Give both scores, or neither.")
        data["score"] = None if s1 is None or s2 is None else (s1, s2)
        return data


class TableForm(forms.Form):
    """The table (board) a match is played at; blank takes it off its table."""

    table = forms.IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        label="Table",
        help_text="Leave blank to take the match off its table.",
    )


class GridFilterForm(forms.Form):
    """The match grid's filters (GET)."""

    status = forms.ChoiceField(
        choices=[("", "Every state"), *Match.Status.choices], required=False, label="State"
    )
    round = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    byes = forms.BooleanField(required=False, label="Show byes")

    def __init__(self, *args: Any, rounds: Iterable[Round] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["round"]).choices = [
            ("", "Every round"),
            *(
                (
                    str(r.pk),
                    ("" if r.bracket == Round.Bracket.MAIN else f"{r.get_bracket_display()} · ")
                    + f"R{r.number} · {r}",
                )
                for r in rounds
            ),
        ]


class GameRowForm(forms.Form):
    """One game of a match entered game by game; a row without a winner is left out."""

    winner = forms.ChoiceField(required=False, label="Winner")
    cube = forms.TypedChoiceField(
        choices=[(str(2**k), str(2**k)) for k in range(7)], coerce=int, initial="1", label="Cube"
    )
    result = forms.ChoiceField(choices=Game.Result.choices, initial=Game.Result.SINGLE)
    ended_by = forms.ChoiceField(choices=Game.EndedBy.choices, initial=Game.EndedBy.PLAY)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [e.player.name if e is not None else "?" for e in (match.entry1, match.entry2)]
        cast(forms.ChoiceField, self.fields["winner"]).choices = [
            ("", "—"),
            ("1", names[0]),
            ("2", names[1]),
        ]


class BaseGamesFormSet(forms.BaseFormSet):
    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        self.match = match
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "match": self.match}

    def played(self) -> list[dict[str, Any]]:
        """The rows with a winner, in order."""
        return [f.cleaned_data for f in self.forms if f.cleaned_data.get("winner")]

    def clean(self) -> None:
        if any(self.errors):
            return
        rows = [bool(f.cleaned_data.get("winner")) for f in self.forms]
        if not any(rows):
            raise ValidationError("Enter at least one game.")
        last = max(i for i, filled in enumerate(rows) if filled)
        if not all(rows[: last + 1]):
            raise ValidationError("Leave no empty row between games.")


def games_formset(match: Match, data: Any = None) -> BaseGamesFormSet:
    """Rows for every game the match could take (twice its length less one, 25 at most)."""
    rows = min(max(2 * match.length - 1, 1), 25)
    formset_class = cast(
        type[BaseGamesFormSet],
        forms.formset_factory(
            GameRowForm, formset=BaseGamesFormSet, extra=rows, max_num=rows, absolute_max=rows
        ),
    )
    return formset_class(data, match=match, prefix="games")


class DirectorAddForm(forms.Form):
    """Who to make a director: an existing account, or the username of a new one."""

    username = forms.CharField(
        label="Username or email",
        max_length=254,
        help_text="An account's username or email address; a new username makes a new account.",
    )
    email = forms.EmailField(
        label="Email (new account only)",
        required=False,
        max_length=254,
        help_text="The set-password link is emailed here.",
    )


class ConfirmForm(forms.Form):
    """A confirmation button's form: no field, only the refusal of the service it runs."""
