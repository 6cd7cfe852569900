"""``make stress`` runs the 256-player load test (``bench/bench_load.py``) to the end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.stress

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_256_player_event_is_played_to_the_end_under_load(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    done = subprocess.run(
        [sys.executable, "bench/bench_load.py", "--deadline", "600", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    report = json.loads(out.read_text()) if out.exists() else {}
    print(json.dumps(report, indent=1))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert report["finished"]
    assert report["server_errors"] == 0
    assert report["invariant_problems"] == []
    assert report["worker_errors"] == 0
