"""A director's decisions on a match: forfeit, walkover, late-arrival penalty points,
a result entered game by game, and corrections of a decided winner.

Every decision is stored as a submission (``as_director``) so the audit trail is
complete; completing a match announces it, and the ``match_completed`` task moves
the bracket on after the commit. Corrections move the bracket themselves, in the
same transaction, because they first have to take the old move back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from matches.models import Game, Match, Submission
from matches.signals import announce_match_changed, announce_match_completed
from tournament.models import Entry, User
from tournament.services.advance import BracketMover
from tournament.services.common import event_lock, refuse

OPEN = (
    Match.Status.PENDING,
    Match.Status.READY,
    Match.Status.PLAYING,
    Match.Status.REPORTED,
    Match.Status.DISPUTED,
)


def _lock(match: Match) -> Match:
    """The match row locked, after its event's (see ``event_lock``)."""
    event_lock(match.event_id)
    return (
        Match.objects.select_for_update(of=("self",), no_key=True)
        .select_related("round", "event")
        .get(pk=match.pk)
    )


def _submit(match: Match, *, kind: str, by: User | None, payload: dict[str, object]) -> Submission:
    version = (match.submissions.aggregate(top=Max("version"))["top"] or 0) + 1
    return Submission.objects.create(
        match=match,
        version=version,
        kind=kind,
        status=Submission.Status.ACCEPTED,
        submitted_by=by if by is not None and by.is_authenticated else None,
        as_director=True,
        payload=payload,
    )


def _side_of(match: Match, entry: Entry, *, field_name: str) -> int:
    if entry.pk == match.entry1_id:
        return 1
    if entry.pk == match.entry2_id:
        return 2
    raise refuse(
        f"{entry.player} does not play match {match.pk}.", code="not-in-match", field=field_name
    )


def _complete(match: Match, *, winner_id: int, decision: str, now: dt.datetime) -> None:
    match.winner_id = winner_id
    match.decision = decision
    match.status = Match.Status.COMPLETE
    match.reported_by = None
    match.decided_at = match.confirmed_at = now
    match.save()
    announce_match_changed(match.pk, match.event_id)
    announce_match_completed(match.pk, match.event_id)


def _decide_without_play(
    *, match: Match, winner: Entry, reason: str, by: User | None, decision: str
) -> Match:
    with transaction.atomic():
        match = _lock(match)
        if match.status not in OPEN:
            raise refuse(
                f"Match {match.pk} is already decided; correct its winner instead.",
                code="match-decided",
            )
        if match.entry1_id is None or match.entry2_id is None:
            raise refuse(
                f"Match {match.pk} does not have both players yet.", code="match-not-ready"
            )
        _side_of(match, winner, field_name="winner")
        _submit(
            match,
            kind=Submission.Kind.FORFEIT,
            by=by,
            payload={"decision": decision, "winner": winner.player_id, "reason": reason},
        )
        _complete(match, winner_id=winner.pk, decision=decision, now=timezone.now())
    return match


def match_forfeit(
    *, match: Match, winner: Entry, reason: str = "", by: User | None = None
) -> Match:
    """``winner``'s opponent forfeits (did not finish, broke a rule, gave up)."""
    return _decide_without_play(
        match=match, winner=winner, reason=reason, by=by, decision=Match.Decision.FORFEIT
    )


def match_walkover(
    *, match: Match, winner: Entry, reason: str = "", by: User | None = None
) -> Match:
    """``winner``'s opponent never turned up: ``winner`` goes through without playing."""
    return _decide_without_play(
        match=match, winner=winner, reason=reason, by=by, decision=Match.Decision.WALKOVER
    )


def match_penalty_add(
    *, match: Match, against: Entry, points: int, reason: str = "", by: User | None = None
) -> Match:
    """Late-arrival penalty: ``against``'s opponent starts ``points`` further on.

    Only before the first game. Once the opponent's starting score passes half the
    match length, ``against`` forfeits the match.
    """
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise refuse(
            "Penalty points are a whole number of 1 or more.", code="invalid", field="points"
        )
    with transaction.atomic():
        match = _lock(match)
        if match.status not in (Match.Status.PENDING, Match.Status.READY) or match.games.exists():
            raise refuse(
                f"Match {match.pk} has started: penalty points are given before the first game.",
                code="match-started",
            )
        if match.entry1_id is None or match.entry2_id is None:
            raise refuse(
                f"Match {match.pk} does not have both players yet.", code="match-not-ready"
            )
        side = _side_of(match, against, field_name="player")
        opponent = match.entry2_id if side == 1 else match.entry1_id
        assert opponent is not None
        _submit(
            match,
            kind=Submission.Kind.RESOLVE,
            by=by,
            payload={"penalty": points, "against": against.player_id, "reason": reason},
        )
        if side == 1:
            match.start_score2 += points
            match.score2 = match.start_score2
            awarded = match.start_score2
        else:
            match.start_score1 += points
            match.score1 = match.start_score1
            awarded = match.start_score1
        if awarded * 2 > match.length:
            _submit(
                match,
                kind=Submission.Kind.FORFEIT,
                by=by,
                payload={
                    "decision": Match.Decision.FORFEIT,
                    "winner": Entry.objects.values_list("player_id", flat=True).get(pk=opponent),
                    "reason": f"penalty points past half the match length ({awarded} of {match.length})",
                },
            )
            _complete(
                match, winner_id=opponent, decision=Match.Decision.FORFEIT, now=timezone.now()
            )
        else:
            match.save()
            announce_match_changed(match.pk, match.event_id)
    return match


