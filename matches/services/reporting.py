"""Reporting results: one game as it ends, or the whole match at once.

Every report goes through the rules engine (``matches.rules``) against the match
state rebuilt from the stored games; this module decides only what an accepted
report does to the match. A match decided by a player's report is ``reported``
until the opponent confirms; a director's report needs no confirmation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, Role
from matches.errors import Conflict, Invalid, refuse
from matches.models import Game, Match
from matches.rules.errors import ScoreMismatch
from matches.rules.match import DoubleReport, GameReport, MatchState, check_game_report
from matches.selectors import match_every_game, match_rules, match_state
from matches.services.ledger import Outcome, submission_run

#: Scores are stored in small integers.
MAX_SCORE = 32767


@dataclass(frozen=True, slots=True)
class DoubleInput:
    """A double as a client reports it: by which player (id), on the doubler's turn ``turn``."""

    by: int
    turn: int
    response: str = "take"


@dataclass(frozen=True, slots=True)
class GameInput:
    """A game as a client reports it; players are named by their ids."""

    winner: int
    cube: int = 1
    result: str = "single"
    ended_by: str = "play"
    doubles: tuple[DoubleInput, ...] | None = None
    game_number: int | None = None


@dataclass(frozen=True, slots=True)
class SideGame:
    """A game in the engine's terms: sides 0 (the match's first player) and 1."""

    report: GameReport
    moves: list[Any] | None = None
    doubles: tuple[DoubleReport, ...] | None = None  # read from a record, shown with the game

    def key(self) -> tuple[int, int, str, str]:
        """What two reports of the same game must agree on."""
        r = self.report
        return (r.winner, r.cube, str(r.result), str(r.ended_by))


def game_input_payload(game: GameInput) -> dict[str, Any]:
    """A game input as JSON (stored in submissions; a director may adopt it later)."""
    return {
        "winner": game.winner,
        "cube": game.cube,
        "result": game.result,
        "ended_by": game.ended_by,
        **(
            {
                "doubles": [
                    {"by": d.by, "turn": d.turn, "response": d.response} for d in game.doubles
                ]
            }
            if game.doubles is not None
            else {}
        ),
        **({"game_number": game.game_number} if game.game_number is not None else {}),
    }


def game_input_from_payload(data: dict[str, Any]) -> GameInput:
    """The inverse of :func:`game_input_payload`."""
    doubles = data.get("doubles")
    return GameInput(
        winner=int(data["winner"]),
        cube=int(data.get("cube", 1)),
        result=str(data.get("result", "single")),
        ended_by=str(data.get("ended_by", "play")),
        doubles=None
        if doubles is None
        else tuple(
            DoubleInput(
                by=int(d["by"]), turn=int(d["turn"]), response=str(d.get("response", "take"))
            )
            for d in doubles
        ),
        game_number=data.get("game_number"),
    )


def _side(match: Match, player_id: int, field: str) -> int:
    """0 or 1: which of the match's players ``player_id`` is."""
    for side, entry in enumerate((match.entry1, match.entry2)):
        if entry is not None and entry.player_id == player_id:
            return side
    raise Invalid(
        _("Player {player_id} does not play in this match.").format(player_id=player_id),
        code="not-in-match",
        field=field,
    )


def side_game(match: Match, game: GameInput, index: int | None = None) -> SideGame:
    """Translate a client's game (player ids) into the engine's sides."""
    where = "winner" if index is None else f"games[{index}].winner"
    doubles = None
    if game.doubles is not None:
        doubles = tuple(
            DoubleReport(
                by=_side(match, d.by, where.replace("winner", f"doubles[{i}].by")),
                turn=d.turn,
                response=d.response,
            )
            for i, d in enumerate(game.doubles)
        )
    report = GameReport(
        winner=_side(match, game.winner, where),
        cube=game.cube,
        result=game.result,
        ended_by=game.ended_by,
        doubles=doubles,
    )
    return SideGame(report=report)


