"""Check whole match files (``.mat`` or ``.sgf``): the engine behind ``checkmatch``.

:func:`check_match_data` reads one file's bytes, replays every game under the
rules and returns a :class:`FileReport`: the match, each game checked, and the
first thing wrong in reading order. ``python -m matches.rules.check FILE...`` is
the same check without Django start-up.

>>> text = " 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 21: 13/11 6/5\\n"
>>> report = check_match_data(text, file="short.mat")
>>> report.valid, report.errors[0]["code"], report.errors[0]["game"]
(False, 'truncated', 1)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import RulesError
from .match import MatchRules, Score
from .matfile import decode, parse_mat
from .record import MatchRecord, replay_match
from .sgf import parse_sgf


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """The rules to check by (the file does not say them) and the score the match starts at.

    ``jacoby`` and ``auto_doubles`` apply to money sessions (``0 point match``)
    only; in match play gammons always count. Money sessions may show beavers and
    raccoons. ``start`` is the match's starting score in the file's side order (0-0,
    or the penalty points it carries): game 1's score line must say it.

    >>> CheckOptions(crawford=False).rules_for(5)
    MatchRules(length=5, crawford=False, holland=False, jacoby=False, beavers=False, raccoons=False, auto_doubles=0)
    """

    crawford: bool = True
    holland: bool = False
    jacoby: bool = False
    auto_doubles: int = 0
    start: Score = (0, 0)

    def rules_for(self, length: int) -> MatchRules:
        """The :class:`MatchRules` for a file of this match length.

        >>> CheckOptions(jacoby=True).rules_for(7).jacoby
        False
        """
        if length == 0:
            return MatchRules(
                0,
                crawford=False,
                jacoby=self.jacoby,
                beavers=True,
                raccoons=True,
                auto_doubles=self.auto_doubles,
            )
        return MatchRules(length, crawford=self.crawford, holland=self.holland)


@dataclass
class FileReport:
    """What ``checkmatch`` says about one file (``as_dict`` is its JSON object).

    >>> FileReport("a.mat").valid
    False
    """

    file: str
    valid: bool = False
    match_length: int | None = None
    players: list[str] | None = None
    final_score: list[int] | None = None
    winner: str | None = None
    games: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The report as the JSON object ``checkmatch --json`` prints.

        >>> list(FileReport("a.mat").as_dict())[:3]
        ['file', 'valid', 'match_length']
        """
        return {
            "file": self.file,
            "valid": self.valid,
            "match_length": self.match_length,
            "players": self.players,
            "final_score": self.final_score,
            "winner": self.winner,
            "games": self.games,
            "errors": self.errors,
        }

    def summary(self) -> str:
        """One line for a person: valid with the result, or the first error and where.

        >>> FileReport("a.mat", errors=[{"code": "bad-dice", "message": "70 is not a roll",
        ...     "game": 2, "move": 5, "side": 1}], players=["Ann", "Bo"]).summary()
        'a.mat: INVALID at game 2, move 5 (Bo): bad-dice: 70 is not a roll'
        """
        if self.valid:
            a, b = self.final_score or [0, 0]
            names = self.players or ["side 0", "side 1"]
            what = f"{self.match_length}-point match" if self.match_length else "money session"
            result = f", {self.winner} wins" if self.winner else ", not finished"
            return (
                f"{self.file}: valid {what}, {len(self.games)} games, "
                f"{names[0]} {a} - {names[1]} {b}{result}"
            )
        error = self.errors[0]
        where = []
        if error["game"] is not None:
            where.append(f"game {error['game']}")
        if error["move"] is not None:
            where.append(f"move {error['move']}")
        place = f" at {', '.join(where)}" if where else ""
        if error["side"] is not None:
            who = self.players[error["side"]] if self.players else f"side {error['side']}"
            place += f" ({who})"
        return f"{self.file}: INVALID{place}: {error['code']}: {error['message']}"


def read_match(data: bytes | str) -> MatchRecord:
    """Read a ``.sgf`` (it starts with ``(``) or ``.mat`` file, keeping unreadable places.

    >>> read_match("(;GM[6]MI[length:3]PW[A]PB[B])").length
    3
    """
    text = decode(data)
    if text.lstrip().startswith("("):
        return parse_sgf(text)
    return parse_mat(text)


def check_match_data(
    data: bytes | str, options: CheckOptions | None = None, *, file: str = ""
) -> FileReport:
    """Check one match file's contents; never raises for bad contents.

    >>> check_match_data(b"garbage").errors[0]["code"]
    'parse-error'
    """
    options = options or CheckOptions()
    report = FileReport(file)
    try:
        record = read_match(data)
    except RulesError as exc:
        report.errors.append(exc.as_dict())
        return report
    report.match_length = record.length
    report.players = list(record.players)
    try:
        rules = options.rules_for(record.length)
    except RulesError as exc:
        report.errors.append(exc.as_dict())
        return report
    replay = replay_match(record, rules, options.start)
    for played in replay.games:
        report.games.append(
            {
                "number": played.number,
                "score_before": list(played.score_before),
                "winner": played.winner,
                "points": played.points,
                "cube": played.cube,
                "result": str(played.result),
                "ended_by": str(played.ended_by),
                "crawford": played.crawford,
            }
        )
    if replay.error is not None:
        report.errors.append(replay.error.as_dict())
    state = replay.state
    report.final_score = list(state.score)
    if state.winner is not None:
        report.winner = record.players[state.winner]
    report.valid = not report.errors
    return report


