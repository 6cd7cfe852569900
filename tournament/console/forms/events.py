"""Tournaments and events: creation, settings (locked once the draw fixes them), the draw, match lengths."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable, Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.db.models import QuerySet

from tournament.console.forms.fields import (
    DateInput,
    IntListField,
    LockedFieldsForm,
    NumberListField,
    TiebreaksField,
)
from tournament.models import Entry, Event, Tournament
from tournament.selectors import DEFAULT_TIEBREAKS


def _time_zones() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


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
    analysis_enabled = forms.BooleanField(
        required=False,
        initial=True,
        label="Analyse match files",
        help_text="GNU Backgammon analyses every uploaded match file: each player's error "
        "rate, luck and gnubg PR (unofficial).",
    )
    analysis_plies = forms.TypedChoiceField(
        choices=[
            (2, "2 plies (gnubg's default, about 25 s a 7-point match)"),
            (0, "0 plies (quick)"),
        ],
        coerce=int,
        initial=2,
        required=False,
        empty_value=None,
        label="Analysis depth",
    )
    analysis_public = forms.BooleanField(
        required=False,
        initial=True,
        label="Figures public during the event",
        help_text="Off: players see the figures once the event is finished (directors always).",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("analysis_plies") is None:  # not sent: as it was (2 for a new tournament)
            data["analysis_plies"] = self.initial.get("analysis_plies", 2)
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
            "analysis_enabled": tournament.analysis_enabled,
            "analysis_plies": tournament.analysis_plies,
            "analysis_public": tournament.analysis_public,
        }
        super().__init__(*args, initial=initial, locked={"slug": self.SLUG_REASON}, **kwargs)

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        self.locked_value_error("slug", slug)
        return self.initial["slug"]  # type: ignore[no-any-return]


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, ZoneInfoNotFoundError):
        return ZoneInfo("UTC")


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: The event form's fields holding each model field (the clock is two of them).
EVENT_FORM_FIELDS: dict[str, tuple[str, ...]] = {
    "clock": ("clock_reserve", "clock_delay"),
}


class EventSettingsForm(LockedFieldsForm, EventForm):
    """An event's settings after its creation; ``locked`` (by model field) says which stay.

    Sign-up and prize rounding are set here (after creation: the event's page exists)."""

    SLUG_REASON = "It is the address of the event's pages and printed sheets."

    signup = forms.ChoiceField(
        choices=Event.Signup.choices,
        widget=forms.RadioSelect,
        label="Players' own sign-up",
        help_text="On the tournament's public page; you can always enter players by hand.",
    )
    signup_deadline = forms.DateTimeField(
        required=False,
        label="Sign-up deadline",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="In the tournament's time zone; blank: until the draw.",
    )
    entry_cap = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=10000,
        label="Entry cap",
        help_text="Past it, sign-ups join a waiting list; blank: no cap.",
    )
    added_money = forms.DecimalField(
        required=False, min_value=0, max_digits=9, decimal_places=2, label="Added money"
    )
    prize_unit = forms.TypedChoiceField(
        choices=[(1, "1"), (5, "5"), (10, "10")],
        coerce=int,
        initial=1,
        label="Round prizes down to",
        help_text="What rounding leaves is stated on the final sheet.",
    )

    GROUPS = {
        **EventForm.GROUPS,
        "signup": ("signup", "signup_deadline", "entry_cap"),
        "money": ("entry_fee", "payout_split", "added_money", "prize_unit"),
    }

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
            "signup": event.signup,
            "signup_deadline": (
                event.signup_deadline.astimezone(_zone(event.tournament.time_zone)).replace(
                    tzinfo=None  # shown as typed, on the tournament's clock
                )
                if event.signup_deadline
                else None
            ),
            "entry_cap": event.entry_cap,
            "added_money": event.added_money,
            "prize_unit": event.prize_unit,
        }
        by_form_field = {"slug": self.SLUG_REASON}
        for name, reason in (locked or {}).items():
            for form_field in EVENT_FORM_FIELDS.get(name, (name,)):
                by_form_field[form_field] = reason
        super().__init__(*args, initial=initial, locked=by_form_field, **kwargs)
        cast(forms.ChoiceField, self.fields["kind"]).choices = Event.Kind.choices
        self.zone = _zone(event.tournament.time_zone)

    def clean_signup_deadline(self) -> datetime | None:
        """The deadline as typed, on the tournament's clock (the form reads it as UTC)."""
        value: datetime | None = self.cleaned_data.get("signup_deadline")
        return value.replace(tzinfo=self.zone) if value is not None else None

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        self.locked_value_error("slug", slug)
        return self.initial["slug"]  # type: ignore[no-any-return]

    def field_for(self, name: str | None) -> str | None:
        """The form field a service's refusal about ``name`` belongs to (None: the form)."""
        name = {"rounds": "rounds_planned", "feeds": "feeds_from"}.get(name or "", name)
        name = EVENT_FORM_FIELDS.get(name or "", (name,))[0]
        return name if name in self.fields else None


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
        help_text="One line per player, seed 1 first; each line starts with the player's No.",
    )

    tables = forms.BooleanField(
        required=False,
        label="Number the tables of round 1 now",
        help_text="In bracket order, before anyone is told their match: the notices and "
        "the players' pages name the table.",
    )

    def __init__(self, *args: Any, entries: Iterable[Entry] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ordered = sorted(entries, key=lambda e: e.pk)
        #: The entries' numbers in the event (1 for the first registered) -> player id.
        self.players_by_number = {n: e.player_id for n, e in enumerate(ordered, start=1)}

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
            given = int(found.group(1))
            player_id = self.players_by_number.get(given)
            if player_id is None:
                self.add_error("order", f"Line {number}: no player has No. {given} here.")
                return data
            if player_id in ids:
                self.add_error("order", f"Line {number}: No. {given} is listed twice.")
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


class SidePoolForm(forms.Form):
    """A side pool: its name, the stake each player puts in, and its split (fields named
    ``pool-…``: the event page has other forms with a ``name``)."""

    prefix = "pool"

    name = forms.CharField(max_length=60, label="Side pool")
    stake = forms.DecimalField(min_value=Decimal("0.01"), max_digits=9, decimal_places=2)
    payout_split = NumberListField(label="Split (%)", help_text="e.g. 70, 30")
