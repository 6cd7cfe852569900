"""Match play: the rules of a match, its score, the Crawford game, and reported games.

A :class:`MatchState` is the score history of a match; which game is the Crawford
game is derived from it, never given. :func:`validate_game_report` checks one game
reported without its moves (what the REST API receives) and returns the next state.

>>> rules = MatchRules(length=5)
>>> state = MatchState.start(5)
>>> state = validate_game_report(state, rules, GameReport(winner=0, cube=2, result="gammon"))
>>> state.score, state.is_crawford_game(rules)
((4, 0), True)
>>> validate_game_report(state, rules, GameReport(winner=1, cube=2, result="single"))
Traceback (most recent call last):
...
matches.rules.errors.DoubleInCrawford: no double may be offered in the Crawford game: its cube stays at 1, not 2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .cube import CubeState
from .errors import (
    BadCubeValue,
    DoubleInCrawford,
    DoubleNotOwner,
    GameAfterMatchEnd,
    HollandViolation,
    IllegalCubeAction,
    MoneyOptionInMatch,
    OutOfTurn,
    ParseError,
    PointsMismatch,
    ResultMismatch,
)
from .outcome import EndedBy, Result, check_cube_value, game_points

Score = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The rules a match (``length`` > 0) or a money session (``length`` 0) is played by.

    Crawford is on by default and Holland off. Jacoby, beavers, raccoons and
    automatic doubles belong to money play only.

    >>> MatchRules(length=7).money
    False
    >>> MatchRules(length=7, beavers=True)
    Traceback (most recent call last):
    ...
    matches.rules.errors.MoneyOptionInMatch: beavers are money-play options: not allowed in a 7-point match
    """

    length: int
    crawford: bool = True
    holland: bool = False
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    auto_doubles: int = 0

    def __post_init__(self) -> None:
        if type(self.length) is not int or self.length < 0:
            raise ParseError(f"a match length is 0 (money) or more, not {self.length!r}")
        if type(self.auto_doubles) is not int or self.auto_doubles < 0:
            raise ParseError(f"the automatic-double limit is 0 or more, not {self.auto_doubles!r}")
        if self.length > 0:
            options = [
                name
                for name, on in (
                    ("the Jacoby rule", self.jacoby),
                    ("beavers", self.beavers),
                    ("raccoons", self.raccoons),
                    ("automatic doubles", self.auto_doubles > 0),
                )
                if on
            ]
            if options:
                raise MoneyOptionInMatch(
                    f"{' and '.join(options)} are money-play options: "
                    f"not allowed in a {self.length}-point match"
                )
        if self.raccoons and not self.beavers:
            raise MoneyOptionInMatch("raccoons need beavers")

    @property
    def money(self) -> bool:
        """Whether this is money play (no match length).

        >>> MatchRules(length=0, jacoby=True).money
        True
        """
        return self.length == 0


def crawford_game_index(
    scores: Iterable[Score], *, length: int, crawford: bool = True
) -> int | None:
    """Which game is the Crawford game: its index in ``scores``, the score before each
    game in order (the last may be the score now, before the next game); ``None`` if
    none of them is.

    This is the one derivation of the Crawford game: the first game before which
    exactly one player stands at ``length - 1``. There is none once a player has
    reached ``length``, without the Crawford rule, or in a 1-point match (both players
    start at ``length - 1``) or money play.

    >>> crawford_game_index([(0, 0), (2, 0), (4, 0), (4, 1)], length=5)
    2
    >>> crawford_game_index([(0, 0), (4, 0)], length=5, crawford=False) is None
    True
    """
    if not crawford or length <= 1:
        return None
    away = length - 1
    for index, (a, b) in enumerate(scores):
        if max(a, b) >= length:
            return None
        if (a == away) != (b == away):
            return index
    return None