def check_paths(paths: Sequence[str], options: CheckOptions) -> tuple[list[FileReport], list[str]]:
    """Check each file; return the reports and the files that could not be read.

    >>> reports, unreadable = check_paths(["/no/such.mat"], CheckOptions())
    >>> unreadable, reports[0].errors[0]["code"]
    (['/no/such.mat'], 'read-error')
    """
    reports: list[FileReport] = []
    unreadable: list[str] = []
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            unreadable.append(path)
            report = FileReport(path)
            report.errors.append(
                {
                    "code": "read-error",
                    "message": f"cannot read {path}: {exc.strerror or exc}",
                    "game": None,
                    "move": None,
                    "side": None,
                }
            )
            reports.append(report)
            continue
        reports.append(check_match_data(data, options, file=path))
    return reports, unreadable


def exit_code(reports: Sequence[FileReport], unreadable: Sequence[str]) -> int:
    """0 when every file is valid, 1 when any is not, 2 when any could not be read.

    >>> exit_code([FileReport("a", valid=True)], []), exit_code([FileReport("b")], [])
    (0, 1)
    """
    if unreadable:
        return 2
    return 0 if all(r.valid for r in reports) else 1


def render(reports: Sequence[FileReport], *, as_json: bool) -> str:
    """The command's output: one JSON array, or one line per file.

    >>> render([FileReport("a.mat")], as_json=True).startswith('[')
    True
    """
    if as_json:
        return json.dumps([r.as_dict() for r in reports], ensure_ascii=False, indent=1)
    return "\n".join(r.summary() for r in reports)


def main(argv: Sequence[str] | None = None, prog: str = "python -m matches.rules.check") -> int:
    """``python -m matches.rules.check [--json] [--holland] [--no-crawford] [--jacoby]
    [--auto-doubles N] [--start-score A-B] FILE...``

    >>> main(["/no/such.mat"])
    /no/such.mat: INVALID: read-error: cannot read /no/such.mat: No such file or directory
    2
    """
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Check backgammon match files (.mat, .sgf) against the rules.",
    )
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    options = options_from(vars(args))
    reports, unreadable = check_paths(args.files, options)
    sys.stdout.write(render(reports, as_json=args.json) + "\n")
    return exit_code(reports, unreadable)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments (shared by the Django command and ``-m`` entry point).

    >>> parser = argparse.ArgumentParser()
    >>> add_arguments(parser)
    >>> vars(parser.parse_args(["--holland", "a.mat"]))["holland"]
    True
    """
    parser.add_argument("files", nargs="+", metavar="FILE", help=".mat or .sgf match files")
    parser.add_argument("--json", action="store_true", help="print one JSON array")
    parser.add_argument("--holland", action="store_true", help="apply the Holland rule")
    parser.add_argument(
        "--no-crawford", dest="no_crawford", action="store_true", help="no Crawford game"
    )
    parser.add_argument("--jacoby", action="store_true", help="Jacoby rule (money sessions only)")
    parser.add_argument(
        "--auto-doubles",
        dest="auto_doubles",
        type=int,
        default=0,
        metavar="N",
        help="allow up to N automatic doubles a game (money sessions only)",
    )
    parser.add_argument(
        "--start-score",
        dest="start_score",
        type=start_score,
        default=(0, 0),
        metavar="A-B",
        help="the score the match starts at, first player first (default 0-0): "
        "game 1's score line must say it",
    )


def start_score(text: str) -> Score:
    """The ``--start-score`` value: two counts like ``0-0`` or ``2-0``.

    >>> start_score("2-0")
    (2, 0)
    >>> start_score("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: the starting score is two counts like 0-0 or 2-1, not 'x'
    """
    first, dash, second = text.strip().partition("-")
    if dash and first.strip().isdigit() and second.strip().isdigit():
        a, b = int(first), int(second)
        if a < 10**9 and b < 10**9:
            return (a, b)
    raise argparse.ArgumentTypeError(
        f"the starting score is two counts like 0-0 or 2-1, not {text!r}"
    )


def options_from(values: dict[str, Any]) -> CheckOptions:
    """The :class:`CheckOptions` for parsed command-line values.

    >>> options_from({"no_crawford": True}).crawford
    False
    """
    return CheckOptions(
        crawford=not values.get("no_crawford", False),
        holland=bool(values.get("holland", False)),
        jacoby=bool(values.get("jacoby", False)),
        auto_doubles=max(0, int(values.get("auto_doubles") or 0)),
        start=values.get("start_score") or (0, 0),
    )


if __name__ == "__main__":
    sys.exit(main())
