"""Players, tournaments, events (brackets and divisions), entries, rounds and draws.

Invariants live in database constraints wherever a constraint can hold them.
Matches and their games are in the ``matches`` app.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower

from tournament.text import text_problem


def new_report_key() -> str:
    """A private, unguessable key for a player's report link."""
    return secrets.token_urlsafe(18)


class User(AbstractUser):
    """The site's user: directors, players with an account, staff."""

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
    created_at = models.DateTimeField(auto_now_add=True)

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


class Series(models.Model):
    """A season of tournaments whose events award series points."""

    class Scheme(models.TextChoices):
        MASTER_POINTS = "master-points", "Master points (USBGF-style)"
        TABLE = "table", "Points table set by the director"

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
        choices=[(0, "0 plies (quick)"), (2, "2 plies (gnubg's default)")],
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
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """A bracket or division inside a tournament: Main, Consolation, Last Chance, Swiss..."""

    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single-elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double-elimination", "Double elimination"
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round-robin", "Round robin"

    class Kind(models.TextChoices):
        MAIN = "main", "Main"
        CONSOLATION = "consolation", "Consolation"
        LAST_CHANCE = "last-chance", "Last Chance"
        SIDE = "side", "Side event"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        DRAWN = "drawn", "Drawn"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class StartMatches(models.TextChoices):
        AUTO = "auto", "Each match as soon as both players are known"
        BY_ROUND = "by-round", "By round, when the director starts it"

    class Signup(models.TextChoices):
        CLOSED = "closed", "Closed: the director enters players"
        OPEN = "open", "Open: sign-ups are entered as they come"
        APPROVAL = "approval", "Open: the director approves each sign-up"

    class DeadlineRule(models.TextChoices):
        FORFEIT = "forfeit", "Forfeit the player who never reported"
        FLAG = "flag", "Flag the match for the director"

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
        ]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.name}"

    def length_for_round(self, number: int) -> int:
        """The match length of round ``number`` (1-based): the last listed length repeats."""
        lengths = self.match_lengths or [7]
        return int(lengths[min(number, len(lengths)) - 1])


class Entry(models.Model):
    """A player in an event."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked-in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"
        ELIMINATED = "eliminated", "Eliminated"
        WAITING = "waiting", "Waiting list"
        PENDING = "pending", "Awaiting approval"

    class Payment(models.TextChoices):
        CASH = "cash", "Cash"
        TRANSFER = "transfer", "Transfer"
        ONLINE = "online", "Online"
        WAIVED = "waived", "Waived"

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


class Round(models.Model):
    """One round of an event, with its match length and, for online events, a deadline."""

    class Bracket(models.TextChoices):
        MAIN = "main", "Main"
        LOSERS = "losers", "Losers"
        FINAL = "final", "Grand final"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        STARTED = "started", "Started"
        COMPLETE = "complete", "Complete"

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
        return self.name or f"Round {self.number}"


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
