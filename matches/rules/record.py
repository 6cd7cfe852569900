"""Game records: the list of actions of a game, and replaying them under the rules.

A record is what a ``.mat`` or ``.sgf`` file holds for one game: rolls with their
plays, cube actions and the final ``Wins N points``. :func:`replay_game` plays it
through from the starting position and checks every roll, play and cube action,
and that the end of the game agrees with the result.

>>> from matches.rules.match import MatchRules, MatchState
>>> game = GameRecord(1, (0, 0), (
...     RollPlay(0, (3, 1), "8/5 6/5", move=1),
...     RollPlay(1, (6, 6), "24/18(2) 13/7(2)", move=1),
... ))
>>> replay_game(MatchState.start(5), MatchRules(5), game)
Traceback (most recent call last):
...
matches.rules.errors.GameNotFinished: game 1 stops at move 1 before it is over: no one has borne off all 15 checkers, dropped or resigned
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field, replace

from .cube import CubeState, OfferKind
from .dice import check_roll
from .errors import (
    BadCubeValue,
    BadDice,
    GameAfterMatchEnd,
    GameNotFinished,
    IllegalMove,
    OutOfTurn,
    ParseError,
    PointsMismatch,
    ResultMismatch,
    RulesError,
    ScoreMismatch,
    Truncated,
)
from .generation import can_move
from .match import MatchRules, MatchState, Score
from .notation import Play
from .outcome import EndedBy, Result, game_points, result_for_points, result_kind
from .play_check import check_play
from .position import CHECKERS, Position


@dataclass(frozen=True, slots=True)
class RollPlay:
    """``side`` rolled ``dice`` and played ``play`` (``""``: nothing written after the roll).

    ``move`` is the number of the file's move line (``N)``), for error locations.

    >>> RollPlay(0, (6, 6), move=12)  # a dance, or a roll the game was resigned after
    RollPlay(side=0, dice=(6, 6), play='', move=12)
    """

    side: int
    dice: tuple[int, int]
    play: str = ""
    move: int | None = None


@dataclass(frozen=True, slots=True)
class Double:
    """``side`` doubles; ``value`` is the stake offered as written (``Doubles => 2``).

    >>> Double(1, 2, move=7)
    Double(side=1, value=2, move=7)
    """

    side: int
    value: int | None = None
    move: int | None = None


@dataclass(frozen=True, slots=True)
class Beaver:
    """``side``, just doubled, beavers; ``value`` as written (``Beavers => 4``).

    >>> Beaver(0, 4).value
    4
    """

    side: int
    value: int | None = None
    move: int | None = None


@dataclass(frozen=True, slots=True)
class Raccoon:
    """The original doubler raccoons the beaver; ``value`` as written.

    >>> Raccoon(1, 8).side
    1
    """

    side: int
    value: int | None = None
    move: int | None = None


@dataclass(frozen=True, slots=True)
class Take:
    """``side`` accepts the pending double (or beaver, raccoon).

    >>> Take(0, move=3)
    Take(side=0, move=3)
    """

    side: int
    move: int | None = None


@dataclass(frozen=True, slots=True)
class Drop:
    """``side`` refuses the pending double and loses the game.

    >>> Drop(1).side
    1
    """

    side: int
    move: int | None = None


@dataclass(frozen=True, slots=True)
class Win:
    """``Wins N points``: the game's result as the file states it.

    ``resigned`` is ``True`` or ``False`` when the file says so (SGF ``RE[W+2R]``),
    ``None`` when it must be inferred (``.mat``: a game that stops before the last
    checker is off and without a drop ended by resignation).

    >>> Win(0, 2, move=30)
    Win(side=0, points=2, move=30, resigned=None)
    """

    side: int
    points: int
    move: int | None = None
    resigned: bool | None = None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A place in the record that could not be read; replaying it raises ``error``.

    >>> Unreadable(ParseError("line 9: cannot read 'x'"), move=4).error.code
    'parse-error'
    """

    error: ParseError
    move: int | None = None
    side: int | None = None


