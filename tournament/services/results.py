"""A director's decisions on a match, as the tournament side asks for them: forfeit,
walkover, late-arrival penalty points, a result entered game by game or as its final
score alone, and corrections of a decided winner.

Each one is a report through the matches app's one writer
(:mod:`matches.services.decisions`, :mod:`matches.services.reporting`): stored as a
versioned submission (``as_director``), accepted or rejected, a refused one included.
The event is locked before the match (see ``event_lock``). Completing a match
announces it, and the ``match_completed`` task moves the bracket on after the commit;
a correction of a winner re-seats the bracket itself, in the same transaction,
because it first has to take the old move back (:class:`Reseat`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from matches.models import Game, Match
from matches.rules.match import DoubleReport, GameReport
from matches.services.access import Actor, Role, director_role
from matches.services.decisions import (
    OPEN,
    match_decide_without_play,
    match_final_score,
    match_penalty,
    match_winner_correct,
    system_role,
)
from matches.services.ledger import RequestMeta, submission_run
from matches.services.reporting import (
    DoubleInput,
    GameInput,
    SideGame,
    game_input_payload,
    whole_match_decide,
)
from tournament.models import Entry, User
from tournament.services.advance import BracketMover
from tournament.services.common import event_lock, refuse

__all__ = [
    "OPEN",
    "GameResult",
    "Reseat",
    "match_correct_winner",
    "match_final_score_enter",
    "match_forfeit",
    "match_penalty_add",
    "match_result_enter",
    "match_walkover",
]


def _as(by: User | None) -> tuple[Actor, Callable[..., Role]]:
    """Who acts: a director's account is checked as one; no account is the application."""
    if by is not None and by.is_authenticated:
        return Actor(user=by), director_role
    return Actor(), system_role


def _event_lock(match: Match) -> Callable[[], None]:
    """Lock the match's event before the match itself (see ``event_lock``)."""
    return lambda: event_lock(match.event_id)


def _common(match: Match, by: User | None, meta: RequestMeta | None) -> dict[str, object]:
    actor, role_of = _as(by)
    return {
        "match_id": match.pk,
        "actor": actor,
        "meta": meta or RequestMeta(),
        "role_of": role_of,
        "prelock": _event_lock(match),
    }


