"""gnubg's statistics turned into the figures kept for each player, match and game.

gnubg keeps its totals in single precision and computes its rates the same way
(``getMWCFromError`` in ``analysis.c``): chequer play per unforced move, cube per
close-or-actual cube decision, overall per both, luck per move. The figures here
repeat that arithmetic in single precision, so that they round to what
``show statistics`` prints. One fact easy to miss: the cube's ``error-skill`` in
gnubg's Python dict is already a per-decision rate; the cube's total is the sum
of its six ``err-*-skill`` totals.

Errors are positive in gnubg's dict and kept so (``show statistics`` prints them negated). A PR on XG's
scale is half the overall error rate: "gnubg PR (unofficial)".
"""

from __future__ import annotations

import struct
from dataclasses import asdict, dataclass
from typing import Any

#: gnubg's two sides in its match dict: ``X`` is the file's first player.
SIDES = ("X", "O")

CUBE_ERRORS = (
    "err-missed-double-below-cp-skill",
    "err-missed-double-above-cp-skill",
    "err-wrong-double-below-dp-skill",
    "err-wrong-double-above-tg-skill",
    "err-wrong-take-skill",
    "err-wrong-drop-skill",
)

#: The biggest mistakes kept per player.
BLUNDERS_KEPT = 5


def f32(x: float) -> float:
    """``x`` rounded to single precision, as gnubg's ``float`` holds it."""
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _rate(total: float, count: int) -> float:
    """gnubg's per-decision rate in milli-EMG: ``1000.0f * (total / count)`` in floats."""
    if not count:
        return 0.0
    return f32(1000.0 * f32(f32(total) / count))


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's figures over a match or a game (error rates in mEMG, positive)."""

    error_rate_memg: float
    chequer_error_rate_memg: float
    cube_error_rate_memg: float
    pr: float
    luck_rate_memg: float
    error_total_emg: float
    chequer_error_total_emg: float
    cube_error_total_emg: float
    luck_total_emg: float
    total_moves: int
    unforced_moves: int
    cube_decisions: int
    total_cube_decisions: int
    blunders: int
    errors: int
    doubtful: int
    cube_blunders: int
    cube_errors: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def side_figures(stats: dict[str, Any], cube_marks: tuple[int, int] = (0, 0)) -> Figures:
    """A side's figures from its ``stats`` dict (``moves``, ``cube``, ``dice``)."""
    moves = stats.get("moves", {})
    cube = stats.get("cube", {})
    dice = stats.get("dice", {})
    chequer = f32(moves.get("error-skill", 0.0))
    cube_total = 0.0
    for key in CUBE_ERRORS:  # summed in gnubg's order, in floats
        cube_total = f32(cube_total + f32(cube.get(key, 0.0)))
    unforced = int(moves.get("unforced-moves", 0))
    close = int(cube.get("close-cube", 0))
    total_moves = int(moves.get("total-moves", 0))
    overall = f32(chequer + cube_total)
    marked = moves.get("marked", {})
    error_rate = _rate(overall, unforced + close)
    return Figures(
        error_rate_memg=error_rate,
        chequer_error_rate_memg=_rate(chequer, unforced),
        cube_error_rate_memg=_rate(cube_total, close),
        pr=round(error_rate, 1) / 2,
        luck_rate_memg=_rate(f32(dice.get("luck", 0.0)), total_moves),
        error_total_emg=overall,
        chequer_error_total_emg=chequer,
        cube_error_total_emg=cube_total,
        luck_total_emg=f32(dice.get("luck", 0.0)),
        total_moves=total_moves,
        unforced_moves=unforced,
        cube_decisions=close,
        total_cube_decisions=int(cube.get("total-cube", 0)),
        blunders=int(marked.get("very bad", 0)),
        errors=int(marked.get("bad", 0)),
        doubtful=int(marked.get("doubtful", 0)),
        cube_blunders=cube_marks[0],
        cube_errors=cube_marks[1],
    )


