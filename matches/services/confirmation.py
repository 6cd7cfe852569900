"""After a result is reported: the opponent confirms or disputes; a director resolves.

A player's result is provisional (``reported``) until the opponent or a director
confirms it (``complete``). A dispute sends the match to the director's queue
(``disputed``); the director's decision is final, may replace the games (the old
ones are voided, never deleted) and completes the match when it is decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, Role, director_role
from matches.errors import Conflict, Forbidden, Invalid
from matches.models import Match, Submission
from matches.rules.match import MatchState
from matches.selectors import match_state
from matches.services.ledger import Outcome, submission_run
from matches.services.reporting import (
    GameInput,
    game_input_from_payload,
    game_input_payload,
    games_build,
    match_progress,
    side_game,
)


def _confirm_decide(match: Match, role: Role) -> Outcome:
    if match.status == Match.Status.COMPLETE:
        raise Conflict(_("This match is already complete."), code="already-complete")
    if match.status != Match.Status.REPORTED:
        raise Conflict(_("There is no reported result to confirm."), code="nothing-to-confirm")
    if role.player and role.entry_id == match.reported_by_id:
        raise Forbidden(
            _("You reported this result: your opponent (or a director) confirms it."),
            code="own-report",
        )
    match.status = Match.Status.COMPLETE
    match.confirmed_at = timezone.now()
    return Outcome(match_changed=True, completed=True)


def match_confirm(
    *, match_id: int, actor: Actor, meta: RequestMeta, idempotency_key: str = ""
) -> Match:
    """The opponent (or a director) confirms the reported result: the match is complete."""
    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.CONFIRM,
        actor=actor,
        meta=meta,
        payload={},
        decide=_confirm_decide,
        idempotency_key=idempotency_key,
    )


def match_dispute(
    *, match_id: int, actor: Actor, reason: str, meta: RequestMeta, idempotency_key: str = ""
) -> Match:
    """A player disputes the games recorded so far: the match goes to the director's queue."""

    def decide(match: Match, role: Role) -> Outcome:
        if not role.player:
            raise Invalid(
                _("Directors settle disputes: resolve the match instead."), code="director-resolves"
            )
        if not reason.strip():
            raise Invalid(_("Say what is wrong."), code="invalid", field="reason")
        if match.status == Match.Status.DISPUTED:
            return Outcome()
        if match.status == Match.Status.COMPLETE:
            raise Conflict(
                _("This match is complete; ask a director to correct it."), code="match-closed"
            )
        if match.status not in (Match.Status.PLAYING, Match.Status.REPORTED):
            raise Conflict(_("No result has been reported yet."), code="nothing-to-dispute")
        match.status = Match.Status.DISPUTED
        return Outcome(match_changed=True)

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.DISPUTE,
        actor=actor,
        meta=meta,
        payload={"reason": reason},
        decide=decide,
        idempotency_key=idempotency_key,
    )


def _adopted_games(match: Match, version: int) -> list[GameInput]:
    submission = Submission.objects.filter(match_id=match.pk, version=version).first()
    if submission is None:
        raise Invalid(
            _("This match has no submission version {version}.").format(version=version),
            code="invalid",
            field="submission",
        )
    games = submission.payload.get("games") if isinstance(submission.payload, dict) else None
    if not games:
        raise Invalid(
            _("Submission {version} is not a whole-match report: it has no games to adopt.").format(
                version=version
            ),
            code="invalid",
            field="submission",
        )
    return [game_input_from_payload(g) for g in games]


def match_resolve(
    *,
    match_id: int,
    actor: Actor,
    meta: RequestMeta,
    note: str = "",
    games: Sequence[GameInput] | None = None,
    from_version: int | None = None,
    idempotency_key: str = "",
) -> Match:
    """A director's final decision on a match (``idempotency_key``: sent again, nothing
    is recorded twice).

    With ``games`` (or the games of submission ``from_version``) the recorded games
    are voided and replaced; without, the recorded games stand. Either way the match
    is complete if the games decide it, otherwise play goes on.
    """
    payload: dict[str, Any] = {"note": note}
    if games is not None:
        payload["games"] = [game_input_payload(g) for g in games]
    if from_version is not None:
        payload["from_submission"] = from_version

    def decide(match: Match, role: Role) -> Outcome:
        if (
            match.is_bye
            or match.status == Match.Status.PENDING
            or None in (match.entry1, match.entry2)
        ):
            raise Conflict(_("This match is not ready to be played yet."), code="match-not-ready")
        if games is not None and from_version is not None:
            raise Invalid(
                _("Give the games or a submission to adopt, not both."),
                code="invalid",
                field="games",
            )
        chosen = list(games) if games is not None else None
        if from_version is not None:
            chosen = _adopted_games(match, from_version)
        outcome = Outcome(match_changed=True)
        if chosen is None and match.decision in (Match.Decision.FORFEIT, Match.Decision.WALKOVER):
            match.status = Match.Status.COMPLETE  # the forfeit or walkover stands
            outcome.completed = True
            return outcome
        old_winner = match.winner_id
        was_complete = match.status == Match.Status.COMPLETE
        if chosen is None:
            state = match_state(match=match)
        else:
            start = MatchState.start(match.length, (match.start_score1, match.start_score2))
            rows, state = games_build(
                match, start, [side_game(match, g, i) for i, g in enumerate(chosen)]
            )
            outcome.games = rows
            outcome.void = True
        if was_complete and not state.is_over:
            raise Invalid(
                _(
                    "The games end at {state_score_0}-{state_score_1}: a "
                    "complete match can only be corrected to games that decide "
                    "the {match_length}-point match."
                ).format(
                    state_score_0=state.score[0],
                    state_score_1=state.score[1],
                    match_length=match.length,
                ),
                code="match-not-finished",
                score=list(state.score),
            )
        outcome.completed = match_progress(match, role, state)
        if was_complete and match.advanced_at is not None and match.winner_id != old_winner:
            raise Conflict(
                _(
                    "This result has already moved the bracket on: change the "
                    "winner with the correction in the director's console, which "
                    "re-seats the next round."
                ),
                code="bracket-moved-on",
            )
        return outcome

    return submission_run(
        match_id=match_id,
        kind=Submission.Kind.RESOLVE,
        actor=actor,
        meta=meta,
        payload=payload,
        decide=decide,
        role_of=director_role,
        idempotency_key=idempotency_key,
    )
