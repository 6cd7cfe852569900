"""The last rules readings (issue 21): where game 1 must start, files cut off inside a
game, and automatic doubles before a taken double in a money session."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.rules.check import CheckOptions, check_match_data
from matches.rules.match import DoubleReport, GameReport, MatchRules, MatchState, check_game_report
from matches.rules.matfile import read_mat, write_mat

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "gnubg"
GOOD = CORPUS / "m12_7pt.mat"  # 7 points, 6 games, game 1 at 0-0
FILES = [CORPUS / f"{stem}.{ext}" for stem in ("m12_7pt", "m03_5pt") for ext in ("mat", "sgf")]
SCORES = st.tuples(st.integers(0, 6), st.integers(0, 6))


def _with_first_score(score: tuple[int, int]) -> str:
    record = read_mat(GOOD.read_bytes())
    first = replace(record.games[0], score=score)
    return write_mat(replace(record, games=(first, *record.games[1:])))


# -- game 1 starts at the match's starting score ---------------------------------------


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(header=SCORES, start=SCORES)
def test_game_one_is_checked_against_the_starting_score(
    header: tuple[int, int], start: tuple[int, int]
) -> None:
    report = check_match_data(_with_first_score(header), CheckOptions(start=start))
    if header != start:
        error = report.errors[0]
        assert (error["code"], error["game"], error["move"]) == ("score-mismatch", 1, 0)
        assert report.games == []
        assert f"game 1 says the score is {header[0]}-{header[1]}" in error["message"]
    else:  # game 1 may break other rules from there (a double in a Crawford game)
        assert not [e for e in report.errors if e["code"] == "score-mismatch" and e["game"] == 1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none"}
    return subprocess.run(
        [sys.executable, "manage.py", "checkmatch", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_checkmatch_takes_the_starting_score(tmp_path: Path) -> None:
    assert _run(str(GOOD)).returncode == 0  # 0-0 by default
    off = _run("--start-score", "2-0", str(GOOD))
    assert off.returncode == 1, off.stderr
    assert off.stdout.startswith(f"{GOOD}: INVALID at game 1, move 0: score-mismatch: ")
    penalty = tmp_path / "penalty.mat"
    penalty.write_text(_with_first_score((2, 0)), encoding="utf-8")
    assert "at game 1, move 0: score-mismatch" in _run(str(penalty)).stdout
    # the file's own game 1 at 2-0 agrees with --start-score 2-0: the next game does not
    later = _run("--json", "--start-score", "2-0", str(penalty))
    assert json.loads(later.stdout)[0]["errors"][0]["game"] == 2
    bad = _run("--start-score", "two", str(GOOD))
    assert bad.returncode == 2
    assert "two counts like 0-0" in bad.stderr


# -- a file that ends inside a game ----------------------------------------------------


def _game_spans(text: str, ext: str) -> list[tuple[int, int]]:
    """For each game, the text positions a cut lands inside it: after its ``Game N``
    line (``.mat``) or its ``(`` (``.sgf``), up to its ``Wins`` line or its ``)``."""
    if ext == "sgf":
        starts = [m.start() + 1 for m in re.finditer(r"\(;", text)]
        ends = [m.start() for m in re.finditer(r"\)\s*(?=\(;|$)", text)]
        return list(zip(starts, ends, strict=True))
    starts = [m.end() for m in re.finditer(r"^ Game \d+\n", text, re.MULTILINE)]
    wins = [m.start() for m in re.finditer(r"Wins \d+ point", text)]
    return list(zip(starts, [text.rindex("\n", 0, w) + 1 for w in wins], strict=True))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_file_cut_inside_a_game_is_refused_as_truncated(path: Path, data: st.DataObject) -> None:
    text = path.read_text(encoding="utf-8")
    spans = _game_spans(text, path.suffix[1:])
    game = data.draw(st.integers(0, len(spans) - 1), label="game")
    start, end = spans[game]
    cut = data.draw(st.integers(start, end - 1), label="cut")
    report = check_match_data(text[:cut], file=path.name)
    assert not report.valid
    error = report.errors[0]
    assert (error["code"], error["game"]) == ("truncated", game + 1)
    assert isinstance(error["move"], int)
    assert error["move"] >= 0
    assert f"the file ends inside game {game + 1}, at move {error['move']}" in error["message"]
    assert [g["number"] for g in report.games] == list(range(1, game + 1))


def test_a_last_game_without_its_result_line_is_truncated() -> None:
    text = GOOD.read_text(encoding="utf-8")
    last_wins = [m.start() for m in re.finditer(r"^ +Wins", text, re.MULTILINE)][-1]
    error = check_match_data(text[:last_wins]).errors[0]  # ends with a line break
    assert (error["code"], error["game"]) == ("truncated", 6)
    lines = text[:last_wins].rstrip("\n").splitlines()
    assert error["move"] == int(lines[-1].split(")")[0])


def test_a_complete_file_without_a_final_line_break_is_valid() -> None:
    text = GOOD.read_text(encoding="utf-8").rstrip()
    assert check_match_data(text).valid


def test_checkmatch_names_file_game_and_move_of_the_cut(tmp_path: Path) -> None:
    text = GOOD.read_text(encoding="utf-8")
    start = _game_spans(text, "mat")[2][0]
    line = text.index("  4) ", start)
    cut = tmp_path / "cut.mat"
    cut.write_text(text[: line + 12], encoding="utf-8")  # " 4) 43: 13/9" cut mid-move
    done = _run(str(cut))
    assert done.returncode == 1, done.stderr
    assert done.stdout.strip() == (
        f"{cut}: INVALID at game 3, move 4: truncated: "
        "the file ends inside game 3, at move 4: the game is cut off before its result"
    )


# -- automatic doubles before a taken double (money) -------------------------------------


MONEY = """ 0 point match

 Game 1
 Ann : 0                        Bo : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2)  Doubles => {offer}
  3)                             Takes
  3) 64: 24/18 13/9              62: 24/18 13/11
  4)                             Resigns
      Wins {points} points

 Game 2
 Ann : {score}                        Bo : 0
  1) 21: 13/11 6/5
"""


@pytest.mark.parametrize(
    ("offer", "points"),
    [(4, 4), (2, 2)],  # the stakes as they stood, or as gnubg writes them (as if from 1)
    ids=["as-they-stood", "as-gnubg-writes"],
)
def test_a_taken_double_after_an_automatic_double_is_worth_four(offer: int, points: int) -> None:
    text = MONEY.format(offer=offer, points=points, score=4)
    report = check_match_data(text, CheckOptions(auto_doubles=1))
    first = report.games[0]
    assert (first["cube"], first["points"], first["ended_by"]) == (4, 4, "resign")
    # the file stops inside game 2: that is the only thing wrong
    assert [(e["code"], e["game"]) for e in report.errors] == [("truncated", 2)]
    # without automatic doubles allowed, the file does not add up
    plain = check_match_data(text).errors[0]
    assert (plain["code"], plain["game"]) == (
        ("bad-cube-value", 1) if offer == 4 else ("score-mismatch", 2)
    )


def test_a_reported_money_game_with_an_automatic_double_then_a_take() -> None:
    report = GameReport(winner=1, cube=4, doubles=[DoubleReport(0, 1)], automatic_doubles=1)
    checked = check_game_report(MatchState.start(0), MatchRules(0, auto_doubles=1), report)
    assert (checked.cube, checked.points, checked.cube_turned) == (4, 4, True)