@dataclass(frozen=True)
class GameResult:
    """One game as a director enters it: who won, the cube, and how it ended."""

    winner: int
    """1 or 2: the match's first or second player."""
    cube: int = 1
    result: str = Game.Result.SINGLE
    ended_by: str = Game.EndedBy.PLAY
    doubles: list[dict[str, object]] = field(default_factory=list)


def match_result_enter(
    *, match: Match, games: Sequence[GameResult], by: User | None = None
) -> Match:
    """A director enters a whole played match, game by game; it is checked by the rules
    engine (cube, Crawford, points, the match's end) and decides the match."""
    from matches.rules.errors import RulesError
    from matches.rules.match import (
        DoubleReport,
        GameReport,
        MatchRules,
        MatchState,
        check_game_report,
    )

    with transaction.atomic():
        match = _lock(match)
        if match.status not in OPEN:
            raise refuse(
                f"Match {match.pk} is already decided; correct its winner instead.",
                code="match-decided",
            )
        if match.entry1_id is None or match.entry2_id is None:
            raise refuse(
                f"Match {match.pk} does not have both players yet.", code="match-not-ready"
            )
        if match.games.filter(voided=False).exists():
            raise refuse(
                f"Match {match.pk} already has games reported; settle it from those.",
                code="match-started",
            )
        rules = MatchRules(length=match.length, crawford=match.crawford, holland=match.holland)
        state = MatchState.start(match.length, (match.start_score1, match.start_score2))
        submission = _submit(
            match,
            kind=Submission.Kind.MATCH,
            by=by,
            payload={"games": [g.__dict__ for g in games]},
        )
        rows: list[Game] = []
        for number, game in enumerate(games, start=state.game_number):
            if game.winner not in (1, 2):
                raise refuse(
                    f"Game {number}: the winner is player 1 or 2.", code="invalid", field="games"
                )
            before = state.score
            try:
                doubles = [
                    DoubleReport(
                        by=int(d["by"]) - 1,  # type: ignore[call-overload]
                        turn=int(d["turn"]),  # type: ignore[call-overload]
                        response=str(d.get("response", "take")),
                    )
                    for d in game.doubles
                ]
                checked = check_game_report(
                    state,
                    rules,
                    GameReport(
                        winner=game.winner - 1,
                        cube=game.cube,
                        result=game.result,
                        ended_by=game.ended_by,
                        doubles=doubles or None,
                    ),
                )
            except RulesError as err:
                raise refuse(
                    f"Game {number}: {err.message}", code=err.code, field="games", game=number
                ) from err
            except (KeyError, TypeError, ValueError) as err:
                raise refuse(
                    f"Game {number}: a double is {{by: 1|2, turn: n, response}}.",
                    code="invalid",
                    field="games",
                    game=number,
                ) from err
            state = state.after_game(checked.winner, checked.points)
            rows.append(
                Game(
                    match=match,
                    number=number,
                    winner_side=game.winner,
                    cube=game.cube,
                    result=game.result,
                    ended_by=game.ended_by,
                    points=checked.points,
                    score_before1=before[0],
                    score_before2=before[1],
                    crawford=checked.crawford,
                    doubles=game.doubles,
                    submission=submission,
                )
            )
        if not state.is_over:
            raise refuse(
                f"The games end at {state.score[0]}-{state.score[1]}: the match to "
                f"{match.length} is not over.",
                code="match-not-over",
                field="games",
            )
        Game.objects.bulk_create(rows)
        match.score1, match.score2 = state.score
        now = timezone.now()
        match.started_at = match.started_at or now
        winner_id = match.entry1_id if state.winner == 0 else match.entry2_id
        assert winner_id is not None
        _complete(match, winner_id=winner_id, decision=Match.Decision.PLAY, now=now)
    return match


def match_correct_winner(
    *,
    match: Match,
    winner: Entry,
    cascade: bool = False,
    reason: str = "",
    by: User | None = None,
) -> Match:
    """Change a decided match's winner and re-seat the next round.

    Refused (code ``next-match-started``) once a match the change would touch has
    started, unless ``cascade``: then that match's games are voided (kept, marked)
    and it is reopened, and so on down the bracket.
    """
    with transaction.atomic():
        match = _lock(match)
        if match.status != Match.Status.COMPLETE or match.winner_id is None:
            raise refuse(
                f"Match {match.pk} is not decided yet: there is no winner to correct.",
                code="match-not-decided",
            )
        if match.is_bye:
            raise refuse(f"Match {match.pk} is a bye: nobody else could win it.", code="bye")
        _side_of(match, winner, field_name="winner")
        if winner.pk == match.winner_id:
            return match
        mover = BracketMover()
        mover.retract(match, cascade=cascade)
        _submit(
            match,
            kind=Submission.Kind.RESOLVE,
            by=by,
            payload={
                "correct_winner": winner.player_id,
                "previous_winner": Entry.objects.values_list("player_id", flat=True).get(
                    pk=match.winner_id
                ),
                "cascade": cascade,
                "reason": reason,
            },
        )
        match.winner_id = winner.pk
        match.decided_at = match.confirmed_at = mover.now
        match.save()
        mover.advance(match)
        mover.finish()
        announce_match_completed(match.pk, match.event_id)
    return match
