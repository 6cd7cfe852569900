"""``manage.py checkmatch`` and ``python -m matches.rules.check``: output, options, exit codes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from matches.rules.matfile import read_mat, write_mat

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "gnubg"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
GOOD = CORPUS / "m12_7pt.mat"  # 7 points, Crawford game 4
NO_CRAWFORD = CORPUS / "m26_5pt.mat"  # played without Crawford: doubles in game 3 at 4-1
HOLLAND = CORPUS / "m11_5pt.mat"  # an early post-Crawford double


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("checkmatch", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def broken_copy(tmp_path: Path) -> Path:
    text = GOOD.read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("  3) ") and ": " in line[5:9])
    roll = lines[i][5:7]
    lines[i] = f"  3) {roll}: 1/0 1/0".ljust(33) + lines[i][33:]
    path = tmp_path / "broken.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_report_for_a_valid_file() -> None:
    code, out = run("--json", str(GOOD))
    assert code == 0
    [report] = json.loads(out)
    expected = EXPECTED["m12_7pt"]
    assert list(report) == [
        "file",
        "valid",
        "match_length",
        "players",
        "final_score",
        "winner",
        "games",
        "errors",
    ]
    assert report["valid"] is True
    assert report["match_length"] == 7
    assert report["players"] == expected["players"]
    assert report["final_score"] == expected["final_score"]
    assert report["winner"] == expected["players"][0]
    assert report["errors"] == []
    game = report["games"][0]
    assert list(game) == [
        "number",
        "score_before",
        "winner",
        "points",
        "cube",
        "result",
        "ended_by",
        "crawford",
    ]
    assert [g["crawford"] for g in report["games"]] == [False, False, False, True, False, False]
    assert {g["ended_by"] for g in report["games"]} <= {"play", "drop", "resign"}
    assert {g["result"] for g in report["games"]} <= {"single", "gammon", "backgammon"}


def test_json_report_for_an_invalid_file(tmp_path: Path) -> None:
    code, out = run("--json", str(GOOD), str(broken_copy(tmp_path)))
    assert code == 1
    good, bad = json.loads(out)
    assert good["valid"] is True
    assert bad["valid"] is False
    assert bad["games"] == []
    assert bad["final_score"] == [0, 0]
    assert bad["winner"] is None
    [error] = bad["errors"]
    assert (error["code"], error["game"], error["move"]) == ("illegal-move", 1, 3)
    assert error["side"] == 0
    assert "1/off is not legal" in error["message"]


def test_human_lines_name_file_game_and_move(tmp_path: Path) -> None:
    broken = broken_copy(tmp_path)
    code, out = run(str(GOOD), str(broken))
    assert code == 1
    first, second = out.strip().splitlines()
    assert first.startswith(f"{GOOD}: valid 7-point match")
    assert second.startswith(f"{broken}: INVALID at game 1, move 3 (")
    assert "illegal-move" in second


def test_options_change_the_rules() -> None:
    code, out = run("--json", str(NO_CRAWFORD))
    assert code == 1
    assert json.loads(out)[0]["errors"][0]["code"] == "double-in-crawford"
    assert run(str(NO_CRAWFORD), "--no-crawford")[0] == 0

    assert run(str(HOLLAND))[0] == 0
    code, out = run("--json", "--holland", str(HOLLAND))
    assert code == 1
    error = json.loads(out)[0]["errors"][0]
    assert (error["code"], error["game"], error["move"]) == ("holland", 4, 2)


def test_jacoby_counts_in_money_sessions(tmp_path: Path) -> None:
    match = read_mat((CORPUS / "m19_5pt.mat").read_bytes())
    gammon = match.games[0]  # played out, a gammon with the cube in the middle
    session = replace(match, length=0, games=(gammon,))
    path = tmp_path / "money.mat"
    path.write_text(write_mat(session), encoding="utf-8")
    assert run(str(path))[0] == 0
    code, out = run("--json", "--jacoby", str(path))
    assert code == 1
    assert json.loads(out)[0]["errors"][0]["code"] == "points-mismatch"
    single = replace(gammon, actions=(*gammon.actions[:-1], replace(gammon.actions[-1], points=1)))
    path.write_text(write_mat(replace(session, games=(single,))), encoding="utf-8")
    assert run("--jacoby", str(path))[0] == 0
    assert run(str(path))[0] == 1


def test_unreadable_file_is_exit_2(tmp_path: Path) -> None:
    code, out = run("--json", str(GOOD), str(tmp_path / "missing.mat"))
    assert code == 2
    good, missing = json.loads(out)
    assert good["valid"] is True
    assert missing["errors"][0]["code"] == "read-error"


def test_garbage_is_a_parse_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.mat"
    path.write_bytes(b"\x00\x01 not a match \xff")
    code, out = run("--json", str(path))
    assert code == 1
    report = json.loads(out)[0]
    assert report["errors"][0]["code"] == "parse-error"
    assert report["match_length"] is None


def _process(*args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "SECRET_KEY": "checkmatch-test",
        # an unreachable database: the command must not need one
        "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none",
    }
    env.pop("DEBUG", None)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "entry", [["manage.py", "checkmatch"], ["-m", "matches.rules.check"]], ids=["django", "engine"]
)
def test_exit_codes_of_whole_processes(entry: list[str], tmp_path: Path) -> None:
    assert _process(*entry, str(GOOD), str(CORPUS / "m12_7pt.sgf")).returncode == 0
    invalid = _process(*entry, "--json", str(GOOD), str(broken_copy(tmp_path)))
    assert invalid.returncode == 1, invalid.stderr
    assert [r["valid"] for r in json.loads(invalid.stdout)] == [True, False]
    assert _process(*entry, str(tmp_path / "missing.mat")).returncode == 2
    usage = _process(*entry)
    assert usage.returncode == 2
    assert "FILE" in usage.stderr
    assert _process(*entry, "--no-such-option", str(GOOD)).returncode == 2
