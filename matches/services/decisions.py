"""A director's decisions on a match, each one report through the ledger's one writer.

Forfeit and walkover, late-arrival penalty points, the final score alone (a "score
only" result: entered, or corrected) and the correction of a decided winner. Each is
stored as a versioned :class:`~matches.models.Submission`, accepted or rejected, by
:func:`~matches.services.ledger.submission_run`; a refused decision is kept too.

The matches app knows nothing of brackets. A correction that changes a decided
winner takes :class:`Followups` from its caller (the tournament side re-seats its
bracket there), run in the same transaction: ``undo`` before the match changes,
``redo`` after. Callers that must lock more than the match (the event, first) pass
``prelock``.

Winner and score always agree: in a played or score-only result the winner, and only
the winner, has reached the match length. See :func:`final_score_check` for when a
score is refused and when it is only unlikely (accepted once confirmed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils import timezone
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, Role
from matches.errors import Conflict, refuse
from matches.models import PLAYED_DECISIONS, Game, Match, Submission
from matches.services.ledger import Outcome, submission_run
from matches.services.reporting import MAX_SCORE

#: Statuses of a match that is not decided yet.
OPEN = (
    Match.Status.PENDING,
    Match.Status.READY,
    Match.Status.PLAYING,
    Match.Status.REPORTED,
    Match.Status.DISPUTED,
)

#: The most points a last game plausibly adds past ``length - 1``: a backgammon on a
#: 4-cube. A winner further on than that is warned about (see ``final_score_check``).
PLAUSIBLE_LAST_GAME = 12

RoleOf = Callable[..., Role]


def system_role(*, match: Match, actor: Actor) -> Role:
    """A director's role for decisions the application makes itself (deadlines, seeding)
    or that a caller already checked: nobody to ask."""
    return Role(side=None, entry_id=None, director=True)


class Followups(Protocol):
    """What else must change when a decided match's winner changes (the caller's business)."""

    def undo(self, match: Match) -> None:
        """Before the match changes: take back what the old result moved on."""

    def redo(self, match: Match) -> None:
        """After the match changed (same transaction): move on from the new result."""


@dataclass(frozen=True, slots=True)
class ScoreCheck:
    """A final score found consistent: which side (1 or 2) won it."""

    winner_side: int


def _side_of_entry(match: Match, entry_id: int, field: str) -> int:
    if entry_id == match.entry1_id:
        return 1
    if entry_id == match.entry2_id:
        return 2
    raise refuse(
        _("Entry {entry_id} does not play match {match_pk}.").format(
            entry_id=entry_id, match_pk=match.pk
        ),
        code="not-in-match",
        field=field,
    )


def _player_id(match: Match, side: int) -> int | None:
    entry = match.entry1 if side == 1 else match.entry2
    return entry.player_id if entry is not None else None


def _both_players(match: Match) -> None:
    if match.entry1_id is None or match.entry2_id is None or match.is_bye:
        raise refuse(
            _("Match {match_pk} does not have both players yet.").format(match_pk=match.pk),
            code="match-not-ready",
        )


def _has_games(match: Match) -> bool:
    return match.games.filter(voided=False).exists()


def final_score_check(
    match: Match,
    score: tuple[int, int],
    *,
    winner_side: int | None = None,
    confirm: bool = False,
    field: str = "score",
) -> ScoreCheck:
    """Check that ``score`` can end ``match``; the side that won it.

    Refused (400, naming ``field``): a score below the match's starting score or too
    large to store; nobody, or both players, at the match length (only the winner
    reaches it); a ``winner_side`` other than the player who reached it.

    Unlikely, refused with code ``unlikely-score`` until ``confirm``: the winner past
    ``length - 1 + PLAUSIBLE_LAST_GAME`` (the leader can be at most at ``length - 1``
    before the last game, which rarely adds more than a backgammon on a 4-cube), e.g.
    25-3 in a 7-point match.
    """
    s1, s2 = score
    for value, start, index in ((s1, match.start_score1, 0), (s2, match.start_score2, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise refuse(_("A score is a whole number of 0 or more."), code="invalid", field=field)
        if value > MAX_SCORE:
            raise refuse(
                _("That score is too large to record."), code="score-too-large", field=field
            )
        if value < start:
            raise refuse(
                _(
                    "The match started at "
                    "{match_start_score1}-{match_start_score2}: a final score "
                    "cannot be below it."
                ).format(
                    match_start_score1=match.start_score1, match_start_score2=match.start_score2
                ),
                code="score-below-start",
                field=field,
                side=index + 1,
            )
    reached = (s1 >= match.length, s2 >= match.length)
    if reached == (False, False):
        raise refuse(
            _("Nobody has {match_length} points at {s1}-{s2}: the match is not over.").format(
                match_length=match.length, s1=s1, s2=s2
            ),
            code="match-not-over",
            field=field,
        )
    if reached == (True, True):
        raise refuse(
            _(
                "Both players have {match_length} points or more at "
                "{s1}-{s2}: only the winner reaches the match length."
            ).format(match_length=match.length, s1=s1, s2=s2),
            code="score-mismatch",
            field=field,
        )
    side = 1 if reached[0] else 2
    if winner_side is not None and winner_side != side:
        raise refuse(
            _(
                "At {s1}-{s2} the other player reached {match_length} "
                "points: the winner and the score disagree."
            ).format(s1=s1, s2=s2, match_length=match.length),
            code="winner-score-mismatch",
            field=field,
        )
    top = max(s1, s2)
    plausible = match.length - 1 + PLAUSIBLE_LAST_GAME
    if top > plausible and not confirm:
        raise refuse(
            _(
                "{s1}-{s2} is an unlikely final score for a "
                "{match_length}-point match (the winner rarely ends past "
                "{plausible}). Check it, and confirm it if it is right."
            ).format(s1=s1, s2=s2, match_length=match.length, plausible=plausible),
            code="unlikely-score",
            field=field,
            plausible_max=plausible,
        )
    return ScoreCheck(winner_side=side)


def _complete(match: Match, *, winner_side: int, decision: str) -> None:
    now = timezone.now()
    match.winner = match.entry1 if winner_side == 1 else match.entry2
    match.decision = decision
    match.status = Match.Status.COMPLETE
    match.reported_by = None
    match.decided_at = match.confirmed_at = now
    match.started_at = match.started_at or (now if decision in PLAYED_DECISIONS else None)


def match_decide_without_play(
    *,
    match_id: int,
    actor: Actor,
    meta: RequestMeta,
    winner_entry_id: int,
    decision: str,
    reason: str = "",
    role_of: RoleOf = system_role,
    prelock: Callable[[], None] | None = None,
) -> Match:
    """A forfeit (``winner``'s opponent did not finish) or a walkover (never came)."""

    def decide(match: Match, role: Role) -> Outcome:
        if match.status not in OPEN:
            raise refuse(
                _("Match {match_pk} is already decided; correct its winner instead.").format(
                    match_pk=match.pk
                ),
                code="match-decided",
            )
        _both_players(match)
        side = _side_of_entry(match, winner_entry_id, "winner")
        _complete(match, winner_side=side, decision=decision)
        payload = {"decision": decision, "winner": _player_id(match, side), "reason": reason}
        return Outcome(match_changed=True, completed=True, payload=payload)

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.FORFEIT,
        actor=actor,
        meta=meta,
        payload={"decision": decision, "winner_entry": winner_entry_id, "reason": reason},
        decide=decide,
        role_of=role_of,
        prelock=prelock,
    )