@dataclass(frozen=True, slots=True)
class MatchState:
    """The score before each game so far and now: ``scores[0]`` is the starting score.

    A starting score other than 0-0 (late penalty points) is allowed.

    >>> s = MatchState.start(3).after_game(0, 2)
    >>> s.score, s.game_number, s.is_over
    ((2, 0), 2, False)
    """

    length: int
    scores: tuple[Score, ...] = ((0, 0),)

    def __post_init__(self) -> None:
        if type(self.length) is not int or self.length < 0:
            raise ParseError(f"a match length is 0 (money) or more, not {self.length!r}")
        if not self.scores:
            raise ParseError("a match state needs a starting score")
        for pair in self.scores:
            if (
                not isinstance(pair, tuple)
                or len(pair) != 2
                or any(type(n) is not int or n < 0 for n in pair)
            ):
                raise ParseError(f"a score is two counts of 0 or more, not {pair!r}")

    @classmethod
    def start(cls, length: int, score: Score = (0, 0)) -> MatchState:
        """A match of ``length`` points (0: money) starting at ``score``.

        >>> MatchState.start(5, (0, 2)).score
        (0, 2)
        """
        try:
            a, b = score
        except (TypeError, ValueError):
            raise ParseError(f"a score is two counts of 0 or more, not {score!r}") from None
        return cls(length, ((a, b),))

    @classmethod
    def replay(
        cls, length: int, results: Iterable[tuple[int, int]], start: Score = (0, 0)
    ) -> MatchState:
        """Rebuild a state from the (winner, points) of each game played.

        >>> MatchState.replay(5, [(0, 1), (1, 2)]).score
        (1, 2)
        """
        state = cls.start(length, start)
        for winner, points in results:
            state = state.after_game(winner, points)
        return state

    @property
    def score(self) -> Score:
        """The score now.

        >>> MatchState.start(7, (2, 1)).after_game(1, 4).score
        (2, 5)
        """
        return self.scores[-1]

    @property
    def game_number(self) -> int:
        """The number of the next game (1 for the first).

        >>> MatchState.start(5).game_number
        1
        """
        return len(self.scores)

    @property
    def is_over(self) -> bool:
        """Whether a player has reached the match length (never, in money play).

        >>> MatchState.start(1, (1, 0)).is_over
        True
        """
        return self.length > 0 and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        """The side that won the match, or ``None``.

        >>> MatchState.start(3).after_game(1, 4).winner
        1
        """
        if not self.is_over:
            return None
        return 0 if self.score[0] >= self.length else 1

    def crawford_game_number(self, rules: MatchRules) -> int | None:
        """The number of the Crawford game, played or next, or ``None`` if there is none yet.

        >>> MatchState.replay(5, [(0, 2), (0, 2), (1, 1)]).crawford_game_number(MatchRules(5))
        3
        """
        index = crawford_game_index(self.scores, length=self.length, crawford=rules.crawford)
        return None if index is None else index + 1

    def is_crawford_game(self, rules: MatchRules) -> bool:
        """Whether the next game is the Crawford game.

        >>> MatchState.start(5, (4, 0)).is_crawford_game(MatchRules(5))
        True
        """
        return not self.is_over and self.crawford_game_number(rules) == self.game_number

    def is_post_crawford(self, rules: MatchRules) -> bool:
        """Whether the next game comes after the Crawford game.

        >>> MatchState.replay(5, [(0, 4), (1, 1)]).is_post_crawford(MatchRules(5))
        True
        """
        number = self.crawford_game_number(rules)
        return not self.is_over and number is not None and number < self.game_number

    def after_game(self, winner: int, points: int) -> MatchState:
        """The state after ``winner`` scores ``points`` in the next game.

        >>> MatchState.start(3, (3, 0)).after_game(0, 1)
        Traceback (most recent call last):
        ...
        matches.rules.errors.GameAfterMatchEnd: the match is over (3-0 in a 3-point match): no game 1 may be played
        """
        if self.is_over:
            raise GameAfterMatchEnd(
                f"the match is over ({self.score[0]}-{self.score[1]} in a {self.length}-point "
                f"match): no game {self.game_number} may be played",
                game=self.game_number,
            )
        if winner not in (0, 1):
            raise ParseError(f"the winner is side 0 or 1, not {winner!r}", game=self.game_number)
        if type(points) is not int or points < 1:
            raise PointsMismatch(
                f"a game is worth 1 point or more, not {points!r}", game=self.game_number
            )
        a, b = self.score
        new = (a + points, b) if winner == 0 else (a, b + points)
        return MatchState(self.length, (*self.scores, new))

    def game_cube(self, rules: MatchRules) -> CubeState:
        """The cube as the next game starts: centred on 1, with this game's options.

        >>> MatchState.start(5, (0, 4)).game_cube(MatchRules(5)).crawford
        True
        """
        return CubeState(
            money=rules.money,
            crawford=self.is_crawford_game(rules),
            holland=rules.holland and self.is_post_crawford(rules),
            beavers=rules.beavers,
            raccoons=rules.raccoons,
            auto_double_limit=rules.auto_doubles,
        )


