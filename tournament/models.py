"""Players, tournaments, events (brackets and divisions), entries, rounds and draws.

Invariants live in database constraints wherever a constraint can hold them.
Matches and their games are in the ``matches`` app.
"""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.text import text_problem

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def new_report_key() -> str:
    """A private, unguessable key for a player's report link."""
    return secrets.token_urlsafe(18)


#: The languages a person or a tournament can choose (settings.LANGUAGES); empty: none chosen.
LANGUAGE_CHOICES = settings.LANGUAGES


class User(AbstractUser):
    """The site's user: directors, players with an account, staff."""

    language = models.CharField(
        max_length=8,
        blank=True,
        choices=LANGUAGE_CHOICES,
        help_text="The site's language for this account (set by the language switcher)",
    )

    class Meta:
        db_table = "user"


def name_validate(value: str) -> None:
    """A player's name: no line breaks, bidi or other control characters (the admin's
    forms run it; the services check the same)."""
    if problem := text_problem(value):
        raise ValidationError(problem, code="invalid")


def club_validate(value: str) -> None:
    """A club, checked like a name."""
    if problem := text_problem(value, "A club"):
        raise ValidationError(problem, code="invalid")


class Player(models.Model):
    """A person who plays, with or without a user account."""

    name = models.CharField(max_length=120, validators=[name_validate])
    email = models.EmailField(blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    club = models.CharField(max_length=120, blank=True, validators=[club_validate])
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 alpha-2 code")
    rating = models.FloatField(default=1500.0)
    experience = models.PositiveIntegerField(
        default=0, help_text="Sum of the lengths of the rated matches played"
    )
    notify = models.BooleanField(default=True, help_text="Send this player email notifications")
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=LANGUAGE_CHOICES,
        help_text="The language the player signed up in: their emails are written in it "
        "(empty: the tournament's language)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The director who made the record: until a tournament holds the player, "
        "theirs (and staff's) alone",
    )

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["name"])]
        constraints = [
            models.CheckConstraint(condition=Q(rating__gt=0), name="player_rating_positive"),
            # One player per address, whatever its case: the CSV import knows a player by
            # it. Checked by the services first (``email-taken``); this holds at the
            # same instant too.
            models.UniqueConstraint(
                Lower("email"), condition=~Q(email=""), name="player_email_unique_ci"
            ),
        ]

    def __str__(self) -> str:
        return self.name