def match_reopen(match: Match, *, ready: bool) -> None:
    """Take a match's result back: its games voided (kept, marked), no winner, the score
    back to the starting one; ``ready`` (both players, round started) or pending.

    For the bracket's own moves (a cascaded correction reopens the matches further on):
    the caller holds the match's lock, and the correction that caused it is the stored
    submission. The match is saved.
    """
    Game.objects.filter(match=match, voided=False).update(voided=True)
    match.winner = None
    match.decision = ""
    match.reported_by = None
    match.decided_at = match.confirmed_at = match.started_at = None
    match.advanced_at = None
    match.score1, match.score2 = match.start_score1, match.start_score2
    match.status = Match.Status.READY if ready else Match.Status.PENDING
    match.save()


def match_penalty(
    *,
    match_id: int,
    actor: Actor,
    meta: RequestMeta,
    against_entry_id: int,
    points: int,
    reason: str = "",
    role_of: RoleOf = system_role,
    prelock: Callable[[], None] | None = None,
) -> Match:
    """Late-arrival penalty: the late player's opponent starts ``points`` further on.

    Only before the first game. Once the opponent's starting score passes half the
    match length, the late player forfeits (the same submission says so).
    """

    def decide(match: Match, role: Role) -> Outcome:
        if isinstance(points, bool) or not isinstance(points, int) or points < 1:
            raise refuse(
                _("Penalty points are a whole number of 1 or more."), code="invalid", field="points"
            )
        if match.status not in (Match.Status.PENDING, Match.Status.READY) or _has_games(match):
            raise refuse(
                _(
                    "Match {match_pk} has started: penalty points are given before the first game."
                ).format(match_pk=match.pk),
                code="match-started",
            )
        _both_players(match)
        side = _side_of_entry(match, against_entry_id, "player")
        payload: dict[str, Any] = {
            "penalty": points,
            "against": _player_id(match, side),
            "reason": reason,
        }
        if side == 1:
            match.start_score2 += points
            match.score2 = awarded = match.start_score2
        else:
            match.start_score1 += points
            match.score1 = awarded = match.start_score1
        if awarded > MAX_SCORE:
            raise refuse(_("That score is too large to record."), code="score-too-large")
        outcome = Outcome(
            match_changed=True, payload=payload, fields=("start_score1", "start_score2")
        )
        if awarded * 2 > match.length:
            _complete(match, winner_side=3 - side, decision=Match.Decision.FORFEIT)
            payload["forfeit"] = (
                f"penalty points past half the match length ({awarded} of {match.length})"
            )
            payload["winner"] = _player_id(match, 3 - side)
            outcome.completed = True
        return outcome

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.RESOLVE,
        actor=actor,
        meta=meta,
        payload={"penalty": points, "against_entry": against_entry_id, "reason": reason},
        decide=decide,
        role_of=role_of,
        prelock=prelock,
    )