class Response(StrEnum):
    """The answer to a reported double.

    >>> Response("beaver")
    <Response.BEAVER: 'beaver'>
    """

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"


@dataclass(frozen=True, slots=True)
class DoubleReport:
    """A double in a reported game: by which side, after how many of the doubler's rolls.

    ``turn`` counts the doubler's own rolls in the game before the double; the
    opening roll counts for the side that plays it. ``response`` ``beaver`` means
    the doubled side beavered and the doubler took the beaver (or dropped it, if
    the game ended by a drop); ``raccoon`` means the doubler then raccooned.

    >>> DoubleReport(by=0, turn=3)
    DoubleReport(by=0, turn=3, response=<Response.TAKE: 'take'>)
    """

    by: int
    turn: int
    response: Response | str = Response.TAKE


@dataclass(frozen=True, slots=True)
class GameReport:
    """One game reported without its moves.

    ``cube`` is the value when the game ended (for a drop, the value before the
    refused double). ``points``, when given, must agree with the rest.

    ``doubles`` ``None`` means the doubles are not itemised: any cube value goes. A
    list, even an empty one, is every double of the game: the cube must then be what
    they (and ``automatic_doubles``, money play only) leave it at.

    >>> check_game_report(MatchState.start(0), MatchRules(0, auto_doubles=2),
    ...     GameReport(winner=0, cube=8, doubles=[DoubleReport(1, 1)], automatic_doubles=2)).points
    8

    >>> report = GameReport(winner=1, cube=2, result="gammon", doubles=[DoubleReport(0, 2)])
    >>> check_game_report(MatchState.start(9), MatchRules(9), report).points
    4
    """

    winner: int
    cube: int = 1
    result: Result | str = Result.SINGLE
    ended_by: EndedBy | str = EndedBy.PLAY
    doubles: Sequence[DoubleReport] | None = None
    points: int | None = None
    number: int | None = field(default=None, compare=False)
    automatic_doubles: int = 0


@dataclass(frozen=True, slots=True)
class CheckedGame:
    """A reported game as the engine read it: what it is worth and how the cube went.

    >>> check_game_report(MatchState.start(3), MatchRules(3), GameReport(winner=0)).points
    1
    """

    winner: int
    cube: int
    result: Result
    ended_by: EndedBy
    points: int
    crawford: bool
    cube_turned: bool


def _doubles_possible(doubles: Sequence[DoubleReport]) -> bool:
    """Whether some opener makes every double fall at the start of the doubler's turn, in order."""
    for opener in (0, 1):
        last = -1
        ok = True
        for d in doubles:
            if d.by == opener and d.turn < 1:
                ok = False  # the opener moves with the opening roll: no double before it
                break
            position = 2 * d.turn if d.by == opener else 2 * d.turn + 1
            if position <= last:
                ok = False
                break
            last = position
        if ok:
            return True
    return False