@dataclass(frozen=True, slots=True)
class Mistake:
    """One mistake: where (game, the player's own move number in it), what, how costly."""

    side: int
    game: int
    move: int
    kind: str  # "chequer" or "cube"
    skill: str  # gnubg's mark: "very bad" (blunder), "bad" (error), "doubtful"
    loss_emg: float | None  # the best play's equity minus the one played (EMG)
    dice: str
    played: str
    best: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def move_text(move: Any) -> str:
    """gnubg's move tuple ``((8, 5), (6, 5))`` as ``8/5 6/5`` (25 the bar, 0 off)."""
    parts = []
    for step in move or ():
        a, b = step
        parts.append(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}")
    return " ".join(parts)


class _Rows:
    """The row numbers of a game's move list: two columns, the ``left`` side's first.

    As a ``.mat`` file and the match page number them: an action of the left side opens
    a row; one of the right side fills the current row's right column, or opens a row
    with the left column empty. Cube actions take their column like moves.
    """

    def __init__(self, left: int) -> None:
        self.left = left
        self.row = 0
        self.right_filled = True

    def place(self, side: int) -> int:
        if side == self.left or self.right_filled:
            self.row += 1
            self.right_filled = side != self.left
        else:
            self.right_filled = True
        return self.row


def _cube_equities(analysis: dict[str, Any], scale: Any) -> tuple[float, float] | None:
    """A cube decision's (no double, double/take) equities for the doubler, normalised as
    gnubg's cube statistics count them (a pass is 1.0): gnubg's dict gives a match's as
    match winning chances, and ``cube-scale`` (from ``gnubg_script``) the chances of
    winning and of losing the cube's points there."""
    try:
        _cube, win, lose = (float(x) for x in scale)
        nd, dt = float(analysis["nd-cubeful-eq"]), float(analysis["dt-cubeful-eq"])
    except (KeyError, TypeError, ValueError):
        return None
    if win == lose:
        return None
    return ((2 * nd - (win + lose)) / (win - lose), (2 * dt - (win + lose)) / (win - lose))


def cube_cost(action: str, equities: tuple[float, float] | None) -> float | None:
    """What a cube action gave up, in EMG, as gnubg's cube statistics add it up: ``move``
    (no double), ``double``, ``take`` or ``drop`` (the taker's), from the decision's
    normalised (no double, double/take) equities; ``None`` when they are unknown."""
    if equities is None:
        return None
    nd, dt = equities
    held = min(dt, 1.0)  # the doubler's equity once doubled: the opponent's better answer
    best = max(nd, held)
    if action == "move":
        return best - nd
    if action == "double":
        return best - held
    if action == "take":
        return max(0.0, dt - 1.0)
    return max(0.0, 1.0 - dt)


def cube_costs(match: dict[str, Any]) -> list[tuple[int, int, str, float]]:
    """Every analysed cube action of the match: (side, game, action, cost in EMG). Their
    sum per side is gnubg's cube "Error total EMG"."""
    costs: list[tuple[int, int, str, float]] = []
    for number, game in enumerate(match.get("games", []), start=1):
        offered: tuple[float, float] | None = None
        for record in game.get("game", []):
            action = record.get("action")
            side = SIDES.index(record["player"]) if record.get("player") in SIDES else None
            analysis = record.get("analysis") or {}
            if side is None:
                continue
            if action in ("move", "double") and "cube-scale" in analysis:
                equities = _cube_equities(analysis, analysis["cube-scale"])
                if action == "double":
                    offered = equities
            elif action in ("take", "drop"):
                equities = offered
            else:
                continue
            cost = cube_cost(str(action), equities)
            if cost is not None:
                costs.append((side, number, str(action), cost))
    return costs