def _correct(
    match: Match,
    *,
    winner_side: int,
    score: tuple[int, int] | None,
    followups: Followups | None,
) -> Outcome:
    """Change a complete match's result to ``winner_side`` (and ``score``, when given)."""
    old_side = 1 if match.winner_id == match.entry1_id else 2
    old_score = (match.score1, match.score2)
    decision = match.decision
    if score is None and decision in PLAYED_DECISIONS and winner_side != old_side:
        score = (old_score[1], old_score[0])  # the new winner has the points the old one had
        if score[0] < match.start_score1 or score[1] < match.start_score2:
            raise refuse(
                _(
                    "Swapped, the score {score_0}-{score_1} would be below the "
                    "match's start ({match_start_score1}-{match_start_score2}): "
                    "give the final score."
                ).format(
                    score_0=score[0],
                    score_1=score[1],
                    match_start_score1=match.start_score1,
                    match_start_score2=match.start_score2,
                ),
                code="score-needed",
                field="score",
            )
    if winner_side == old_side and (score is None or score == old_score):
        return Outcome()  # nothing to change: stored, accepted, as asked
    winner_changes = winner_side != old_side
    if winner_changes and match.advanced_at is not None and followups is None:
        raise Conflict(
            _(
                "This result has already moved the bracket on: change the "
                "winner with the correction in the director's console (or "
                "POST .../correct/ or .../score/), which re-seats the next "
                "round."
            ),
            code="bracket-moved-on",
        )
    if winner_changes and followups is not None:
        followups.undo(match)
    outcome = Outcome(match_changed=True, completed=True)
    if score is not None:
        match.score1, match.score2 = score
        decision = Match.Decision.SCORE  # the result is now the director's score
        outcome.void = _has_games(match)  # the games no longer add up to it: kept, marked
    _complete(match, winner_side=winner_side, decision=decision)
    if winner_changes and followups is not None:
        outcome.after = followups.redo
    return outcome


def match_final_score(
    *,
    match_id: int,
    actor: Actor,
    meta: RequestMeta,
    score: tuple[int, int],
    confirm: bool = False,
    reason: str = "",
    followups: Followups | None = None,
    role_of: RoleOf = system_role,
    prelock: Callable[[], None] | None = None,
    idempotency_key: str = "",
) -> Match:
    """A director enters a match's final score alone, or corrects a decided one.

    Entered on an undecided match without games: the match is complete, decided
    ``score`` ("score only"), the player who reached the length wins. On a complete
    match it corrects the score (its games, if any, are voided: they no longer add up
    to it); a change of winner needs ``followups`` once the result has moved on.
    """
    score = (score[0], score[1])

    def decide(match: Match, role: Role) -> Outcome:
        _both_players(match)
        checked = final_score_check(match, score, confirm=confirm)
        if match.status == Match.Status.COMPLETE:
            return _correct(
                match, winner_side=checked.winner_side, score=score, followups=followups
            )
        if _has_games(match):
            raise refuse(
                _(
                    "Match {match_pk} already has games reported; settle it from "
                    "those (confirm or resolve the report)."
                ).format(match_pk=match.pk),
                code="match-started",
                field="score",
            )
        match.score1, match.score2 = score
        _complete(match, winner_side=checked.winner_side, decision=Match.Decision.SCORE)
        return Outcome(match_changed=True, completed=True)

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.SCORE,
        actor=actor,
        meta=meta,
        payload={"final_score": list(score), "confirm": confirm, "reason": reason},
        decide=decide,
        role_of=role_of,
        prelock=prelock,
        undoable=followups is not None,
        idempotency_key=idempotency_key,
    )