def _check_open(match: Match, role: Role) -> None:
    """Refuse reports on matches that cannot take one."""
    if match.is_bye or match.status == Match.Status.PENDING or None in (match.entry1, match.entry2):
        raise Conflict(_("This match is not ready to be played yet."), code="match-not-ready")
    if match.decision and match.decision != Match.Decision.PLAY:
        raise Conflict(
            _("This match was decided by {match_get_decision_display_low}.").format(
                match_get_decision_display_low=match.decision_in_text()
            ),
            code="match-closed",
        )
    if match.status == Match.Status.DISPUTED and not role.director:
        raise Conflict(
            _("This match is disputed: a director will settle it."), code="match-disputed"
        )


def games_build(
    match: Match, state: MatchState, games: Sequence[SideGame]
) -> tuple[list[Game], MatchState]:
    """Check each game with the rules engine in order; the unsaved rows and the state after."""
    rules = match_rules(match)
    rows: list[Game] = []
    for game in games:
        checked = check_game_report(state, rules, game.report)
        doubles = [
            {
                "side": d.by + 1,
                "player": (match.entry1 if d.by == 0 else match.entry2).player_id,  # type: ignore[union-attr]
                "turn": d.turn,
                "response": str(d.response),
            }
            for d in game.report.doubles or game.doubles or ()
        ]
        before = state.score
        state = state.after_game(checked.winner, checked.points)
        if max(state.score) > MAX_SCORE:
            raise Invalid(_("That score is too large to record."), code="score-too-large")
        rows.append(
            Game(
                number=len(state.scores) - 1,
                winner_side=checked.winner + 1,
                cube=checked.cube,
                result=str(checked.result),
                ended_by=str(checked.ended_by),
                points=checked.points,
                score_before1=before[0],
                score_before2=before[1],
                crawford=checked.crawford,
                doubles=doubles,
                moves=game.moves,
            )
        )
    return rows, state


def match_progress(match: Match, role: Role, state: MatchState) -> bool:
    """Bring the match's score and status in line with ``state``; ``True`` when it completed."""
    now = timezone.now()
    match.score1, match.score2 = state.score
    if match.started_at is None and state.game_number > 1:
        match.started_at = now
    if not state.is_over:
        match.status = Match.Status.PLAYING if state.game_number > 1 else Match.Status.READY
        match.winner = None
        match.decision = ""
        match.reported_by = None
        match.decided_at = None
        match.confirmed_at = None
        return False
    match.winner = match.entry1 if state.winner == 0 else match.entry2
    match.decision = Match.Decision.PLAY
    match.decided_at = now
    if role.director:
        match.status = Match.Status.COMPLETE
        match.reported_by = None
        match.confirmed_at = now
        return True
    match.status = Match.Status.REPORTED
    match.reported_by_id = role.entry_id
    match.confirmed_at = None
    return False


def _game_key(game: Game) -> tuple[int, int, str, str]:
    return (game.winner_side - 1, game.cube, game.result, game.ended_by)


def conflict_dispute(match: Match, message: str, **detail: Any) -> Outcome:
    """A player's report contradicts the opponent's: the match goes to the dispute queue."""
    match.status = Match.Status.DISPUTED
    return Outcome(
        match_changed=True,
        error=Conflict(
            _("{message} The match goes to the director, who will settle it.").format(
                message=message
            ),
            code="conflicting-report",
            **detail,
        ),
    )


def _reported_by_opponent(game: Game, role: Role) -> bool:
    submission = game.submission
    return (
        role.player
        and submission is not None
        and not submission.as_director
        and submission.via_entry_id is not None
        and submission.via_entry_id != role.entry_id
    )


