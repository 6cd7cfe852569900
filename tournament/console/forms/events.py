"""Tournaments and events: creation, settings (locked once the draw fixes them), the draw, match lengths."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable, Mapping
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from tournament.console.forms.fields import (
    AmountField,
    DateInput,
    IntListField,
    LockedFieldsForm,
    NumberListField,
    TiebreaksField,
)
from tournament.models import Entry, Event, Tournament
from tournament.selectors import DEFAULT_TIEBREAKS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _time_zones() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    slug = forms.SlugField(
        label=_("Address (slug)"),
        required=False,
        help_text=_("The address of its public pages; blank derives it from the name."),
    )
    starts_on = forms.DateField(label=_("Starts on"), required=False, widget=DateInput)
    ends_on = forms.DateField(label=_("Ends on"), required=False, widget=DateInput)
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=_time_zones,
        required=False,
        initial="UTC",
        help_text=_("Round start times and deadlines are shown in it."),
    )
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        initial="en",
        required=False,
        label=_("Language"),
        help_text=_(
            "The pages' language for visitors whose browser asks for none of the site's, "
            "the print sheets' and slips', and the emails' to players who signed up in no "
            "language of their own."
        ),
    )
    currency = forms.CharField(
        label=_("Currency"),
        max_length=3,
        required=False,
        widget=forms.TextInput(attrs={"size": 4, "autocapitalize": "characters"}),
        help_text=_("ISO code, e.g. EUR; blank shows amounts without a currency."),
    )
    is_public = forms.BooleanField(
        required=False, initial=True, label=_("Public"), help_text=_("Listed on the public pages.")
    )
    analysis_enabled = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Analyse match files"),
        help_text=_(
            "GNU Backgammon analyses every uploaded match file: each "
            "player's error rate, luck and gnubg PR (unofficial)."
        ),
    )
    analysis_plies = forms.TypedChoiceField(
        choices=[
            (2, _("2 plies (gnubg's default, about 25 s a 7-point match)")),
            (0, _("0 plies (quick)")),
        ],
        coerce=int,
        initial=2,
        required=False,
        empty_value=None,
        label=_("Analysis depth"),
    )
    analysis_public = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Figures public during the event"),
        help_text=_("Off: players see the figures once the event is finished (directors always)."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("analysis_plies") is None:  # not sent: as it was (2 for a new tournament)
            data["analysis_plies"] = self.initial.get("analysis_plies", 2)
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The last day cannot be before the first."))
        return data


def name_the_currency(form: forms.Form, amounts: Iterable[str], currency: str) -> None:
    """Label ``form``'s ``amounts`` fields with the tournament's currency, when it has one:
    "Entry fee (DKK)"."""
    for name in amounts if currency else ():
        if field := form.fields.get(name):
            field.label = pgettext("an amount's label", "{field} ({currency})").format(
                field=field.label, currency=currency
            )


class EventForm(forms.Form):
    """An event's settings as the director types them; ``clean`` shapes the clock per round."""

    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address (slug)"), required=False, help_text=_("Blank derives it from the name.")
    )
    kind = forms.ChoiceField(
        label=_("Kind"),
        choices=[("", _("From the format and feed")), *Event.Kind.choices],
        required=False,
        help_text=_("Main, Consolation (fed by a Main), Last Chance or a side event."),
    )
    format = forms.ChoiceField(
        label=_("Format"), choices=Event.Format.choices, initial=Event.Format.SINGLE_ELIMINATION
    )
    match_lengths = IntListField(
        initial="7",
        label=_("Match length per round"),
        help_text=_(
            "Points per round, first round first; the last one repeats, e.g. 11, 11, 13, 17."
        ),
    )
    crawford = forms.BooleanField(required=False, initial=True, label=_("Crawford rule"))
    holland = forms.BooleanField(required=False, initial=False, label=_("Holland rule"))
    feeds_from = forms.ModelChoiceField(
        queryset=Event.objects.none(),
        required=False,
        empty_label=_("None (not a Consolation)"),
        label=_("Fed by the losers of"),
        help_text=_("For a Consolation: the event whose early losers enter it."),
    )
    feed_rounds = IntListField(
        required=False,
        label=_("Feeding rounds"),
        help_text=_("Rounds of that event whose losers enter, e.g. 1, 2."),
    )
    rounds_planned = forms.IntegerField(
        required=False, min_value=1, max_value=50, label=_("Rounds (Swiss)")
    )
    clock_reserve = IntListField(
        required=False,
        minimum=0,
        label=_("Clock: reserve minutes per point"),
        help_text=_("Per round, the last repeats; blank plays without clocks."),
    )
    clock_delay = IntListField(
        required=False,
        minimum=0,
        label=_("Clock: delay seconds"),
        help_text=_("Per round, the last repeats."),
    )
    entry_fee = AmountField(label=_("Entry fee"), required=False, min_value=0)
    payout_split = NumberListField(
        required=False,
        label=_("Payout split (%)"),
        help_text=_("Percent of the pool by place, e.g. 50, 30, 20."),
    )
    tiebreaks = TiebreaksField(required=False, label=_("Tie-breaks (Swiss, round robin)"))
    losses_to_eliminate = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=6,
        initial=3,
        label=_("Out at this many losses (Swiss elimination)"),
        help_text=_("2 to 6 (3: triple elimination); a bye counts as a win."),
    )
    places_paid = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1000,
        label=_("Places paid (Swiss elimination)"),
        help_text=_("The room board counts the players cashing; blank: not counted."),
    )
    playoff_switch = forms.BooleanField(
        required=False,
        label=_("Playoff switch"),
        help_text=_("End when no more players are alive than places paid; they share by record."),
    )
    last_loss_cashes = forms.BooleanField(
        required=False,
        label=_("Players on their last loss can still cash"),
        help_text=_(
            "The players out in the round the field drops to the places paid share the paid "
            "places left equally, whatever their records (without it a better record, say of "
            "a player who withdrew, comes first)."
        ),
    )
    three_player_playoff = forms.BooleanField(
        required=False,
        initial=False,
        label=_("Three-player playoff"),
        help_text=_(
            "Three players left alive with identical records: the first two seeds play, the "
            "loser meets the third, the two winners meet in the final."
        ),
    )
    wisconsin_after_rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=50,
        label=_("Wisconsin ending after this many rounds"),
        help_text=_(
            "Then the players alive play a knockout seeded by losses (byes to the top "
            "seeds); blank: no knockout."
        ),
    )
    avoid_same_club_first_round = forms.BooleanField(
        required=False,
        label=_("Keep clubs apart in round 1"),
        help_text=_(
            "Round 1 avoids pairing two players of the same club where it can: Swiss events "
            "pair it so, a bracket's draw swaps seeds, a round robin plays first its round "
            "with fewest such pairs."
        ),
    )
    start_matches = forms.ChoiceField(
        choices=Event.StartMatches.choices,
        required=False,
        # A new event opens each match as soon as both players are known, as backgammon
        # weekends do; a post without the field (a script) keeps the stored setting, or
        # by round for a new event.
        initial=Event.StartMatches.AUTO,
        widget=forms.RadioSelect,
        label=_("Start matches"),
        help_text=_(
            "By round: nothing is played until you press Start on the "
            "event page, Consolation rounds too."
        ),
    )
    deadline_rule = forms.ChoiceField(
        choices=Event.DeadlineRule.choices,
        required=False,
        initial=Event.DeadlineRule.FLAG,
        label=_("At a round's deadline"),
        help_text=_("What happens to a match nobody reported."),
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
        "elimination": (
            "losses_to_eliminate",
            "places_paid",
            "playoff_switch",
            "last_loss_cashes",
            "three_player_playoff",
            "wisconsin_after_rounds",
            "avoid_same_club_first_round",
        ),
        "feed": ("feeds_from", "feed_rounds"),
        "clock": ("clock_reserve", "clock_delay", "deadline_rule"),
        "money": ("entry_fee", "payout_split"),
    }

    #: The amounts, labelled with the tournament's currency when it has one.
    AMOUNTS = ("entry_fee", "added_money")

    def __init__(
        self,
        *args: Any,
        feeds: QuerySet[Event] | None = None,
        currency: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if feeds is not None:
            cast("forms.ModelChoiceField[Event]", self.fields["feeds_from"]).queryset = feeds
        name_the_currency(self, self.AMOUNTS, currency)

    def groups(self) -> dict[str, list[forms.BoundField]]:
        """The bound fields of each fieldset, by group name."""
        return {group: [self[name] for name in names] for group, names in self.GROUPS.items()}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        reserve: list[int] = data.get("clock_reserve") or []
        delay: list[int] = data.get("clock_delay") or []
        if delay and not reserve:
            self.add_error("clock_reserve", _("Give the reserve minutes as well as the delay."))
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
            self.add_error("feeds_from", _("Choose the event whose losers feed this one."))
        data["deadline_rule"] = data.get("deadline_rule") or Event.DeadlineRule.FLAG
        return data


class TournamentSettingsForm(LockedFieldsForm, TournamentForm):
    """A tournament's details after its creation; its slug stays (links are out)."""

    SLUG_REASON = _("It is the address of the public pages: links already shared would break.")

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        initial = {
            "name": tournament.name,
            "slug": tournament.slug,
            "starts_on": tournament.starts_on,
            "ends_on": tournament.ends_on,
            "venue": tournament.venue,
            "time_zone": tournament.time_zone,
            "language": tournament.language,
            "currency": tournament.currency,
            "is_public": tournament.is_public,
            "analysis_enabled": tournament.analysis_enabled,
            "analysis_plies": tournament.analysis_plies,
            "analysis_public": tournament.analysis_public,
        }
        super().__init__(*args, initial=initial, locked={"slug": self.SLUG_REASON}, **kwargs)

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        self.locked_value_error("slug", slug)
        return cast(str, self.initial["slug"])


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

    SLUG_REASON = _("It is the address of the event's pages and printed sheets.")

    signup = forms.ChoiceField(
        choices=Event.Signup.choices,
        widget=forms.RadioSelect,
        label=_("Players' own sign-up"),
        help_text=_("On the tournament's public page; you can always enter players by hand."),
    )
    signup_deadline = forms.DateTimeField(
        required=False,
        label=_("Sign-up deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("In the tournament's time zone; blank: until the draw."),
    )
    entry_cap = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=10000,
        label=_("Entry cap"),
        help_text=_("Past it, sign-ups join a waiting list; blank: no cap."),
    )
    added_money = AmountField(required=False, min_value=0, label=_("Added money"))
    prize_unit = forms.TypedChoiceField(
        choices=[(1, "1"), (5, "5"), (10, "10")],
        coerce=int,
        initial=1,
        label=_("Round prizes down to"),
        help_text=_("What rounding leaves is stated on the final sheet."),
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
            "losses_to_eliminate": event.losses_to_eliminate,
            "places_paid": event.places_paid,
            "playoff_switch": event.playoff_switch,
            "last_loss_cashes": event.last_loss_cashes,
            "avoid_same_club_first_round": event.avoid_same_club_first_round,
            "three_player_playoff": event.three_player_playoff,
            "wisconsin_after_rounds": event.wisconsin_after_rounds,
        }
        by_form_field: dict[str, StrOrPromise] = {"slug": self.SLUG_REASON}
        for name, reason in (locked or {}).items():
            for form_field in EVENT_FORM_FIELDS.get(name, (name,)):
                by_form_field[form_field] = reason
        super().__init__(
            *args,
            initial=initial,
            locked=by_form_field,
            currency=event.tournament.currency,
            **kwargs,
        )
        cast(forms.ChoiceField, self.fields["kind"]).choices = Event.Kind.choices
        self.zone = _zone(event.tournament.time_zone)

    def clean_signup_deadline(self) -> datetime | None:
        """The deadline as typed, on the tournament's clock (the form reads it as UTC)."""
        value: datetime | None = self.cleaned_data.get("signup_deadline")
        return value.replace(tzinfo=self.zone) if value is not None else None

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        self.locked_value_error("slug", slug)
        return cast(str, self.initial["slug"])

    def field_for(self, name: str | None) -> str | None:
        """The form field a service's refusal about ``name`` belongs to (None: the form)."""
        name = {"rounds": "rounds_planned", "feeds": "feeds_from"}.get(name or "", name)
        name = EVENT_FORM_FIELDS.get(name or "", (name,))[0]
        return name if name in self.fields else None


class DrawForm(forms.Form):
    """How to draw: at random (seed shown and kept), by rating, or in the order typed."""

    METHODS = [
        ("random", _("Random (the seed is kept in the public draw log)")),
        ("rating", _("By rating (highest first)")),
        ("manual", _("By hand, in the order below")),
    ]
    method = forms.ChoiceField(
        label=_("Method"), choices=METHODS, widget=forms.RadioSelect, initial="random"
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2**62,
        label=_("Random seed"),
        help_text=_("Blank picks one; give one to repeat a draw."),
    )
    order = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label=_("Order (by hand)"),
        help_text=_("One line per player, seed 1 first; each line starts with the player's No."),
    )

    tables = forms.BooleanField(
        required=False,
        label=_("Number the tables of round 1 now"),
        help_text=_(
            "In bracket order, before anyone is told their match: the "
            "notices and the players' pages name the table."
        ),
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
                self.add_error(
                    "order",
                    _("Line {number} does not start with a player number.").format(number=number),
                )
                return data
            given = int(found.group(1))
            player_id = self.players_by_number.get(given)
            if player_id is None:
                self.add_error(
                    "order",
                    _("Line {number}: no player has No. {given} here.").format(
                        number=number, given=given
                    ),
                )
                return data
            if player_id in ids:
                self.add_error(
                    "order",
                    _("Line {number}: No. {given} is listed twice.").format(
                        number=number, given=given
                    ),
                )
                return data
            ids.append(player_id)
        if not ids:
            self.add_error("order", _("List the players in the order of the draw."))
        data["order_ids"] = ids
        return data


class MatchLengthsForm(forms.Form):
    """The event's match length per round; rounds not started yet take the new lengths."""

    match_lengths = IntListField(
        label=_("Match length per round"),
        help_text=_("First round first; the last one repeats. Started rounds keep theirs."),
    )


class SidePoolForm(forms.Form):
    """A side pool: its name, the stake each player puts in, and its split (fields named
    ``pool-…``: the event page has other forms with a ``name``)."""

    prefix = "pool"

    name = forms.CharField(max_length=60, label=_("Side pool"))
    stake = AmountField(label=_("Stake"), min_value=Decimal("0.01"))
    payout_split = NumberListField(label=_("Split (%)"), help_text=_("e.g. 70, 30"))

    def __init__(self, *args: Any, currency: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        name_the_currency(self, ("stake",), currency)