def zone_named(name: str) -> ZoneInfo:
    """The time zone called ``name``; UTC when there is none of that name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


class Series(models.Model):
    """A season of tournaments whose events award series points."""

    class Scheme(models.TextChoices):
        MASTER_POINTS = "master-points", _("Master points (USBGF-style)")
        TABLE = "table", _("Points table set by the director")

    name = models.CharField(max_length=120)
    slug = models.SlugField(unique=True)
    scheme = models.CharField(max_length=20, choices=Scheme.choices, default=Scheme.MASTER_POINTS)
    points_table = models.JSONField(
        default=list,
        blank=True,
        help_text="Points by final place (1st, 2nd, ...) for the table scheme",
    )

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """An event weekend or a league: a venue, dates, its directors and its events."""

    name = models.CharField(max_length=160)
    slug = models.SlugField(unique=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(
        max_length=8,
        default="en",
        choices=LANGUAGE_CHOICES,
        help_text="The tournament's language: its pages for visitors whose browser asks for "
        "none of the site's languages, its print sheets, and its emails to players who "
        "signed up in no language of their own",
    )
    currency = models.CharField(
        max_length=3,
        blank=True,
        help_text="The ISO 4217 code of its money (EUR, DKK, JPY...): fees, prizes and pools "
        "are shown in it, in the reader's language; blank: amounts without a currency",
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True
    )
    is_public = models.BooleanField(default=True)
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    analysis_enabled = models.BooleanField(
        default=True,
        help_text="Analyse every uploaded match file with GNU Backgammon (where it is installed)",
    )
    analysis_plies = models.PositiveSmallIntegerField(
        default=2,
        choices=[(0, _("0 plies (quick)")), (2, _("2 plies (gnubg's default)"))],
        help_text="The plies of the full analysis (a quick 0-ply pass always comes first)",
    )
    analysis_public = models.BooleanField(
        default=True,
        help_text="Everyone sees each player's analysis figures before the event ends "
        "(off: only directors until the event is finished)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True)
                | Q(starts_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="tournament_dates_ordered",
            ),
            models.CheckConstraint(
                condition=Q(analysis_plies__in=[0, 2]), name="tournament_analysis_plies"
            ),
            models.CheckConstraint(
                condition=Q(currency="") | Q(currency__regex=r"^[A-Z]{3}$"),
                name="tournament_currency_code",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        """The tournament's clock: every form reads times in it, every page, email and CSV
        shows them in it (UTC when the stored name is unknown)."""
        return zone_named(self.time_zone)


class Event(models.Model):
    """A bracket or division inside a tournament: Main, Consolation, Last Chance, Swiss..."""

    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single-elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double-elimination", _("Double elimination")
        SWISS = "swiss", _("Swiss")
        SWISS_ELIMINATION = "swiss-elimination", _("Swiss elimination")
        ROUND_ROBIN = "round-robin", _("Round robin")

    class Kind(models.TextChoices):
        MAIN = "main", _("Main")
        CONSOLATION = "consolation", _("Consolation")
        LAST_CHANCE = "last-chance", _("Last Chance")
        SIDE = "side", _("Side event")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        DRAWN = "drawn", _("Drawn")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class StartMatches(models.TextChoices):
        AUTO = "auto", _("Each match as soon as both players are known")
        BY_ROUND = "by-round", _("By round, when the director starts it")

    class Signup(models.TextChoices):
        CLOSED = "closed", _("Closed: the director enters players")
        OPEN = "open", _("Open: sign-ups are entered as they come")
        APPROVAL = "approval", _("Open: the director approves each sign-up")

    class DeadlineRule(models.TextChoices):
        FORFEIT = "forfeit", _("Forfeit the player who never reported")
        FLAG = "flag", _("Flag the match for the director")

    #: The format as it reads inside a sentence, worded by each language (German keeps
    #: its nouns capitalised): not the label lowercased.
    FORMAT_IN_TEXT: dict[str, StrOrPromise] = {
        Format.SINGLE_ELIMINATION: pgettext_lazy(
            "event format in running text", "single elimination"
        ),
        Format.DOUBLE_ELIMINATION: pgettext_lazy(
            "event format in running text", "double elimination"
        ),
        Format.SWISS: pgettext_lazy("event format in running text", "Swiss"),
        Format.SWISS_ELIMINATION: pgettext_lazy(
            "event format in running text", "Swiss elimination"
        ),
        Format.ROUND_ROBIN: pgettext_lazy("event format in running text", "round robin"),
    }

    #: The status as it reads inside a sentence, worded by each language (German keeps
    #: its nouns capitalised): not the label lowercased.
    STATUS_IN_TEXT: dict[str, StrOrPromise] = {
        Status.REGISTRATION: pgettext_lazy("event status in running text", "registration"),
        Status.DRAWN: pgettext_lazy("event status in running text", "drawn"),
        Status.RUNNING: pgettext_lazy("event status in running text", "running"),
        Status.FINISHED: pgettext_lazy("event status in running text", "finished"),
    }

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    slug = models.SlugField()
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.MAIN)
    format = models.CharField(
        max_length=24, choices=Format.choices, default=Format.SINGLE_ELIMINATION
    )
    match_lengths = models.JSONField(
        default=list, help_text="Each round's match length; the last one repeats"
    )
    crawford = models.BooleanField(default=True)
    holland = models.BooleanField(default=False)
    clock = models.JSONField(
        default=list,
        blank=True,
        help_text='Per round: {"reserve_minutes_per_point": 2, "delay_seconds": 12}; the last repeats',
    )
    entry_fee = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    payout_split = models.JSONField(
        default=list, blank=True, help_text="Percent of the pool by place"
    )
    feeds_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="feeds"
    )
    feed_rounds = models.JSONField(
        default=list, blank=True, help_text="Rounds of feeds_from whose losers enter"
    )
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    deadline_rule = models.CharField(
        max_length=10, choices=DeadlineRule.choices, default=DeadlineRule.FLAG
    )
    start_matches = models.CharField(
        max_length=10,
        choices=StartMatches.choices,
        default=StartMatches.BY_ROUND,
        help_text="When a match opens for play: as soon as both players are known, or "
        "when the director starts its round",
    )
    champion = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signup = models.CharField(
        max_length=10,
        choices=Signup.choices,
        default=Signup.CLOSED,
        help_text="Whether players sign up themselves on the tournament's public page",
    )
    signup_deadline = models.DateTimeField(
        null=True, blank=True, help_text="Sign-up closes at this time"
    )
    entry_cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="Entries taken; past it players join a waiting list"
    )
    added_money = models.DecimalField(max_digits=9, decimal_places=2, default=0)
    prize_unit = models.PositiveSmallIntegerField(
        default=1, help_text="Prizes are rounded down to a multiple of this (1, 5, 10)"
    )
    position = models.PositiveSmallIntegerField(default=0)
    losses_to_eliminate = models.PositiveSmallIntegerField(
        default=3, help_text="Swiss elimination: a player is out at this many losses (2-6)"
    )
    places_paid = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss elimination: the places paid"
    )
    playoff_switch = models.BooleanField(
        default=False,
        help_text="Swiss elimination: end when no more players are alive than places paid",
    )
    last_loss_cashes = models.BooleanField(
        default=False,
        help_text="Swiss elimination: players on their last loss count as cashing",
    )
    avoid_same_club_first_round = models.BooleanField(
        default=False, help_text="Keep players of the same club apart in round 1"
    )
    three_player_playoff = models.BooleanField(
        default=False,
        help_text="Swiss elimination: three players left alive with identical records play "
        "the three-player playoff",
    )
    wisconsin_after_rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss elimination: after this many rounds the players alive play a "
        "knockout seeded by losses (the Wisconsin ending)",
    )
    playoff = models.JSONField(
        default=dict,
        blank=True,
        help_text='Swiss elimination, once its playoff starts: {"kind": "three-player" or '
        '"knockout", "seeds": [entry ids, best first], "after_round": the last Swiss round}',
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slug"], name="event_slug_unique"),
            models.CheckConstraint(
                condition=~Q(feeds_from=F("id")), name="event_not_fed_by_itself"
            ),
            models.CheckConstraint(
                condition=Q(prize_unit__gte=1), name="event_prize_unit_positive"
            ),
            models.CheckConstraint(
                condition=Q(added_money__gte=0), name="event_added_money_positive"
            ),
            models.CheckConstraint(
                condition=Q(losses_to_eliminate__gte=2, losses_to_eliminate__lte=6),
                name="event_losses_to_eliminate_2_to_6",
            ),
            models.CheckConstraint(
                condition=Q(wisconsin_after_rounds__isnull=True)
                | Q(wisconsin_after_rounds__gte=1, wisconsin_after_rounds__lte=50),
                name="event_wisconsin_after_1_to_50_rounds",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.name}"

    def format_in_text(self) -> str:
        """The format as it reads inside a sentence."""
        return str(self.FORMAT_IN_TEXT.get(self.format, self.format))

    def status_in_text(self) -> str:
        """The status as it reads inside a sentence."""
        return str(self.STATUS_IN_TEXT.get(self.status, self.status))

    @property
    def is_swiss(self) -> bool:
        """A Swiss, plain or elimination: rounds paired one at a time from the standings."""
        return self.format in (self.Format.SWISS, self.Format.SWISS_ELIMINATION)

    @property
    def is_elimination_swiss(self) -> bool:
        return self.format == self.Format.SWISS_ELIMINATION

    def length_for_round(self, number: int) -> int:
        """The match length of round ``number`` (1-based): the last listed length repeats."""
        lengths = self.match_lengths or [7]
        return int(lengths[min(number, len(lengths)) - 1])


class Entry(models.Model):
    """A player in an event."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked-in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        ELIMINATED = "eliminated", _("Eliminated")
        WAITING = "waiting", _("Waiting list")
        PENDING = "pending", _("Awaiting approval")

    class Payment(models.TextChoices):
        CASH = "cash", _("Cash")
        TRANSFER = "transfer", _("Transfer")
        ONLINE = "online", _("Online")
        WAIVED = "waived", _("Waived")

    #: Each payment method as it reads inside a sentence ("Paid: transfer"): German keeps
    #: its nouns capitalised ("Bezahlt: Überweisung"), so each language words it itself.
    PAYMENT_IN_TEXT: dict[str, StrOrPromise] = {
        Payment.CASH: pgettext_lazy("payment method in running text", "cash"),
        Payment.TRANSFER: pgettext_lazy("payment method in running text", "transfer"),
        Payment.ONLINE: pgettext_lazy("payment method in running text", "online"),
        Payment.WAIVED: pgettext_lazy("payment method in running text", "waived"),
    }

    #: The status as it reads inside a sentence, worded by each language (German keeps
    #: its nouns capitalised): not the label lowercased.
    STATUS_IN_TEXT: dict[str, StrOrPromise] = {
        Status.REGISTERED: pgettext_lazy("entry status in running text", "registered"),
        Status.CHECKED_IN: pgettext_lazy("entry status in running text", "checked in"),
        Status.WITHDRAWN: pgettext_lazy("entry status in running text", "withdrawn"),
        Status.ELIMINATED: pgettext_lazy("entry status in running text", "eliminated"),
        Status.WAITING: pgettext_lazy("entry status in running text", "waiting list"),
        Status.PENDING: pgettext_lazy("entry status in running text", "awaiting approval"),
    }

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    report_key = models.CharField(max_length=32, unique=True, default=new_report_key)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    paid = models.CharField(
        max_length=10,
        choices=Payment.choices,
        blank=True,
        help_text="How the entry fee was paid; blank while unpaid",
    )
    signed_up = models.BooleanField(default=False, help_text="Entered by the player's own sign-up")
    waiting_since = models.DateTimeField(
        null=True, blank=True, help_text="When the entry joined the waiting list"
    )
    withdrawn_from = models.CharField(
        max_length=12,
        blank=True,
        help_text="The status the entry had when it was withdrawn (an undo before the draw "
        "returns to it)",
    )
    withdrawn_by_player = models.BooleanField(
        default=False, help_text="Withdrawn by the player from their private link"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["event", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_once_per_event"),
            models.UniqueConstraint(
                fields=["event", "seed"], condition=Q(seed__isnull=False), name="entry_seed_unique"
            ),
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | Q(seed__gte=1), name="entry_seed_positive"
            ),
        ]
        indexes = [
            models.Index(
                fields=["event", "waiting_since", "id"],
                condition=Q(status="waiting"),
                name="entry_waiting_list",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event.name}"

    def status_in_text(self) -> str:
        """The status as it reads inside a sentence."""
        return str(self.STATUS_IN_TEXT.get(self.status, self.status))


class PlayerLink(models.Model):
    """A player's one private link for a whole tournament: ``/r/<key>/`` shows their
    matches in every event of it and reports any of them. Made when the player is first
    entered in one of its events; a director can replace a leaked key."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="player_links"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="links")
    key = models.CharField(max_length=32, unique=True, default=new_report_key)
    email = models.EmailField(
        blank=True,
        help_text="Where this tournament's notices to the player go (their link, match "
        "ready, reminders); empty: the player's own email. Set by the tournament's "
        "directors; the player's own email is theirs (or staff's) to change.",
    )
    notify = models.BooleanField(
        default=True,
        help_text="Send this tournament's notices to the player (their choice through the "
        "link's email page; it touches no other tournament).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    emailed_at = models.DateTimeField(
        null=True, blank=True, help_text='The last "Email this player" (its cooldown runs from it)'
    )
    emailed_on = models.DateField(null=True, blank=True)
    emailed_count = models.PositiveSmallIntegerField(
        default=0, help_text='"Email this player" mails sent on ``emailed_on`` (a daily cap)'
    )
    regenerated_at = models.DateTimeField(null=True, blank=True)
    regenerated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "player__name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="player_link_once_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def contact_email(self) -> str:
        """Where this tournament's notices to the player go."""
        return self.email or self.player.email

    @property
    def accepts_notices(self) -> bool:
        """Whether this tournament's notices go to the player: their choice for this
        tournament (``notify``) and the player's own (``Player.notify``)."""
        return self.notify and self.player.notify


#: The round names the draw writes (``tournament.formats.single_elimination``), translated.
DRAWN_ROUND_NAMES = {
    "Final": _("Final"),
    "Semi-final": _("Semi-final"),
    "Quarter-final": _("Quarter-final"),
    "Playoff final": _("Playoff final"),
    "Grand final": _("Grand final"),
    "Grand final (reset)": _("Grand final (reset)"),
}
_ROUND_OF = re.compile(r"Round of (\d+)")
_ROUND_N = re.compile(r"Round (\d+)")
_PLAYOFF_N = re.compile(r"Playoff (\d+)")
_KNOCKOUT = re.compile(r"Knockout: (.+)")


def round_name_shown(name: str, number: int) -> str:
    """A stored round name as the pages show it (see :attr:`Round.display_name`)."""
    if not name:
        return str(_("Round {number}")).format(number=number)
    if name in DRAWN_ROUND_NAMES:
        return str(DRAWN_ROUND_NAMES[name])
    if found := _ROUND_OF.fullmatch(name):
        return str(_("Round of {players}")).format(players=found.group(1))
    if found := _ROUND_N.fullmatch(name):
        return str(_("Round {number}")).format(number=found.group(1))
    if found := _PLAYOFF_N.fullmatch(name):
        return str(_("Playoff {number}")).format(number=found.group(1))
    if found := _KNOCKOUT.fullmatch(name):
        inner = round_name_shown(found.group(1), number)
        return str(_("Knockout: {round}")).format(round=inner)
    return name


def new_signup_token() -> str:
    return secrets.token_urlsafe(24)


class SignupRequest(models.Model):
    """A public sign-up waiting for its address to be confirmed: the mail to that address
    carries the link that takes it (``kind`` confirm), or, for an address already signed
    up for the event, tells its owner so (``kind`` already). One row per mail sent: the
    mails one address gets in a day are counted here."""

    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("Confirm the address")
        ALREADY = "already", _("Already signed up")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="signup_requests")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.CONFIRM)
    name = models.CharField(max_length=120, blank=True)
    email = models.EmailField()
    club = models.CharField(max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True)
    token = models.CharField(max_length=40, unique=True, default=new_signup_token)
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=LANGUAGE_CHOICES,
        help_text="The language of the page the sign-up was asked on: its mail is written "
        "in it (empty: the tournament's language)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    entry = models.ForeignKey(
        "Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(Lower("email"), "created_at", name="signup_request_email_day")]

    def __str__(self) -> str:
        return f"{self.kind} sign-up request for {self.event}"