def _game_decide(game: GameInput) -> Any:
    def decide(match: Match, role: Role) -> Outcome:
        _check_open(match, role)
        every = match_every_game(match=match)
        stored = [g for g in every if not g.voided]
        state = match_state(match=match, games=stored)
        reported = side_game(match, game)
        number = game.game_number
        if number is not None and number < 1:
            raise Invalid(_("Games are numbered from 1."), code="invalid", field="game_number")
        if number is not None and number < state.game_number:
            existing = next(g for g in stored if g.number == number)
            if _game_key(existing) == reported.key():
                raise Conflict(
                    _("Game {number} is already recorded, with this result.").format(number=number),
                    code="game-already-recorded",
                    game=number,
                )
            if _reported_by_opponent(existing, role):
                return conflict_dispute(
                    match,
                    _("Your opponent reported game {number} differently.").format(number=number),
                    game=number,
                )
            raise Conflict(
                _(
                    "Game {number} is already recorded with another result; "
                    "dispute the match if it is wrong."
                ).format(number=number),
                code="game-already-recorded",
                game=number,
            )
        if number is not None and number > state.game_number:
            raise Conflict(
                _("Game {number} cannot be reported before game {state_game_number}.").format(
                    number=number, state_game_number=state.game_number
                ),
                code="game-out-of-order",
                game=number,
                expected=state.game_number,
            )
        rows, after = games_build(match, state, [reported])
        completed = match_progress(match, role, after)
        return Outcome(
            games=rows, match_changed=True, completed=completed, games_after=every + rows
        )

    return decide


def game_report(
    *, match_id: int, actor: Actor, game: GameInput, meta: RequestMeta, idempotency_key: str = ""
) -> Match:
    """Report the next game of a match (``game.game_number``, when given, must be the next).

    ``idempotency_key``: the same report sent again with it records nothing
    (``matches.services.idempotency``)."""
    return submission_run(
        match_id=match_id,
        kind="game",
        actor=actor,
        meta=meta,
        payload=game_input_payload(game),
        decide=_game_decide(game),
        idempotency_key=idempotency_key,
    )


def _entry_check(match: Match, stored: Sequence[Game]) -> None:
    """A director enters a whole match only on an undecided one with no games (400)."""
    if match.status == Match.Status.COMPLETE:
        raise refuse(
            _("Match {match_pk} is already decided; correct its winner instead.").format(
                match_pk=match.pk
            ),
            code="match-decided",
        )
    if stored:
        raise refuse(
            _("Match {match_pk} already has games reported; settle it from those.").format(
                match_pk=match.pk
            ),
            code="match-started",
        )


def whole_match_decide(
    games: Sequence[SideGame] | Any, score: tuple[int, int] | None, *, entered: bool = False
) -> Any:
    """The decision for a whole-match report; ``games`` may be a callable of the locked match.

    ``entered``: a director's entry of the whole match, game by game, which is taken only
    on an undecided match with no games (otherwise settle it from the games reported).

    Its steps: the reported games replayed from the match's starting score
    (:func:`_whole_match_games`); then on a match awaiting confirmation, the opponent's
    report confirms it or disputes it (:func:`_whole_match_confirm`); otherwise the games
    are recorded after those already stored (:func:`_whole_match_record`).
    """

    def decide(match: Match, role: Role) -> Outcome:
        _check_open(match, role)
        every = match_every_game(match=match, moves=True)
        stored = [g for g in every if not g.voided]
        if entered:
            _entry_check(match, stored)
        reported = list(games(match) if callable(games) else games)
        rows, after = _whole_match_games(match, reported, score)
        if match.status == Match.Status.COMPLETE:
            raise Conflict(
                _("This match is complete; a director can correct it."), code="match-closed"
            )
        if match.status == Match.Status.REPORTED:
            return _whole_match_confirm(match, role, stored, rows)
        return _whole_match_record(match, role, every, stored, rows, after)

    return decide


