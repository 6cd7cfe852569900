"""``make lint`` refuses committed merge-conflict markers (tools/lint_conflict_markers.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "lint_conflict_markers.py"


def _lint(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "RESULTS.md").write_text(text)
    subprocess.run(["git", "-C", str(tmp_path), "add", "RESULTS.md"], check=True)
    return subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=tmp_path, capture_output=True, text=True, check=False
    )


def test_a_committed_conflict_fails_and_names_file_and_line(tmp_path: Path) -> None:
    run = _lint(tmp_path, "# Results\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> analysis\n")
    assert run.returncode == 1
    assert "RESULTS.md:3:<<<<<<< HEAD" in run.stdout
    assert "RESULTS.md:7:>>>>>>> analysis" in run.stdout


def test_a_heading_underline_is_not_a_conflict(tmp_path: Path) -> None:
    run = _lint(tmp_path, "Results\n=======\n\nnothing else\n")
    assert run.returncode == 0, run.stdout


def test_a_diff3_conflict_names_the_ancestors_marker_too(tmp_path: Path) -> None:
    run = _lint(
        tmp_path,
        "# Results\n\n<<<<<<< HEAD\nours\n||||||| base\nold\n=======\ntheirs\n>>>>>>> x\n",
    )
    assert run.returncode == 1
    assert "RESULTS.md:5:||||||| base" in run.stdout
    assert "RESULTS.md:7:=======" in run.stdout


def test_an_ancestors_marker_left_alone_fails(tmp_path: Path) -> None:
    """Half a resolution: the sides' markers deleted, the common ancestor's left."""
    run = _lint(tmp_path, "# Results\n\nours\n|||||||\nold\n")
    assert run.returncode == 1
    assert "RESULTS.md:4:|||||||" in run.stdout


def test_a_table_row_is_not_a_marker(tmp_path: Path) -> None:
    run = _lint(tmp_path, "| a | b |\n| --- | --- |\n|||\n")
    assert run.returncode == 0, run.stdout