type Action = RollPlay | Double | Beaver | Raccoon | Take | Drop | Win | Unreadable


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a match file: its number, the score before it, and its actions.

    ``score`` is ``None`` when the game's score line could not be read (``error``
    says why). ``auto_doubles`` is how many automatic doubles the game started with,
    or ``None`` when the file does not say (``.mat``). ``cut_at`` is set when the file
    ends inside this game, before its result: the move where it stops (0: in the
    game's header). Replaying such a game raises
    :class:`~matches.rules.errors.Truncated` there, after any error before it.

    >>> GameRecord(1, (0, 0)).actions
    ()
    """

    number: int
    score: Score | None
    actions: tuple[Action, ...] = ()
    players: tuple[str, str] | None = None
    auto_doubles: int | None = None
    error: ParseError | None = field(default=None, compare=False)
    cut_at: int | None = field(default=None, compare=False)

    @property
    def last_move(self) -> int:
        """The number of the last move line read (0: the file stops at the game's header).

        >>> GameRecord(1, (0, 0), (RollPlay(0, (3, 1), "8/5 6/5", move=1),)).last_move
        1
        """
        moves = [a.move for a in self.actions if a.move is not None]
        return moves[-1] if moves else 0


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match file: length (0: money), players (side 0 first), games, header data.

    ``rules`` holds what the file itself says about the rules (``crawford``,
    ``jacoby``...), for information.

    >>> MatchRecord(7, ("Ann", "Bo"), ()).players
    ('Ann', 'Bo')
    """

    length: int
    players: tuple[str, str]
    games: tuple[GameRecord, ...]
    info: tuple[tuple[str, str], ...] = ()
    rules: tuple[tuple[str, bool], ...] = ()

    def first_error(self) -> ParseError | None:
        """The first thing in the file that could not be read, in reading order.

        >>> MatchRecord(1, ("A", "B"), ()).first_error() is None
        True
        """
        for game in self.games:
            if game.score is None and game.error is not None:
                return game.error
            for action in game.actions:
                if isinstance(action, Unreadable):
                    return action.error
            if game.error is not None:
                return game.error
        return None


@dataclass(frozen=True, slots=True)
class ReplayedGame:
    """A game that replayed without error: who won, how, and what it was worth.

    See :func:`replay_game` for an example.
    """

    number: int
    score_before: Score
    winner: int
    points: int
    cube: int
    result: Result
    ended_by: EndedBy
    crawford: bool
    rolls: int
    final: Position


def _loc(exc: RulesError, game: int, move: int | None, side: int | None) -> RulesError:
    return exc.located(game=game, move=move, side=side)


def replay_game(state: MatchState, rules: MatchRules, record: GameRecord) -> ReplayedGame:
    """Replay one game's record from the match state before it; return its outcome.

    Every roll must be two dice 1-6 (the opening roll no doublet), every play legal
    for its roll and position, every cube action legal, and the end of the game
    (the 15th checker off, a drop or a resignation) must agree with ``Wins N``.
    Errors carry the game number, the move number and the side; a score line that
    is not the score before the game is ``score-mismatch`` at move 0 (the header).

    >>> from matches.rules.match import MatchRules, MatchState
    >>> game = GameRecord(1, (0, 0), (
    ...     RollPlay(0, (3, 1), "8/5 6/5", move=1), Double(1, 2, move=1),
    ...     Drop(0, move=2), Win(1, 1, move=2)))
    >>> played = replay_game(MatchState.start(3), MatchRules(3), game)
    >>> played.winner, played.points, str(played.ended_by), played.rolls
    (1, 1, 'drop', 1)
    """
    return next(_readings(state, rules, record))


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A match file replayed game by game: the games that replayed, the state after
    them, and the first error in reading order (``None``: every game is valid).
    """

    games: tuple[ReplayedGame, ...]
    state: MatchState
    error: RulesError | None = None


def replay_match(record: MatchRecord, rules: MatchRules, start: Score = (0, 0)) -> MatchReplay:
    """Replay a whole match file from the match's starting score; never raises a rules error.

    ``start`` is the score the match starts at (0-0, or the penalty points it carries,
    in the file's side order): game 1's score line must say it.

    >>> first = GameRecord(1, (1, 0), (RollPlay(0, (3, 1), "8/5 6/5", move=1),))
    >>> error = replay_match(MatchRecord(3, ("A", "B"), (first,)), MatchRules(3)).error
    >>> error.code, error.game, error.move
    ('score-mismatch', 1, 0)
    """
    try:
        state = MatchState.start(record.length, start)
    except RulesError as exc:
        return MatchReplay((), MatchState.start(record.length), exc)
    games: list[ReplayedGame] = []
    try:
        for index, game in enumerate(record.games):
            names = game.players
            if names is not None and names != record.players and game.score is not None:
                raise ParseError(
                    f"game {state.game_number} is between {names[0]} and {names[1]}, "
                    f"not the file's players {record.players[0]} and {record.players[1]}",
                    game=state.game_number,
                )
            following = record.games[index + 1] if index + 1 < len(record.games) else None
            played = _reading_for(state, rules, game, following)
            games.append(played)
            state = state.after_game(played.winner, played.points)
    except RulesError as exc:
        return MatchReplay(tuple(games), state, exc)
    return MatchReplay(tuple(games), state)


def _reading_for(
    state: MatchState, rules: MatchRules, record: GameRecord, following: GameRecord | None
) -> ReplayedGame:
    """The reading of ``record`` that the next game's score line agrees with, else the first.

    Only a ``.mat`` money game with automatic doubles allowed has more than one
    reading: the file does not say how many automatic doubles the game had.
    """
    readings = _readings(state, rules, record)
    first = next(readings)
    if following is None or following.score is None:
        return first
    want = tuple(following.score)
    for played in (first, *readings):
        if state.after_game(played.winner, played.points).score == want:
            return played
    return first


def _readings(state: MatchState, rules: MatchRules, record: GameRecord) -> Iterator[ReplayedGame]:
    """Each way the record replays under the rules, the plainest first; if none does,
    raise the first way's error.
    """
    game = state.game_number
    if state.is_over:
        raise GameAfterMatchEnd(
            f"game {game} comes after the end of the match "
            f"({state.score[0]}-{state.score[1]} in a {state.length}-point match)",
            game=game,
        )
    if record.score is None:
        if record.cut_at is not None:
            raise truncated_at(game, record.cut_at)
        error = record.error or ParseError("the game's score line cannot be read")
        raise error.located(game=game)
    if tuple(record.score) != state.score:
        raise ScoreMismatch(
            f"game {game} says the score is {record.score[0]}-{record.score[1]}, "
            f"but the match stands at {state.score[0]}-{state.score[1]}",
            game=game,
            move=0,
        )
    first: RulesError | None = None
    replayed = False
    for autos, scale in _cube_readings(rules, record):
        try:
            played = _replay_to_cut(state, rules, _scaled(record, scale), autos)
        except RulesError as exc:
            first = first or exc
            continue
        replayed = True
        yield played
    if not replayed:
        assert first is not None
        raise first


def _cube_readings(rules: MatchRules, record: GameRecord) -> list[tuple[int, int]]:
    """(automatic doubles, scale of the written stakes) to try for a game.

    A ``.mat`` file does not record automatic doubles. A game may have had any number
    up to the session's limit, its stakes written as they stood (``Doubles => 4`` after
    one) or, as GNU Backgammon exports them, as if the cube had started at 1
    (``Doubles => 2``, ``Wins 2 points`` for a game worth 4): scale 2 ** doubles.

    >>> _cube_readings(MatchRules(0, auto_doubles=1), GameRecord(1, (0, 0)))
    [(0, 1), (1, 1), (1, 2)]
    """
    if record.auto_doubles is not None or not (rules.money and rules.auto_doubles):
        return [(record.auto_doubles or 0, 1)]
    readings = [(0, 1)]
    for autos in range(1, rules.auto_doubles + 1):
        readings += [(autos, 1), (autos, 1 << autos)]
    return readings


def _scaled(record: GameRecord, scale: int) -> GameRecord:
    """The record with every written stake (cube offers, ``Wins N``) times ``scale``."""
    if scale == 1:
        return record
    actions: list[Action] = []
    for action in record.actions:
        if isinstance(action, (Double, Beaver, Raccoon)) and action.value is not None:
            action = replace(action, value=action.value * scale)
        elif isinstance(action, Win):
            action = replace(action, points=action.points * scale)
        actions.append(action)
    return replace(record, actions=tuple(actions))


def _replay_to_cut(
    state: MatchState, rules: MatchRules, record: GameRecord, autos: int
) -> ReplayedGame:
    """:func:`_replay`, except that a game the file ends inside is refused as truncated.

    The moves read before the cut are replayed, so an error in them comes first (in
    reading order); a result the file states for the cut game is not checked.
    """
    if record.cut_at is None:
        return _replay(state, rules, record, autos)
    moves = tuple(a for a in record.actions if not isinstance(a, Win))
    with suppress(GameNotFinished):
        _replay(state, rules, replace(record, actions=moves), autos)
    raise truncated_at(state.game_number, record.cut_at)


def truncated_at(game: int, move: int) -> Truncated:
    """The refusal of a file that ends inside ``game``, at ``move`` (0: its header).

    >>> truncated_at(3, 17).as_dict()["message"]
    'the file ends inside game 3, at move 17: the game is cut off before its result'
    """
    return Truncated(
        f"the file ends inside game {game}, at move {move}: the game is cut off before its result",
        game=game,
        move=move,
    )


def _replay(state: MatchState, rules: MatchRules, record: GameRecord, autos: int) -> ReplayedGame:
    game = state.game_number
    cube = state.game_cube(rules)
    for _ in range(autos):
        try:
            cube = cube.auto_double()
        except RulesError as exc:
            raise exc.located(game=game) from None
    pos = Position.start()
    turn: int | None = None
    rolls = [0, 0]
    ended: EndedBy | None = None
    winner: int | None = None
    points = 0
    result = Result.SINGLE
    unplayed: RollPlay | None = None  # a roll with no play although one was possible
    last_move: int | None = None
    win_seen = False
    for action in record.actions:
        move = action.move if action.move is not None else last_move
        last_move = move
        if isinstance(action, Unreadable):
            raise _loc(action.error, game, move, action.side)
        side = action.side
        if win_seen:
            raise _loc(OutOfTurn("nothing may follow the game's result"), game, move, side)
        if unplayed is not None and not isinstance(action, Win):
            raise _loc(
                IllegalMove(
                    f"{_dice(unplayed.dice)} was rolled but not played, and a move was possible"
                ),
                game,
                unplayed.move,
                unplayed.side,
            )
        if ended is not None and not isinstance(action, Win):
            raise _loc(
                OutOfTurn(f"the game was already over (ended by {ended}): nothing may follow"),
                game,
                move,
                side,
            )
        try:
            if isinstance(action, RollPlay):
                offer = cube.offer
                if offer is not None:
                    if offer.kind is OfferKind.BEAVER and side == 1 - offer.by:
                        cube = cube.take(side)  # a roll after a beaver means it was taken
                    elif offer.kind is OfferKind.RACCOON and side == offer.by:
                        cube = cube.take(1 - side)  # so does the raccooner's roll (gnubg .mat)
                    else:
                        raise OutOfTurn(
                            f"side {side} rolled while side {offer.by}'s "
                            f"{offer.kind} awaited an answer"
                        )
                check_roll(action.dice)
                if turn is None:
                    if action.dice[0] == action.dice[1]:
                        raise BadDice(
                            f"the opening roll cannot be a doublet ({_dice(action.dice)}): "
                            "equal opening throws are thrown again"
                        )
                elif side != turn:
                    raise OutOfTurn(f"side {side} rolled on side {turn}'s turn")
                text = action.play.strip()
                if text:
                    pos = check_play(pos, side, action.dice, Play.parse(text))
                elif can_move(pos, side, action.dice):
                    unplayed = action
                rolls[side] += 1
                turn = 1 - side
                if pos.off(side) == CHECKERS:
                    ended, winner = EndedBy.PLAY, side
                    result = result_kind(pos, side)
                    jacoby = rules.money and rules.jacoby and not cube.turned
                    points = game_points(cube.value, result, jacoby=jacoby)
            elif isinstance(action, Double):
                if cube.offer is not None and cube.offer.by == 1 - side:
                    if cube.offer.kind is OfferKind.DOUBLE:
                        cube = cube.beaver(side)
                    else:
                        cube = cube.raccoon(side)
                else:
                    if turn is None:
                        raise OutOfTurn(f"side {side} doubled before the opening roll was played")
                    if side != turn:
                        raise OutOfTurn(f"side {side} doubled on side {turn}'s turn")
                    cube = cube.double(side, own_rolls=rolls[side])
                _check_written(action.value, cube)
            elif isinstance(action, Beaver):
                if cube.offer is not None and cube.offer.kind is OfferKind.BEAVER:
                    cube = cube.raccoon(side)  # gnubg's .mat writes a raccoon as "Beavers"
                else:
                    cube = cube.beaver(side)
                _check_written(action.value, cube)
            elif isinstance(action, Raccoon):
                cube = cube.raccoon(side)
                _check_written(action.value, cube)
            elif isinstance(action, Take):
                cube = cube.take(side)
            elif isinstance(action, Drop):
                outcome = cube.drop(side)
                ended, winner, points = EndedBy.DROP, outcome.winner, outcome.points
                result = Result.SINGLE
            else:
                win_seen = True
                ended, winner, points, result = _check_win(
                    action, ended, winner, points, result, cube, rules
                )
                unplayed = None
        except RulesError as exc:
            raise _loc(exc, game, move, side) from None
    if ended is None or winner is None:
        raise GameNotFinished(
            f"game {game} stops at move {last_move} before it is over: no one has borne off "
            "all 15 checkers, dropped or resigned",
            game=game,
            move=last_move,
        )
    return ReplayedGame(
        number=game,
        score_before=state.score,
        winner=winner,
        points=points,
        cube=cube.value,
        result=result,
        ended_by=ended,
        crawford=cube.crawford,
        rolls=sum(rolls),
        final=pos,
    )


def _dice(dice: tuple[int, int]) -> str:
    return f"{dice[0]}{dice[1]}"


def _check_written(value: int | None, cube: CubeState) -> None:
    if value is not None and value != cube.proposed:
        raise BadCubeValue(f"the cube is offered at {value}, but it stands at {cube.value}")


def _check_win(
    action: Win,
    ended: EndedBy | None,
    winner: int | None,
    points: int,
    result: Result,
    cube: CubeState,
    rules: MatchRules,
) -> tuple[EndedBy, int, int, Result]:
    """Check ``Wins N points`` against how the game ended; return the game's outcome."""
    side = action.side
    if ended is EndedBy.PLAY:
        assert winner is not None
        if side != winner:
            raise ResultMismatch(
                f"side {winner} bore off all 15 checkers, but side {side} is said to win"
            )
        if action.resigned:
            raise ResultMismatch("the game was played out, not resigned")
        if action.points != points:
            raise PointsMismatch(
                f"Wins {action.points}: a {result} with the cube at {cube.value} is worth {points}"
            )
        return ended, winner, points, result
    if ended is EndedBy.DROP:
        assert winner is not None
        if side != winner:
            raise ResultMismatch(f"side {1 - winner} dropped, but side {side} is said to win")
        if action.points != points:
            raise PointsMismatch(
                f"Wins {action.points}: a dropped double with the cube at {points} is worth {points}"
            )
        return ended, winner, points, result
    if action.resigned is False:
        raise GameNotFinished(
            "the game stops before the last checker is off, without a drop or a resignation"
        )
    try:
        result = result_for_points(cube.value, action.points)
    except PointsMismatch:
        raise PointsMismatch(
            f"Wins {action.points}: a resigned game is worth the cube ({cube.value}) "
            "times 1, 2 or 3"
        ) from None
    jacoby = rules.money and rules.jacoby and not cube.turned
    if jacoby and result is not Result.SINGLE:
        raise PointsMismatch(
            f"Wins {action.points}: under the Jacoby rule, with the cube never turned, "
            f"a resignation is worth {cube.value}"
        )
    return EndedBy.RESIGN, side, action.points, result
