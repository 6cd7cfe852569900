"""Matches, their games and every report ever made about them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class Match(models.Model):
    """An N-point match between two entries of an event (or a bye), placed in a round's slot."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for players")
        READY = "ready", _("Ready")
        PLAYING = "playing", _("In play")
        REPORTED = "reported", _("Awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        COMPLETE = "complete", _("Complete")

    class Decision(models.TextChoices):
        PLAY = "play", _("Played")
        SCORE = "score", _("Score only")
        FORFEIT = "forfeit", _("Forfeit")
        WALKOVER = "walkover", _("Walkover")
        BYE = "bye", _("Bye")

    #: Each decision as it reads inside a sentence or on a badge: English writes "walkover",
    #: German keeps its nouns capitalised ("Walkover"), so each language words it itself.
    DECISION_IN_TEXT: dict[str, StrOrPromise] = {
        Decision.PLAY: pgettext_lazy("decision in running text", "played"),
        Decision.SCORE: pgettext_lazy("decision in running text", "score only"),
        Decision.FORFEIT: pgettext_lazy("decision in running text", "forfeit"),
        Decision.WALKOVER: pgettext_lazy("decision in running text", "walkover"),
        Decision.BYE: pgettext_lazy("decision in running text", "bye"),
    }

    #: The status as it reads inside a sentence, worded by each language (German keeps
    #: its nouns capitalised): not the label lowercased.
    STATUS_IN_TEXT: dict[str, StrOrPromise] = {
        Status.PENDING: pgettext_lazy("match status in running text", "waiting for players"),
        Status.READY: pgettext_lazy("match status in running text", "ready"),
        Status.PLAYING: pgettext_lazy("match status in running text", "in play"),
        Status.REPORTED: pgettext_lazy("match status in running text", "awaiting confirmation"),
        Status.DISPUTED: pgettext_lazy("match status in running text", "disputed"),
        Status.COMPLETE: pgettext_lazy("match status in running text", "complete"),
    }

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="matches")
    slot = models.PositiveIntegerField(help_text="Position of the match in its round, from 0")
    entry1 = models.ForeignKey(
        "tournament.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entry2 = models.ForeignKey(
        "tournament.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    is_bye = models.BooleanField(default=False)
    length = models.PositiveSmallIntegerField()
    crawford = models.BooleanField(default=True)
    holland = models.BooleanField(default=False)
    start_score1 = models.PositiveSmallIntegerField(default=0)
    start_score2 = models.PositiveSmallIntegerField(default=0)
    score1 = models.PositiveSmallIntegerField(default=0)
    score2 = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    winner = models.ForeignKey(
        "tournament.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True)
    reported_by = models.ForeignKey(
        "tournament.Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The entry whose report decided the match, awaiting the other's confirmation",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    advanced_at = models.DateTimeField(
        null=True, blank=True, help_text="When the bracket moved on from this match (idempotency)"
    )
    reminded_at = models.DateTimeField(null=True, blank=True)
    flagged = models.BooleanField(default=False)
    table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The table (board) the director put the match at"
    )
    designated = models.BooleanField(
        default=False, help_text="BMAB: designated for a title before the first game"
    )
    recorded = models.BooleanField(default=False, help_text="BMAB: the match is recorded")
    clocked = models.BooleanField(default=False, help_text="BMAB: the match is played on clocks")
    bmab_marks = models.JSONField(
        default=dict,
        blank=True,
        help_text='Who set each BMAB flag and when: {"designated": {"value", "by", "at", '
        '"reason"}, ...}',
    )
    xg_pr1 = models.DecimalField(
        max_digits=5, decimal_places=2, null=True, blank=True, help_text="XG PR (reported)"
    )
    xg_pr2 = models.DecimalField(
        max_digits=5, decimal_places=2, null=True, blank=True, help_text="XG PR (reported)"
    )
    updated_at = models.DateTimeField(auto_now=True)

    #: The match's games as the report that returned it left them (not a field: set by
    #: the ledger, so that the answer to the report reads no games again).
    games_after: list[Game]
    #: Set on the match a report returns when the report was one sent again with its
    #: idempotency key: answered from what was stored, nothing recorded.
    replayed = False

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["round", "slot"]
        indexes = [
            models.Index(fields=["event", "status"]),
            models.Index(fields=["status", "confirmed_at"]),
        ]
        constraints = [
            models.UniqueConstraint(fields=["round", "slot"], name="match_slot_unique"),
            models.CheckConstraint(
                condition=Q(entry1__isnull=True) | Q(entry2__isnull=True) | ~Q(entry1=F("entry2")),
                name="match_two_different_entries",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("entry1")) | Q(winner=F("entry2")),
                name="match_winner_is_a_player",
            ),
            models.CheckConstraint(condition=Q(length__gte=1), name="match_length_positive"),
            models.CheckConstraint(
                condition=Q(score1__gte=F("start_score1")) & Q(score2__gte=F("start_score2")),
                name="match_score_not_below_start",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.length} points)"

    def status_in_text(self) -> str:
        """The status as it reads inside a sentence."""
        return str(self.STATUS_IN_TEXT.get(self.status, self.status))

    def decision_in_text(self) -> str:
        """The decision as it reads inside a sentence ("walkover"; German "Walkover")."""
        return str(self.DECISION_IN_TEXT.get(self.decision, self.decision))


#: Decisions of matches that were played to the end: ``score`` is a played match whose
#: director entered (or corrected) only its final score, with no games recorded.
PLAYED_DECISIONS = (Match.Decision.PLAY, Match.Decision.SCORE)


class Game(models.Model):
    """An accepted game of a match. Voided games stay, marked, when a director corrects a result."""

    class Result(models.TextChoices):
        SINGLE = "single", _("Single")
        GAMMON = "gammon", _("Gammon")
        BACKGAMMON = "backgammon", _("Backgammon")

    class EndedBy(models.TextChoices):
        PLAY = "play", _("Played out")
        DROP = "drop", _("Double dropped")
        RESIGN = "resign", _("Resigned")

    #: The result and the way a game ended as they read inside a sentence ("gammon",
    #: "double dropped"; German keeps its nouns capitalised), worded by each language.
    RESULT_IN_TEXT: dict[str, StrOrPromise] = {
        Result.SINGLE: pgettext_lazy("game result in running text", "single"),
        Result.GAMMON: pgettext_lazy("game result in running text", "gammon"),
        Result.BACKGAMMON: pgettext_lazy("game result in running text", "backgammon"),
    }
    ENDED_BY_IN_TEXT: dict[str, StrOrPromise] = {
        EndedBy.PLAY: pgettext_lazy("how a game ended, in running text", "played out"),
        EndedBy.DROP: pgettext_lazy("how a game ended, in running text", "double dropped"),
        EndedBy.RESIGN: pgettext_lazy("how a game ended, in running text", "resigned"),
    }

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner_side = models.PositiveSmallIntegerField(
        help_text="1 or 2: which of the match's entries won"
    )
    cube = models.PositiveIntegerField(default=1)
    result = models.CharField(max_length=10, choices=Result.choices, default=Result.SINGLE)
    ended_by = models.CharField(max_length=6, choices=EndedBy.choices, default=EndedBy.PLAY)
    points = models.PositiveIntegerField()
    score_before1 = models.PositiveSmallIntegerField()
    score_before2 = models.PositiveSmallIntegerField()
    crawford = models.BooleanField(default=False)
    doubles = models.JSONField(default=list, blank=True)
    moves = models.JSONField(
        null=True, blank=True, help_text="The move record, when a file gave one"
    )
    submission = models.ForeignKey(
        "Submission", null=True, on_delete=models.PROTECT, related_name="games"
    )
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"], condition=Q(voided=False), name="game_number_once"
            ),
            models.CheckConstraint(condition=Q(winner_side__in=[1, 2]), name="game_winner_side"),
            models.CheckConstraint(condition=Q(cube__gte=1), name="game_cube_positive"),
            models.CheckConstraint(condition=Q(points__gte=1), name="game_points_positive"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of match {self.match_id}"

    def result_in_text(self) -> str:
        """The result as it reads inside a sentence ("gammon")."""
        return str(self.RESULT_IN_TEXT.get(self.result, self.result))

    def ended_by_in_text(self) -> str:
        """How the game ended as it reads inside a sentence ("double dropped")."""
        return str(self.ENDED_BY_IN_TEXT.get(self.ended_by, self.ended_by))


class Submission(models.Model):
    """One report about a match, stored as made, accepted or not. Never overwritten."""

    class Kind(models.TextChoices):
        GAME = "game", _("Game")
        MATCH = "match", _("Whole match")
        RECORD = "record", _("Match file")
        CONFIRM = "confirm", _("Confirmation")
        DISPUTE = "dispute", _("Dispute")
        RESOLVE = "resolve", _("Director's decision")
        FORFEIT = "forfeit", _("Forfeit")
        SCORE = "score", _("Final score only")

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Rejected")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_entry = models.ForeignKey(
        "tournament.Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The entry whose private link (or account) made the report",
    )
    as_director = models.BooleanField(default=False)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    payload = models.JSONField(default=dict)
    file_name = models.CharField(max_length=200, blank=True)
    file_text = models.TextField(blank=True)
    error_code = models.CharField(max_length=40, blank=True)
    error_message = models.TextField(blank=True)
    error_detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="submission_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} v{self.version} of match {self.match_id}: {self.status}"


