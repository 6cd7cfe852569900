"""``make lint`` caps the errors of ``mypy --strict`` over the apps (tools/lint_strict_budget.py).

The repository itself is checked by ``make lint`` (a strict run takes half a minute);
here the count is read from mypy's closing lines, and the script runs mypy on small
apps made for the test, just within and just over the budget.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tools import lint_strict_budget

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "lint_strict_budget.py"


@pytest.mark.parametrize(
    ("output", "count"),
    [
        (
            "a.py:1: error: x  [type-arg]\nFound 12 errors in 6 files (checked 236 source files)\n",
            12,
        ),
        ("a.py:1: error: x  [misc]\nFound 1 error in 1 file (checked 3 source files)\n", 1),
        ("Success: no issues found in 236 source files\n", 0),
        # A crash or a refused configuration prints no closing line: no count, no pass.
        ("mypy: error: Cannot find implementation or library stub\n", None),
        ("Traceback (most recent call last):\n  ...\nKeyError: 'x'\n", None),
        ("", None),
        # A blocking error (a duplicate module, a syntax error) stops the check early.
        (
            "m: error: Duplicate module\nFound 1 error in 1 file (errors prevented further checking)\n",
            None,
        ),
    ],
)
def test_the_count_is_mypy_s_closing_line(output: str, count: int | None) -> None:
    assert lint_strict_budget.error_count(output) == count


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True, check=False
    )


def _apps(tmp_path: Path, errors: int) -> Path:
    """The three apps, ``errors`` strict errors (untyped functions) in matches/mod.py."""
    for app in lint_strict_budget.APPS:
        (tmp_path / app).mkdir()
        (tmp_path / app / "__init__.py").write_text("")
    lines = [f"def f{n}(x):\n    return x\n" for n in range(errors)]
    (tmp_path / "matches" / "mod.py").write_text("\n\n".join(["X: int = 1\n", *lines]))
    return tmp_path


def test_at_the_budget_passes_and_says_the_count(tmp_path: Path) -> None:
    run = _lint(_apps(tmp_path, lint_strict_budget.BUDGET))
    assert run.returncode == 0, run.stdout
    assert f"{lint_strict_budget.BUDGET} errors under mypy --strict" in run.stdout


def test_above_the_budget_fails_and_shows_the_errors(tmp_path: Path) -> None:
    over = lint_strict_budget.BUDGET + 1
    run = _lint(_apps(tmp_path, over))
    assert run.returncode == 1
    assert "matches/mod.py:4: error: Function is missing a type annotation" in run.stdout
    assert f"{over} errors under mypy --strict in core, matches, tournament: at most" in run.stdout


def test_a_mypy_that_does_not_finish_fails(tmp_path: Path) -> None:
    # No apps at all: mypy cannot check them (exit 2, "errors prevented further checking").
    run = _lint(tmp_path)
    assert run.returncode == 2
    assert "gave no error count" in run.stdout