class PlayerMerge(models.Model):
    """The audit of a directors' "these two are one person": ``removed`` (its name, email
    and id kept here, the record itself is gone) became ``kept``, with what moved."""

    tournament = models.ForeignKey(
        Tournament, null=True, on_delete=models.SET_NULL, related_name="player_merges"
    )
    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merged_in")
    removed_id = models.PositiveIntegerField()
    removed_name = models.CharField(max_length=120)
    removed_email = models.EmailField(blank=True)
    moved = models.JSONField(
        default=dict, help_text="What moved: entries, links, entries dropped, rated matches"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.removed_name} (record {self.removed_id}) merged into record {self.kept_id}"


class Round(models.Model):
    """One round of an event, with its match length and, for online events, a deadline."""

    class Bracket(models.TextChoices):
        MAIN = "main", _("Main")
        LOSERS = "losers", _("Losers")
        FINAL = "final", _("Grand final")
        PLAYOFF = "playoff", _("Playoff")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        STARTED = "started", _("Started")
        COMPLETE = "complete", _("Complete")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    bracket = models.CharField(max_length=8, choices=Bracket.choices, default=Bracket.MAIN)
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True)
    match_length = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    starts_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Round time the director set: the room board counts it down from the start",
    )

    class Meta:
        ordering = ["event", "bracket", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "bracket", "number"], name="round_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(match_length__gte=1), name="round_length_positive"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The round's name in the active language: the names the draw gives (``Final``,
        ``Round of 16``, ``Round 2``: ``tournament.formats``) are translated; a name a
        director typed is shown as typed."""
        return round_name_shown(self.name, self.number)


#: How a draw may be made (``tournament.services.draws.METHODS``), as the pages name it.
DRAW_METHODS = {
    "random": _("random order"),
    "rating": _("by rating"),
    "manual": _("by hand, in the order given"),
}


class Draw(models.Model):
    """A draw as made: method, random seed and the public log to re-run it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draws")
    method = models.CharField(max_length=10)
    seed = models.BigIntegerField(null=True, blank=True)
    log = models.TextField()
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.method} draw of {self.event_id} ({self.created_at:%Y-%m-%d %H:%M})"

    @property
    def method_label(self) -> str:
        """The method in the active language (``tournament.services.draws.METHODS``)."""
        return str(DRAW_METHODS.get(self.method, self.method))