def check_game_report(state: MatchState, rules: MatchRules, report: GameReport) -> CheckedGame:
    """Check a reported game against the match state; return what it is worth.

    >>> check_game_report(MatchState.start(7), MatchRules(7),
    ...     GameReport(winner=1, cube=2, result="single", ended_by="drop"))
    CheckedGame(winner=1, cube=2, result=<Result.SINGLE: 'single'>, ended_by=<EndedBy.DROP: 'drop'>, points=2, crawford=False, cube_turned=True)
    """
    game = state.game_number
    if state.is_over:
        raise GameAfterMatchEnd(
            f"the match is already over ({state.score[0]}-{state.score[1]} in a "
            f"{state.length}-point match): game {game} cannot be played",
            game=game,
        )
    if rules.length != state.length:
        raise ParseError(
            f"the rules are for a {rules.length}-point match, the state for {state.length}",
            game=game,
        )
    if report.winner not in (0, 1):
        raise ParseError(f"the winner is side 0 or side 1, not {report.winner!r}", game=game)
    result = Result.parse(report.result)
    ended_by = EndedBy.parse(report.ended_by)
    try:
        check_cube_value(report.cube)
    except BadCubeValue as exc:
        raise exc.located(game=game) from None
    crawford = state.is_crawford_game(rules)
    doubles = list(report.doubles or ())
    if crawford:
        if doubles:
            raise DoubleInCrawford(
                "no double may be offered in the Crawford game",
                game=game,
                side=doubles[0].by,
            )
        if ended_by is EndedBy.DROP:
            raise DoubleInCrawford(
                "a game cannot end by a drop in the Crawford game: no double may be offered",
                game=game,
            )
        if report.cube != 1:
            # A cube above 1 means someone doubled: match play has no automatic doubles.
            raise DoubleInCrawford(
                f"no double may be offered in the Crawford game: its cube stays at 1, "
                f"not {report.cube}",
                game=game,
            )
    start = _starting_cube(state, rules, report)
    if report.doubles is None:
        if report.cube < start.value:
            raise BadCubeValue(
                f"the cube is reported at {report.cube}, but {report.automatic_doubles} "
                f"automatic doubles put it at {start.value} before the first move",
                game=game,
            )
        turned = report.cube > start.value
    else:
        turned = _check_doubles(state, report, start, doubles, ended_by)
    if ended_by is EndedBy.DROP and result is not Result.SINGLE:
        raise ResultMismatch(f"a game ended by a drop is a single game, not a {result}", game=game)
    jacoby = rules.money and rules.jacoby and not turned and ended_by is not EndedBy.DROP
    points = game_points(report.cube, result, jacoby=jacoby)
    if report.points is not None and report.points != points:
        raise PointsMismatch(
            f"{report.points} points reported, but a {result} with the cube at "
            f"{report.cube}{' under the Jacoby rule' if jacoby else ''} is worth {points}",
            game=game,
            side=report.winner,
        )
    return CheckedGame(report.winner, report.cube, result, ended_by, points, crawford, turned)


def _starting_cube(state: MatchState, rules: MatchRules, report: GameReport) -> CubeState:
    """The cube as the first move is played: the game's cube after its automatic doubles."""
    game = state.game_number
    count = report.automatic_doubles
    if type(count) is not int or count < 0:
        raise ParseError(f"automatic doubles are 0 or more, not {count!r}", game=game)
    cube = state.game_cube(rules)
    try:
        for _ in range(count):
            cube = cube.auto_double()
    except IllegalCubeAction as exc:
        raise exc.located(game=game) from None
    return cube