def _whole_match_games(
    match: Match, reported: Sequence[SideGame], score: tuple[int, int] | None
) -> tuple[list[Game], MatchState]:
    """The reported games as rows from the match's starting score, and the state after them;
    refused unless they finish the match (at ``score``, when it is given)."""
    if not reported:
        raise Invalid(_("A whole-match report needs its games."), code="invalid", field="games")
    start = MatchState.start(match.length, (match.start_score1, match.start_score2))
    rows, after = games_build(match, start, reported)
    if score is not None and tuple(score) != after.score:
        raise ScoreMismatch(
            f"the games add up to {after.score[0]}-{after.score[1]}, "
            f"not the reported {score[0]}-{score[1]}",
            score=list(after.score),
        )
    if not after.is_over:
        raise Invalid(
            _(
                "The games end at {after_score_0}-{after_score_1}: the "
                "{match_length}-point match is not finished."
            ).format(
                after_score_0=after.score[0],
                after_score_1=after.score[1],
                match_length=match.length,
            ),
            code="match-not-finished",
            score=list(after.score),
        )
    return rows, after


def _same_games(stored: Sequence[Game], rows: Sequence[Game]) -> bool:
    """Whether two lists of games have the same results, game by game."""
    return len(stored) == len(rows) and all(
        _game_key(a) == _game_key(b) for a, b in zip(stored, rows, strict=True)
    )


def _whole_match_confirm(
    match: Match, role: Role, stored: Sequence[Game], rows: Sequence[Game]
) -> Outcome:
    """A whole-match report on a match awaiting confirmation: the opponent's report of the
    same games confirms it; different games send it to the director."""
    if not role.player or role.entry_id == match.reported_by_id:
        raise Conflict(
            _("This match's result is already reported and awaits confirmation."),
            code="already-reported",
        )
    if not _same_games(stored, rows):
        return conflict_dispute(match, _("Your opponent reported this match differently."))
    match.status = Match.Status.COMPLETE
    match.confirmed_at = timezone.now()
    return Outcome(match_changed=True, completed=True)


def _whole_match_record(
    match: Match,
    role: Role,
    every: list[Game],
    stored: Sequence[Game],
    rows: list[Game],
    after: MatchState,
) -> Outcome:
    """Record a whole match after the games already stored, which must agree with it.

    The games already recorded keep their rows (gaining the file's moves); the rest are added.
    """
    for old, new in zip(stored, rows, strict=False):
        if _game_key(old) != _game_key(new):
            if _reported_by_opponent(old, role):
                return conflict_dispute(
                    match,
                    _("Your opponent reported game {number} differently.").format(
                        number=old.number
                    ),
                    game=old.number,
                )
            raise Conflict(
                _(
                    "Game {old_number} is already recorded with another result; "
                    "dispute the match if it is wrong."
                ).format(old_number=old.number),
                code="games-differ",
                game=old.number,
            )
    moves = {
        old.pk: new.moves
        for old, new in zip(stored, rows, strict=False)
        if old.moves is None and new.moves is not None
    }
    completed = match_progress(match, role, after)
    added = rows[len(stored) :]
    return Outcome(
        games=added,
        moves=moves,
        match_changed=True,
        completed=completed,
        games_after=every + added,
    )


def match_report(
    *,
    match_id: int,
    actor: Actor,
    games: Sequence[GameInput],
    score: tuple[int, int] | None,
    meta: RequestMeta,
    idempotency_key: str = "",
) -> Match:
    """Report a whole match: its games (cube and result each) and, optionally, the final score."""
    payload: dict[str, Any] = {"games": [game_input_payload(g) for g in games]}
    if score is not None:
        payload["score"] = list(score)

    def side_games(match: Match) -> list[SideGame]:
        return [side_game(match, g, i) for i, g in enumerate(games)]

    return submission_run(
        match_id=match_id,
        kind="match",
        actor=actor,
        meta=meta,
        payload=payload,
        decide=whole_match_decide(side_games, score),
        idempotency_key=idempotency_key,
    )
