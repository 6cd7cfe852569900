"""A director's decisions on a match, as the tournament side asks for them: forfeit,
walkover (``match_award``), late-arrival penalty points, a result entered game by game or as its final
score alone, and corrections of a decided winner.

Each one is a report through the matches app's one writer
(:mod:`matches.services.decisions`, :mod:`matches.services.reporting`): stored as a
versioned submission (``as_director``), accepted or rejected, a refused one included.
The event is locked before the match (see ``event_lock``). Completing a match
announces it, and the ``advance_match`` task moves the bracket on after the commit;
a correction of a winner re-seats the bracket itself, in the same transaction,
because it first has to take the old move back (:class:`Reseat`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, Role, director_role
from matches.errors import refuse
from matches.models import Game, Match
from matches.rules.match import DoubleReport, GameReport
from matches.services import decisions
from matches.services.decisions import (
    OPEN,
    match_decide_without_play,
    match_decision_reopen,
    match_final_score,
    match_penalty,
    system_role,
)
from matches.services.ledger import submission_run
from matches.services.reporting import (
    DoubleInput,
    GameInput,
    SideGame,
    game_input_payload,
    whole_match_decide,
)
from tournament.models import Entry, User
from tournament.services.advance import BracketMover
from tournament.services.common import event_lock

__all__ = [
    "OPEN",
    "GameResult",
    "Reseat",
    "match_award",
    "match_final_score_enter",
    "match_penalty_add",
    "match_reopen_decision",
    "match_result_enter",
    "match_winner_correct",
]


def _as(by: User | None) -> tuple[Actor, Callable[..., Role]]:
    """Who acts: a director's account is checked as one; no account is the application."""
    if by is not None and by.is_authenticated:
        return Actor(user=by), director_role
    return Actor(), system_role


def _event_lock(match: Match) -> Callable[[], None]:
    """Lock the match's event before the match itself (see ``event_lock``)."""
    return lambda: event_lock(match.event_id)


class DirectorCall(TypedDict):
    """The arguments every director's decision passes to the matches app's writer."""

    match_id: int
    actor: Actor
    meta: RequestMeta
    role_of: Callable[..., Role]
    prelock: Callable[[], None]


def _common(match: Match, by: User | None, meta: RequestMeta | None) -> DirectorCall:
    actor, role_of = _as(by)
    return DirectorCall(
        match_id=match.pk,
        actor=actor,
        meta=meta or RequestMeta(),
        role_of=role_of,
        prelock=_event_lock(match),
    )