class Analysis(models.Model):
    """GNU Backgammon's analysis of one accepted match file: one row per run, never overwritten.

    A corrected or replaced record (a new accepted submission) gets an analysis of its
    own; a director's re-run of the same record is the next ``run``. The figures are
    kept per plies: the quick 0-ply pass first, then the full pass.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        UNAVAILABLE = "unavailable", _("Analysis unavailable")

    #: The status as it reads inside a sentence, worded by each language (German keeps
    #: its nouns capitalised): not the label lowercased.
    STATUS_IN_TEXT: dict[str, StrOrPromise] = {
        Status.QUEUED: pgettext_lazy("analysis status in running text", "queued"),
        Status.RUNNING: pgettext_lazy("analysis status in running text", "running"),
        Status.DONE: pgettext_lazy("analysis status in running text", "done"),
        Status.FAILED: pgettext_lazy("analysis status in running text", "failed"),
        Status.UNAVAILABLE: pgettext_lazy(
            "analysis status in running text", "analysis unavailable"
        ),
    }

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    submission = models.ForeignKey(
        Submission,
        on_delete=models.CASCADE,
        related_name="analyses",
        help_text="The record analysed",
    )
    run = models.PositiveSmallIntegerField(default=1, help_text="1, then 2, 3... for re-runs")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    reason = models.TextField(blank=True, help_text="Why it failed or is unavailable")
    engine = models.CharField(max_length=60, blank=True, help_text='e.g. "gnubg 1.07.001"')
    plies = models.PositiveSmallIntegerField(help_text="The full analysis' plies (0 or 2)")
    plies_done = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The plies of the last pass finished"
    )
    options = models.JSONField(default=dict, blank=True, help_text="gnubg's settings used")
    attempts = models.PositiveSmallIntegerField(default=0)
    held = models.BooleanField(
        default=True,
        help_text="Queued in the database until one of its tournament's slots on the "
        "analysis queue frees (a fair share across tournaments)",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    queued_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cpu_seconds = models.FloatField(null=True, blank=True, help_text="gnubg's CPU time, all passes")
    wall_seconds = models.FloatField(null=True, blank=True)
    peak_memory_kb = models.PositiveIntegerField(
        null=True, blank=True, help_text="The largest resident size of a gnubg process"
    )
    mistakes = models.JSONField(
        default=list, blank=True, help_text="The biggest blunders and errors, with game and move"
    )

    class Meta:
        ordering = ["match", "-queued_at", "-run"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "run"], name="analysis_run_once"),
            models.CheckConstraint(condition=Q(plies__in=[0, 2]), name="analysis_plies"),
        ]
        indexes = [models.Index(fields=["status", "heartbeat_at"])]

    def __str__(self) -> str:
        return f"Analysis {self.pk} of match {self.match_id} ({self.status})"

    def status_in_text(self) -> str:
        """The status as it reads inside a sentence."""
        return str(self.STATUS_IN_TEXT.get(self.status, self.status))


class AnalysisFigures(models.Model):
    """One player's figures from one pass of an analysis: the whole match (game 0) or a game.

    Error rates are gnubg's, in milli-EMG, positive; ``pr`` is half the overall error
    rate as gnubg prints it: "gnubg PR (unofficial)".
    """

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="figures")
    plies = models.PositiveSmallIntegerField()
    game = models.PositiveSmallIntegerField(default=0, help_text="0: the whole match")
    side = models.PositiveSmallIntegerField(help_text="1 or 2: the match's entry")
    player = models.ForeignKey(
        "tournament.Player", null=True, on_delete=models.SET_NULL, related_name="analysis_figures"
    )
    error_rate_memg = models.FloatField()
    chequer_error_rate_memg = models.FloatField()
    cube_error_rate_memg = models.FloatField()
    pr = models.FloatField()
    luck_rate_memg = models.FloatField()
    error_total_emg = models.FloatField()
    chequer_error_total_emg = models.FloatField()
    cube_error_total_emg = models.FloatField()
    luck_total_emg = models.FloatField()
    total_moves = models.PositiveIntegerField()
    unforced_moves = models.PositiveIntegerField()
    cube_decisions = models.PositiveIntegerField(help_text="Close or actual cube decisions")
    total_cube_decisions = models.PositiveIntegerField()
    blunders = models.PositiveIntegerField(help_text="Moves marked very bad")
    errors = models.PositiveIntegerField(help_text="Moves marked bad")
    doubtful = models.PositiveIntegerField()
    cube_blunders = models.PositiveIntegerField()
    cube_errors = models.PositiveIntegerField()

    class Meta:
        ordering = ["analysis", "plies", "game", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "plies", "game", "side"], name="analysis_figures_once"
            ),
            models.CheckConstraint(condition=Q(side__in=[1, 2]), name="analysis_figures_side"),
        ]
        indexes = [models.Index(fields=["player", "plies", "game"])]

    def __str__(self) -> str:
        return f"Figures of side {self.side}, game {self.game}, analysis {self.analysis_id}"


class ReportKey(models.Model):
    """An ``Idempotency-Key`` a report came with, and the submission it recorded.

    A report sent again with the same key (a phone that lost the answer, a queue sent
    twice) is answered as the first one was and records nothing; keys are swept after
    ``REPORT_KEY_HOURS`` (at least a weekend).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="+")
    status = models.PositiveSmallIntegerField(help_text="The HTTP status the report was answered")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="report_key_once"),
        ]

    def __str__(self) -> str:
        return f"Key {self.key} of match {self.match_id}"


class DeviceSync(models.Model):
    """When a player's phone last talked to the server about a match, and what it still holds:
    reports queued offline (``unsent``) and reports the server refused that the player has
    not dealt with yet (``attention``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="device_syncs")
    entry = models.ForeignKey("tournament.Entry", on_delete=models.CASCADE, related_name="+")
    synced_at = models.DateTimeField()
    unsent = models.PositiveIntegerField(default=0)
    attention = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "entry"], name="device_sync_once"),
        ]

    def __str__(self) -> str:
        return f"Sync of entry {self.entry_id} on match {self.match_id}"
