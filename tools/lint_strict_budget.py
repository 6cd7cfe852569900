"""Fail when ``mypy --strict`` finds more errors in the apps than the budget allows.

Type debt once grew faster than the code: 184 errors under ``mypy --strict`` over core,
matches and tournament (issue 27). ``make lint`` runs mypy as the apps are configured
(every error fails it) and this over the same apps with ``--strict``, where at most
``BUDGET`` errors may stand. Type the new code instead of spending the budget. Run by
``make lint``; ``python tools/lint_strict_budget.py [ROOT]`` checks the apps under ROOT.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

#: The most errors ``mypy --strict`` may report over the apps together.
BUDGET = 20
APPS = ("core", "matches", "tournament")
FOUND = re.compile(r"^Found (\d+) errors? in \d+ files? \(checked \d+ source files?\)$", re.M)
CLEAN = re.compile(r"^Success: no issues found", re.M)


def error_count(output: str) -> int | None:
    """The number of errors mypy's closing line gives, or ``None`` when mypy did not
    check everything (it crashed, refused its configuration or stopped at a blocking
    error: "errors prevented further checking"), which is no pass."""
    if found := FOUND.search(output):
        return int(found.group(1))
    if CLEAN.search(output):
        return 0
    return None


def run_mypy(root: Path) -> tuple[int, str]:
    """mypy --strict over the apps under ``root``, with ``root``'s configuration: its exit
    status (2 when it could not check) and its output."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *APPS],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    return run.returncode, run.stdout + run.stderr


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    status, output = run_mypy(root)
    count = error_count(output) if status in (0, 1) else None
    if count is None:
        print(output, end="")
        print("mypy --strict gave no error count: it did not run to the end.")
        return 2
    apps = ", ".join(APPS)
    if count > BUDGET:
        print(output, end="")
        print(f"{count} errors under mypy --strict in {apps}: at most {BUDGET}.")
        print("Type the code (a typed helper, a generic's arguments) rather than add to them.")
        return 1
    print(f"{count} errors under mypy --strict in {apps} (at most {BUDGET}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