def match_award(
    *,
    match: Match,
    winner: Entry,
    decision: str,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """The match goes to ``winner`` without (finishing) play: ``decision`` is
    ``Match.Decision.FORFEIT`` (the opponent did not finish, broke a rule, gave up) or
    ``Match.Decision.WALKOVER`` (the opponent never turned up)."""
    return match_decide_without_play(
        winner_entry_id=winner.pk,
        decision=decision,
        reason=reason,
        **_common(match, by, meta),
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
        **_common(match, by, meta),
    )


@dataclass(frozen=True)
class GameResult:
    """One game as a director enters it: who won, the cube, and how it ended."""

    winner: int
    """1 or 2: the match's first or second player."""
    cube: int = 1
    result: str = Game.Result.SINGLE
    ended_by: str = Game.EndedBy.PLAY
    doubles: list[dict[str, Any]] | None = None
    """Each ``{"by": 1|2, "turn": n, "response": "take"|"drop"|"beaver"}``; ``[]`` when no
    double was offered, ``None`` when the doubles are not itemised (any cube goes), as in
    a player's report."""


class _NotAPlayer(ValueError):
    """A double by somebody other than player 1 or 2."""


def _double_inputs(game: GameResult, ids: dict[int, int]) -> tuple[DoubleInput, ...] | None:
    """The game's doubles with ``ids`` naming the doubler (1 and 2 to a player or a side)."""
    if game.doubles is None:
        return None
    doubles = []
    for d in game.doubles:
        by = int(d["by"])
        if by not in ids:
            raise _NotAPlayer(by)
        turn = int(d["turn"])
        doubles.append(DoubleInput(by=ids[by], turn=turn, response=str(d.get("response", "take"))))
    return tuple(doubles)


def _side_games(games: Sequence[GameResult]) -> list[SideGame]:
    """The director's games in the engine's terms (sides 0 and 1)."""
    rows = []
    for number, game in enumerate(games, start=1):
        if game.winner not in (1, 2):
            raise refuse(
                _("Game {number}: the winner is player 1 or 2.").format(number=number),
                code="invalid",
                field="games",
            )
        try:
            doubles = _double_inputs(game, {1: 0, 2: 1})
        except _NotAPlayer as err:
            raise refuse(
                _("Game {number}: a double is by player 1 or 2.").format(number=number),
                code="invalid",
                field="games",
            ) from err
        except (KeyError, TypeError, ValueError) as err:
            raise refuse(
                _("Game {number}: a double is {{by: 1|2, turn: n, response}}.").format(
                    number=number
                ),
                code="invalid",
                field="games",
                game=number,
            ) from err
        report = GameReport(
            winner=game.winner - 1,
            cube=game.cube,
            result=game.result,
            ended_by=game.ended_by,
            doubles=None
            if doubles is None
            else tuple(DoubleReport(by=d.by, turn=d.turn, response=d.response) for d in doubles),
        )
        rows.append(SideGame(report=report))
    return rows


def _games_payload(match: Match, games: Sequence[GameResult]) -> list[dict[str, object]]:
    """The games as every whole-match report stores them, accepted or refused
    (``game_input_payload``: players by id), so that a director may adopt them later.

    Only a game that cannot be read so (a winner or a doubler other than player 1 or 2, a
    double without its turn, a match without both players) is stored as entered, with
    its ``winner`` and doubles' ``by`` as 1 or 2.
    """
    first, second = _player_of(match.entry1), _player_of(match.entry2)
    ids = {1: first, 2: second} if first is not None and second is not None else None
    stored: list[dict[str, object]] = []
    for g in games:
        try:
            if ids is None:
                raise KeyError(g.winner)
            game = GameInput(
                winner=ids[g.winner],
                cube=g.cube,
                result=g.result,
                ended_by=g.ended_by,
                doubles=_double_inputs(g, ids),
            )
        except (KeyError, TypeError, ValueError):
            stored.append(dict(g.__dict__))
        else:
            stored.append(game_input_payload(game))
    return stored


def _player_of(entry: Entry | None) -> int | None:
    return entry.player_id if entry is not None else None


def match_result_enter(
    *,
    match: Match,
    games: Sequence[GameResult],
    by: User | None = None,
    meta: RequestMeta | None = None,
    idempotency_key: str = "",
) -> Match:
    """A director enters a whole played match, game by game; the rules engine checks each
    game (cube, Crawford, points, the match's end) and the games decide the match.

    The same whole-match report as a player's (``whole_match_decide``), entered only on an
    undecided match with no games: stored as a ``match`` submission, accepted or
    rejected, and completing the match at once. Sent again with its ``idempotency_key``
    (the console's form sent twice, or from a device's offline queue): recorded once.
    """
    return submission_run(
        kind="match",
        payload={"games": _games_payload(match, games)},
        decide=whole_match_decide(lambda _: _side_games(games), None, entered=True),
        idempotency_key=idempotency_key,
        **_common(match, by, meta),
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
    idempotency_key: str = "",
) -> Match:
    """A director settles a match from its final score alone (the scoresheet's last
    line), or corrects a decided match's score; the bracket is re-seated if the winner
    changes. See ``matches.services.decisions.match_final_score`` (``idempotency_key``:
    sent again, recorded once)."""
    return match_final_score(
        score=(score1, score2),
        confirm=confirm,
        reason=reason,
        followups=Reseat(cascade=cascade),
        idempotency_key=idempotency_key,
        **_common(match, by, meta),
    )


def match_winner_correct(
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
    return decisions.match_winner_correct(
        winner_entry_id=winner.pk,
        score=score,
        confirm=confirm,
        cascade=cascade,
        reason=reason,
        followups=Reseat(cascade=cascade),
        **_common(match, by, meta),
    )


class TakeBack:
    """The bracket side of a reopened forfeit or walkover: the winner taken back out of the
    next round (refused, ``next-match-started``, once they have played on there)."""

    def __init__(self) -> None:
        self.mover = BracketMover()

    def undo(self, match: Match) -> None:
        self.mover.retract(match, cascade=False)

    def redo(self, match: Match) -> None:
        if match.status == Match.Status.READY:
            # On again: its players are told (once; again if a notice was corrected).
            self.mover.ready.append(match.pk)
        self.mover.finish()


def match_reopen_decision(
    *,
    match: Match,
    reason: str = "",
    by: User | None = None,
    meta: RequestMeta | None = None,
) -> Match:
    """Reopen a forfeit or walkover (a mistake, a player who turned up after all): the
    match is ready to play again and its winner leaves the next round, while they have
    not played on. See ``matches.services.decisions.match_decision_reopen``."""
    return match_decision_reopen(
        reason=reason,
        followups=TakeBack(),
        **_common(match, by, meta),
    )