def _check_doubles(
    state: MatchState,
    report: GameReport,
    cube: CubeState,
    doubles: list[DoubleReport],
    ended_by: EndedBy,
) -> bool:
    """Check the reported doubles in order from the starting ``cube``; return whether
    the cube was turned. An empty list means no double: the cube stays where it started.
    """
    game = state.game_number
    for i, d in enumerate(doubles):
        if d.by not in (0, 1):
            raise ParseError(f"double {i + 1}: 'by' is side 0 or 1, not {d.by!r}", game=game)
        if type(d.turn) is not int or d.turn < 0:
            raise ParseError(f"double {i + 1}: 'turn' is 0 or more, not {d.turn!r}", game=game)
        try:
            response = Response(str(d.response).strip().lower())
        except ValueError:
            raise ParseError(
                f"double {i + 1}: response {d.response!r} is not take, drop, beaver or raccoon",
                game=game,
                side=1 - d.by,
            ) from None
        last = i == len(doubles) - 1
        try:
            cube = cube.double(d.by, own_rolls=d.turn)
            if response is Response.DROP:
                if not last:
                    raise IllegalCubeAction(
                        f"double {i + 1} was dropped, which ends the game, "
                        "but more doubles are reported",
                        side=1 - d.by,
                    )
                if ended_by is not EndedBy.DROP:
                    raise ResultMismatch(
                        f"double {i + 1} was dropped, so the game ended by a drop, "
                        f"not by {ended_by}",
                        side=1 - d.by,
                    )
                if report.winner != d.by:
                    raise ResultMismatch(
                        f"side {1 - d.by} dropped side {d.by}'s double, so side {d.by} won",
                        side=report.winner,
                    )
                continue
            dropped_last = last and ended_by is EndedBy.DROP
            if response is Response.TAKE:
                if dropped_last:
                    raise ResultMismatch(
                        "the game ended by a drop, but the last double was taken",
                        side=1 - d.by,
                    )
                cube = cube.take(1 - d.by)
            elif response is Response.BEAVER:
                cube = cube.beaver(1 - d.by)
                if dropped_last:
                    if report.winner != 1 - d.by:
                        raise ResultMismatch(
                            f"side {d.by} dropped side {1 - d.by}'s beaver, so side {1 - d.by} won",
                            side=report.winner,
                        )
                    continue
                cube = cube.take(d.by)
            else:
                cube = cube.beaver(1 - d.by).raccoon(d.by)
                if dropped_last:
                    if report.winner != d.by:
                        raise ResultMismatch(
                            f"side {1 - d.by} dropped side {d.by}'s raccoon, so side {d.by} won",
                            side=report.winner,
                        )
                    continue
                cube = cube.take(1 - d.by)
        except (DoubleNotOwner, DoubleInCrawford, HollandViolation) as exc:
            raise exc.located(game=game, side=d.by) from None
        except (IllegalCubeAction, ResultMismatch) as exc:
            raise exc.located(game=game) from None
    if ended_by is EndedBy.DROP and cube.offer is None:
        raise ResultMismatch(
            "the game ended by a drop, but no reported double was dropped", game=game
        )
    if report.cube != cube.value:
        how = "the reported doubles leave" if doubles else "no double was reported: that leaves"
        raise BadCubeValue(
            f"the cube is reported at {report.cube}, but {how} it at {cube.value}",
            game=game,
        )
    if not _doubles_possible(doubles):
        raise OutOfTurn(
            "the doubles' turns are impossible: each double comes at the start of the "
            "doubler's own turn, later than the one before",
            game=game,
        )
    return cube.turned


def validate_game_report(state: MatchState, rules: MatchRules, report: GameReport) -> MatchState:
    """Check a game reported without moves and return the match state after it.

    >>> rules = MatchRules(length=7, holland=True)
    >>> post = MatchState.replay(7, [(0, 6), (1, 1)])
    >>> validate_game_report(post, rules, GameReport(winner=1, cube=2,
    ...     doubles=[DoubleReport(by=1, turn=1)]))
    Traceback (most recent call last):
    ...
    matches.rules.errors.HollandViolation: Holland rule: side 1 may not double before playing two rolls in this post-Crawford game (has played 1)
    """
    checked = check_game_report(state, rules, report)
    return state.after_game(checked.winner, checked.points)