def match_mistakes(
    match: dict[str, Any], left: int = 0
) -> tuple[list[Mistake], list[list[tuple[int, int]]]]:
    """Every marked mistake of the match, and per game the sides' (cube blunders, cube errors).

    A mistake's ``move`` is its row in the game's move list with gnubg's side ``left``
    in the left column (0: as the file has it).
    """
    mistakes: list[Mistake] = []
    cube_marks: list[list[tuple[int, int]]] = []
    for number, game in enumerate(match.get("games", []), start=1):
        rows = _Rows(left)
        marks = [[0, 0], [0, 0]]
        offered: tuple[float, float] | None = None
        for record in game.get("game", []):
            action = record.get("action")
            side = SIDES.index(record["player"]) if record.get("player") in SIDES else None
            if side is None or action not in ("move", "double", "take", "drop"):
                continue
            row = rows.place(side)
            analysis = record.get("analysis") or {}
            equities = _cube_equities(analysis, analysis.get("cube-scale"))
            if action == "double":
                offered = equities
            if action == "move":
                moves = analysis.get("moves")
                if analysis.get("skill") and moves and "imove" in analysis:
                    played, best = moves[analysis["imove"]], moves[0]
                    mistakes.append(
                        Mistake(
                            side,
                            number,
                            row,
                            "chequer",
                            analysis["skill"],
                            best["score"] - played["score"],
                            "".join(str(d) for d in record.get("dice", ())),
                            move_text(record.get("move")),
                            move_text(best.get("move")),
                        )
                    )
                if analysis.get("cube-skill"):
                    mistakes.append(
                        Mistake(
                            side,
                            number,
                            row,
                            "cube",
                            analysis["cube-skill"],
                            cube_cost("move", equities),
                            "",
                            "no double",
                            "double",
                        )
                    )
                    _mark(marks, side, analysis["cube-skill"])
            elif action == "double":
                if analysis.get("skill"):
                    mistakes.append(
                        Mistake(
                            side,
                            number,
                            row,
                            "cube",
                            analysis["skill"],
                            cube_cost("double", equities),
                            "",
                            "double",
                            "no double",
                        )
                    )
                    _mark(marks, side, analysis["skill"])
            elif action in ("take", "drop") and analysis.get("skill"):
                other = "pass" if action == "take" else "take"
                mistakes.append(
                    Mistake(
                        side,
                        number,
                        row,
                        "cube",
                        analysis["skill"],
                        cube_cost(str(action), offered),
                        "",
                        "take" if action == "take" else "pass",
                        other,
                    )
                )
                _mark(marks, side, analysis["skill"])
        cube_marks.append([(marks[0][0], marks[0][1]), (marks[1][0], marks[1][1])])
    return mistakes, cube_marks


def _mark(marks: list[list[int]], side: int, skill: str) -> None:
    if skill == "very bad":
        marks[side][0] += 1
    elif skill == "bad":
        marks[side][1] += 1


@dataclass(frozen=True, slots=True)
class MatchFigures:
    """The whole analysis: per side over the match, per game per side, the biggest mistakes."""

    match: tuple[Figures, Figures]
    games: list[tuple[Figures, Figures] | None]
    mistakes: list[Mistake]


def match_figures(match: dict[str, Any], left: int = 0) -> MatchFigures:
    """Figures from gnubg's ``match(include_analysis=1, include_statistics=1)`` dict.

    ``left``: gnubg's side shown in the left column of the match's move list.
    """
    mistakes, cube_marks = match_mistakes(match, left)
    totals = [(sum(g[s][0] for g in cube_marks), sum(g[s][1] for g in cube_marks)) for s in (0, 1)]
    stats = match["stats"]
    per_match = (
        side_figures(stats.get("X", {}), totals[0]),
        side_figures(stats.get("O", {}), totals[1]),
    )
    games: list[tuple[Figures, Figures] | None] = []
    for game, marks in zip(match.get("games", []), cube_marks, strict=False):
        gs = game.get("stats")
        games.append(
            (side_figures(gs.get("X", {}), marks[0]), side_figures(gs.get("O", {}), marks[1]))
            if gs
            else None
        )
    # Worst first: blunders before errors, then by the equity given up.
    ranked = [m for m in mistakes if m.skill in ("very bad", "bad")]
    ranked.sort(key=lambda m: (m.skill != "very bad", -(m.loss_emg or 0.0)))
    kept: list[Mistake] = []
    for side in (0, 1):
        kept += [m for m in ranked if m.side == side][:BLUNDERS_KEPT]
    return MatchFigures(per_match, games, kept)