def match_forfeit(
    *,
    match: Match,
    winner: Entry,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """``winner``'s opponent forfeits (did not finish, broke a rule, gave up)."""
    return match_decide_without_play(
        winner_entry_id=winner.pk,
        decision=Match.Decision.FORFEIT,
        reason=reason,
        **_common(match, by, meta),  # type: ignore[arg-type]
    )


def match_walkover(
    *,
    match: Match,
    winner: Entry,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """``winner``'s opponent never turned up: ``winner`` goes through without playing."""
    return match_decide_without_play(
        winner_entry_id=winner.pk,
        decision=Match.Decision.WALKOVER,
        reason=reason,
        **_common(match, by, meta),  # type: ignore[arg-type]
    )


def match_penalty_add(
    *,
    match: Match,
    against: Entry,
    points: int,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """Late-arrival penalty: ``against``'s opponent starts ``points`` further on.

    Only before the first game. Once the opponent's starting score passes half the
    match length, ``against`` forfeits the match.
    """
    return match_penalty(
        against_entry_id=against.pk,
        points=points,
        reason=reason,
        **_common(match, by, meta),  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class GameResult:
    """One game as a director enters it: who won, the cube, and how it ended."""

    winner: int
    """1 or 2: the match's first or second player."""
    cube: int = 1
    result: str = Game.Result.SINGLE
    ended_by: str = Game.EndedBy.PLAY
    doubles: list[dict[str, object]] = field(default_factory=list)
    """Each ``{"by": 1|2, "turn": n, "response": "take"|"drop"|"beaver"}``."""


def _side_games(games: Sequence[GameResult]) -> list[SideGame]:
    """The director's games in the engine's terms (sides 0 and 1)."""
    rows = []
    for number, game in enumerate(games, start=1):
        if game.winner not in (1, 2):
            raise refuse(
                f"Game {number}: the winner is player 1 or 2.", code="invalid", field="games"
            )
        try:
            doubles = tuple(
                DoubleReport(
                    by=int(d["by"]) - 1,  # type: ignore[call-overload]
                    turn=int(d["turn"]),  # type: ignore[call-overload]
                    response=str(d.get("response", "take")),
                )
                for d in game.doubles
            )
        except (KeyError, TypeError, ValueError) as err:
            raise refuse(
                f"Game {number}: a double is {{by: 1|2, turn: n, response}}.",
                code="invalid",
                field="games",
                game=number,
            ) from err
        if any(d.by not in (0, 1) for d in doubles):
            raise refuse(
                f"Game {number}: a double is by player 1 or 2.", code="invalid", field="games"
            )
        report = GameReport(
            winner=game.winner - 1,
            cube=game.cube,
            result=game.result,
            ended_by=game.ended_by,
            doubles=doubles or None,
        )
        rows.append(SideGame(report=report))
    return rows


def _games_payload(match: Match, games: Sequence[GameResult]) -> list[dict[str, object]]:
    """The games as every whole-match report stores them (``game_input_payload``: players
    by id), so that a director may adopt them later; as entered if they name no player."""
    ids = {1: _player_of(match.entry1), 2: _player_of(match.entry2)}
    try:
        inputs = [
            GameInput(
                winner=ids[g.winner],  # type: ignore[arg-type]
                cube=g.cube,
                result=g.result,
                ended_by=g.ended_by,
                doubles=tuple(
                    DoubleInput(
                        by=ids[int(d["by"])],  # type: ignore[arg-type, call-overload]
                        turn=int(d["turn"]),  # type: ignore[call-overload]
                        response=str(d.get("response", "take")),
                    )
                    for d in g.doubles
                )
                or None,
            )
            for g in games
        ]
    except (KeyError, TypeError, ValueError):
        return [dict(g.__dict__) for g in games]
    if None in ids.values():
        return [dict(g.__dict__) for g in games]
    return [game_input_payload(g) for g in inputs]


def _player_of(entry: Entry | None) -> int | None:
    return entry.player_id if entry is not None else None


def match_result_enter(
    *,
    match: Match,
    games: Sequence[GameResult],
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """A director enters a whole played match, game by game; the rules engine checks each
    game (cube, Crawford, points, the match's end) and the games decide the match.

    The same whole-match report as a player's (``whole_match_decide``): stored as a
    ``match`` submission, accepted or rejected, and completing the match at once.
    """

    def side_games(locked: Match) -> list[SideGame]:
        if locked.status not in OPEN:
            raise refuse(
                f"Match {locked.pk} is already decided; correct its winner instead.",
                code="match-decided",
            )
        if locked.games.filter(voided=False).exists():
            raise refuse(
                f"Match {locked.pk} already has games reported; settle it from those.",
                code="match-started",
            )
        return _side_games(games)

    return submission_run(
        kind="match",
        payload={"games": _games_payload(match, games)},
        decide=whole_match_decide(side_games, None),
        **_common(match, by, meta),  # type: ignore[arg-type]
    )


class Reseat:
    """The bracket side of a changed winner: take the old result's moves back, then move
    on from the new one, in the caller's transaction (``Followups`` of the matches app)."""

    def __init__(self, *, cascade: bool) -> None:
        self.cascade = cascade
        self.mover = BracketMover()

    def undo(self, match: Match) -> None:
        self.mover.retract(match, cascade=self.cascade)

    def redo(self, match: Match) -> None:
        self.mover.advance(match)
        self.mover.finish()


def match_final_score_enter(
    *,
    match: Match,
    score1: int,
    score2: int,
    confirm: bool = False,
    cascade: bool = False,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """A director settles a match from its final score alone (the scoresheet's last
    line), or corrects a decided match's score; the bracket is re-seated if the winner
    changes. See ``matches.services.decisions.match_final_score``."""
    return match_final_score(
        score=(score1, score2),
        confirm=confirm,
        reason=reason,
        followups=Reseat(cascade=cascade),
        **_common(match, by, meta),  # type: ignore[arg-type]
    )


def match_correct_winner(
    *,
    match: Match,
    winner: Entry,
    score: tuple[int, int] | None = None,
    confirm: bool = False,
    cascade: bool = False,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """Change a decided match's winner (and its score, consistently) and re-seat the
    next round.

    Refused (code ``next-match-started``) once a match the change would touch has
    started, unless ``cascade``: then that match's games are voided (kept, marked)
    and it is reopened, and so on down the bracket. Without ``score`` the old score is
    swapped; see ``matches.services.decisions.match_winner_correct``.
    """
    return match_winner_correct(
        winner_entry_id=winner.pk,
        score=score,
        confirm=confirm,
        cascade=cascade,
        reason=reason,
        followups=Reseat(cascade=cascade),
        **_common(match, by, meta),  # type: ignore[arg-type]
    )