class ForbiddenPair(models.Model):
    """Two players a director keeps apart: ``absolute`` never paired while a legal
    pairing exists, ``avoid`` paired only when that saves a rematch; in round 1 only
    or in every round. Directors only: players never see others' prohibitions."""

    class Strength(models.TextChoices):
        ABSOLUTE = "absolute", _("Absolute")
        AVOID = "avoid", _("Avoid")

    class Rounds(models.TextChoices):
        FIRST = "first", _("Round 1 only")
        ALL = "all", _("Every round")

    #: Strength and rounds as they read inside a sentence ("absolute, round 1 only"; German
    #: keeps "Runde" capitalised), worded by each language.
    STRENGTH_IN_TEXT: dict[str, StrOrPromise] = {
        Strength.ABSOLUTE: pgettext_lazy("forbidden pairing in running text", "absolute"),
        Strength.AVOID: pgettext_lazy("forbidden pairing in running text", "avoid"),
    }
    ROUNDS_IN_TEXT: dict[str, StrOrPromise] = {
        Rounds.FIRST: pgettext_lazy("forbidden pairing in running text", "round 1 only"),
        Rounds.ALL: pgettext_lazy("forbidden pairing in running text", "every round"),
    }

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="forbidden_pairs")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    strength = models.CharField(max_length=10, choices=Strength.choices, default=Strength.ABSOLUTE)
    rounds = models.CharField(max_length=10, choices=Rounds.choices, default=Rounds.ALL)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player_a", "player_b"], name="forbidden_pair_once"
            ),
            models.CheckConstraint(
                condition=Q(player_a__lt=F("player_b")), name="forbidden_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id}-{self.player_b_id} ({self.strength}, {self.rounds})"

    def strength_in_text(self) -> str:
        """The strength as it reads inside a sentence ("absolute")."""
        return str(self.STRENGTH_IN_TEXT.get(self.strength, self.strength))

    def rounds_in_text(self) -> str:
        """The rounds as they read inside a sentence ("round 1 only")."""
        return str(self.ROUNDS_IN_TEXT.get(self.rounds, self.rounds))


class PairingNote(models.Model):
    """A line of an event's public pairing log: a round paired (how), a prohibition
    relaxed by the director (``detail`` names the players, for directors only)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairing_notes")
    round_number = models.PositiveSmallIntegerField()
    text = models.TextField()
    detail = models.TextField(blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]

    def __str__(self) -> str:
        return f"round {self.round_number}: {self.text}"

    @property
    def display_text(self) -> str:
        """The line in the active language (``tournament.pairing_log``)."""
        from tournament.pairing_log import shown

        return shown(self.text)


class RatingChange(models.Model):
    """One rated match's effect on one player's rating (FIBS formula)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    experience_before = models.PositiveIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["player", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_change_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating_before:.1f} -> {self.rating_after:.1f}"


class OutboxTask(models.Model):
    """A Celery task that a transaction decided on, written in that transaction.

    The row commits or rolls back with the change that asked for it; once committed the
    task is published (``tournament.outbox``), and the row is deleted when the task has
    run. A row still here at ``available_at`` (web node died before publishing, worker
    died holding the task, broker or database blip) is published again by the drain.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    available_at = models.DateTimeField(db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class SidePool(models.Model):
    """An optional extra stake in an event, with its own payout split: the players who put
    it in share it by their final places among themselves."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="side_pools")
    name = models.CharField(max_length=60)
    stake = models.DecimalField(max_digits=9, decimal_places=2)
    payout_split = models.JSONField(default=list, help_text="Percent of the side pool by place")
    entries = models.ManyToManyField(Entry, blank=True, related_name="side_pools")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="side_pool_name_unique"),
            models.CheckConstraint(condition=Q(stake__gt=0), name="side_pool_stake_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.event.name})"


class Notice(models.Model):
    """A "your next match" email as sent to one player: the match and the opponent it named.

    Kept so that a notice the tournament takes back (a reopened walkover, a corrected
    winner, an undone withdrawal: the player is no longer in that match, or not against
    that opponent) gets a correction (``corrected_at``), and so that the same notice is
    not sent twice while it stands. Entries are kept by id: a fed entry taken back out of
    a Consolation is deleted, and its notice must still be corrected.
    """

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    entry_id_sent = models.BigIntegerField(help_text="The player's entry the notice was about")
    opponent_entry_id = models.BigIntegerField()
    opponent_name = models.CharField(max_length=200, help_text="As the notice named them")
    round_name = models.CharField(max_length=200, blank=True, default="")
    sent_at = models.DateTimeField()
    corrected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "entry_id_sent", "opponent_entry_id"],
                condition=Q(corrected_at__isnull=True),
                name="notice_once_while_true",
            ),
        ]

    def __str__(self) -> str:
        return f"notice to {self.player_id}: match {self.match_id} v {self.opponent_name}"
