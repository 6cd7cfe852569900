"""Director actions the console needs beyond the core services: undo a check-in, enter
a player new to the tournament in one step, settle a match from its final score, and
preview a players CSV (checked by the import's own parser) before importing it.

Same conventions as the other services: keyword-only, typed, one transaction each,
rows locked where shared state changes, refusals as ``DomainError`` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from matches.models import Match, Submission
from tournament.models import Entry, Event, Player, User
from tournament.services.common import refuse
from tournament.services.entries import entry_register
from tournament.services.imports import RowError, _decode, _known, _parse
from tournament.services.players import player_create
from tournament.services.results import OPEN, _complete, _lock, _submit


def entry_check_in_undo(*, entry: Entry, by: User | None = None) -> Entry:
    """Take back a check-in (a mistaken click) while the event is not drawn yet."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().select_related("event", "player").get(pk=entry.pk)
        if entry.status == Entry.Status.REGISTERED:
            return entry
        if entry.status != Entry.Status.CHECKED_IN:
            raise refuse(
                f"{entry.player} is {entry.get_status_display().lower()}, not checked in.",
                code="not-checked-in",
            )
        if entry.event.status != Event.Status.REGISTRATION:
            raise refuse(
                f"{entry.event.name} is drawn: a check-in can no longer be taken back; "
                "withdraw the player instead.",
                code="event-drawn",
            )
        entry.status = Entry.Status.REGISTERED
        entry.checked_in_at = None
        entry.save(update_fields=["status", "checked_in_at"])
    return entry


def entry_register_player(
    *,
    event: Event,
    player: Player | None = None,
    name: str = "",
    email: str = "",
    rating: float | None = None,
    club: str = "",
    seed: int | None = None,
    by: User | None = None,
    confirm_new: bool = False,
) -> Entry:
    """Enter ``player``, or a new player made from ``name`` and the rest, in ``event``.

    Both happen or neither does: a refused entry leaves no stray player behind. A new
    name that a player already has is refused (``possible-duplicate``) unless
    ``confirm_new``.
    """
    if (player is None) == (not (name or "").strip()):
        raise refuse(
            "Choose a player or type a new player's name (one of the two).",
            code="invalid",
            field="name",
        )
    with transaction.atomic():
        if player is None:
            player = player_create(
                name=name, email=email, rating=rating, club=club, confirm_new=confirm_new
            )
        return entry_register(event=event, player=player, seed=seed, by=by)


def match_final_score_enter(
    *, match: Match, score1: int, score2: int, reason: str = "", by: User | None = None
) -> Match:
    """A director settles a match from its final score alone (the scoresheet's last line).

    The score is the one played, so it may pass the match length; exactly one player
    has reached it and neither is below the match's starting score. No games are
    recorded: the submission keeps the score and who entered it.
    """
    for value, name in ((score1, "score1"), (score2, "score2")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise refuse("A score is a whole number of 0 or more.", code="invalid", field=name)
    with transaction.atomic():
        match = _lock(match)
        if match.status not in OPEN:
            raise refuse(
                f"Match {match.pk} is already decided; correct its winner instead.",
                code="match-decided",
            )
        if match.entry1_id is None or match.entry2_id is None or match.is_bye:
            raise refuse(
                f"Match {match.pk} does not have both players yet.", code="match-not-ready"
            )
        if match.games.filter(voided=False).exists():
            raise refuse(
                f"Match {match.pk} already has games reported; settle it from those "
                "(confirm or resolve the report).",
                code="match-started",
            )
        for value, start, name in (
            (score1, match.start_score1, "score1"),
            (score2, match.start_score2, "score2"),
        ):
            if value < start:
                raise refuse(
                    f"The match started at {match.start_score1}-{match.start_score2}: a "
                    "final score cannot be below it.",
                    code="score-below-start",
                    field=name,
                )
        reached = (score1 >= match.length, score2 >= match.length)
        if reached == (False, False):
            raise refuse(
                f"Nobody has {match.length} points at {score1}-{score2}: the match is not over.",
                code="match-not-over",
                field="score1",
            )
        if reached == (True, True):
            raise refuse(
                f"Both players have {match.length} points or more at {score1}-{score2}: "
                "only the winner reaches the match length.",
                code="score-mismatch",
                field="score2",
            )
        _submit(
            match,
            kind=Submission.Kind.MATCH,
            by=by,
            payload={"final_score": [score1, score2], "reason": reason},
        )
        match.score1, match.score2 = score1, score2
        winner_id = match.entry1_id if reached[0] else match.entry2_id
        assert winner_id is not None
        _complete(match, winner_id=winner_id, decision=Match.Decision.PLAY, now=timezone.now())
    return match


@dataclass(frozen=True)
class PreviewRow:
    """A line of the CSV that would import, and whether it is a player already known."""

    line: int
    name: str
    email: str
    rating: float | None
    club: str
    country: str
    known: Player | None


@dataclass
class CsvPreview:
    """What ``players_import_csv`` would do with a file, without doing it."""

    rows: list[PreviewRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def new_count(self) -> int:
        return sum(1 for row in self.rows if row.known is None)

    @property
    def known_count(self) -> int:
        return len(self.rows) - self.new_count


def players_csv_preview(*, data: str | bytes) -> CsvPreview:
    """Check a players CSV exactly as the import will, and say who is new; saves nothing."""
    rows, errors = _parse(_decode(data))
    if not errors and not rows:
        errors.append(RowError(2, None, "The file has a header but no players."))
    return CsvPreview(
        rows=[
            PreviewRow(
                line=row.line,
                name=row.name,
                email=row.email,
                rating=row.rating,
                club=row.club,
                country=row.country,
                known=_known(row),
            )
            for row in rows
        ],
        errors=errors,
    )
