"""``make lint`` caps the apps' ``# type: ignore`` comments (tools/lint_type_ignores.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "lint_type_ignores.py"


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True, check=False
    )


def _app(tmp_path: Path, ignores: int) -> Path:
    for app in ("matches", "tournament"):
        (tmp_path / app).mkdir()
    lines = [f"x{n} = 1  # type: ignore[assignment]" for n in range(ignores)]
    (tmp_path / "matches" / "mod.py").write_text("\n".join(["y = 2", *lines]) + "\n")
    return tmp_path


def test_the_repository_is_within_budget() -> None:
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout


def test_at_the_budget_passes(tmp_path: Path) -> None:
    assert _lint(_app(tmp_path, 33)).returncode == 0


def test_above_the_budget_fails_and_names_each_line(tmp_path: Path) -> None:
    run = _lint(_app(tmp_path, 34))
    assert run.returncode == 1
    assert "matches/mod.py:2" in run.stdout
    assert "34 '# type: ignore' comments" in run.stdout