def match_winner_correct(
    *,
    match_id: int,
    actor: Actor,
    meta: RequestMeta,
    winner_entry_id: int,
    score: tuple[int, int] | None = None,
    confirm: bool = False,
    reason: str = "",
    cascade: bool = False,
    followups: Followups | None = None,
    role_of: RoleOf = system_role,
    prelock: Callable[[], None] | None = None,
) -> Match:
    """Change a decided match's winner, keeping winner and score consistent.

    Without ``score`` a played (or score-only) result is swapped: the new winner gets
    the points the old winner had, the old winner the new winner's; a forfeit or
    walkover keeps its score. With ``score``, it must be one the new winner won
    (field-level 400 otherwise) and the result becomes score-only. Games that no longer
    add up to the score are voided (kept, marked). ``cascade`` is the caller's (it is
    stored with the submission).
    """
    payload: dict[str, Any] = {
        "correct_winner_entry": winner_entry_id,
        "cascade": cascade,
        "reason": reason,
    }
    if score is not None:
        payload["final_score"] = list(score)
        payload["confirm"] = confirm

    def decide(match: Match, role: Role) -> Outcome:
        if match.status != Match.Status.COMPLETE or match.winner_id is None:
            raise refuse(
                _("Match {match_pk} is not decided yet: there is no winner to correct.").format(
                    match_pk=match.pk
                ),
                code="match-not-decided",
            )
        if match.is_bye:
            raise refuse(
                _("Match {match_pk} is a bye: nobody else could win it.").format(match_pk=match.pk),
                code="bye",
            )
        side = _side_of_entry(match, winner_entry_id, "winner")
        if score is not None:
            final_score_check(match, score, winner_side=side, confirm=confirm)
        stored = {
            **payload,
            "correct_winner": _player_id(match, side),
            "previous_winner": _player_id(match, 1 if match.winner_id == match.entry1_id else 2),
            "previous_score": [match.score1, match.score2],
        }
        outcome = _correct(match, winner_side=side, score=score, followups=followups)
        outcome.payload = stored
        return outcome

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.RESOLVE,
        actor=actor,
        meta=meta,
        payload=payload,
        decide=decide,
        role_of=role_of,
        prelock=prelock,
        undoable=True,
    )


#: Decisions taken without play, which a director may take back (the match is played after all).
REOPENABLE = (Match.Decision.FORFEIT, Match.Decision.WALKOVER)


def match_decision_reopen(
    *,
    match_id: int,
    actor: Actor,
    meta: RequestMeta,
    reason: str = "",
    followups: Followups | None = None,
    role_of: RoleOf = system_role,
    prelock: Callable[[], None] | None = None,
) -> Match:
    """Take back a forfeit or a walkover: the match is ready to be played again (no winner,
    its starting score). What the result moved on is taken back first by ``followups``
    (refused, e.g. ``next-match-started``, once the winner has played on); without
    ``followups`` a result that moved the bracket on is refused (``bracket-moved-on``).
    """

    def decide(match: Match, role: Role) -> Outcome:
        if match.status != Match.Status.COMPLETE or match.decision not in REOPENABLE:
            raise refuse(
                _(
                    "Match {match_pk} was not decided by forfeit or walkover: "
                    "there is nothing to reopen (correct a played result "
                    "instead)."
                ).format(match_pk=match.pk),
                code="not-reopenable",
            )
        _both_players(match)
        if match.advanced_at is not None and followups is None:
            raise Conflict(
                _(
                    "This result has already moved the bracket on: reopen it "
                    "from the director's console (or POST .../reopen/), which "
                    "takes the winner back out of the next round."
                ),
                code="bracket-moved-on",
            )
        stored = {
            "reopen": True,
            "reason": reason,
            "previous_decision": match.decision,
            "previous_winner": _player_id(match, 1 if match.winner_id == match.entry1_id else 2),
            "previous_score": [match.score1, match.score2],
        }
        if followups is not None:
            followups.undo(match)
        match_reopen(match, ready=match.round.status != "pending")
        return Outcome(
            match_changed=True,
            payload=stored,
            after=followups.redo if followups is not None else None,
        )

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.RESOLVE,
        actor=actor,
        meta=meta,
        payload={"reopen": True, "reason": reason},
        decide=decide,
        role_of=role_of,
        prelock=prelock,
        undoable=True,
    )
