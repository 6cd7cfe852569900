"""The report benchmark before and after a change, interleaved on one machine.

The machine is shared and noisy (±15 % on one figure), so one run of each side says
little. This checks ``REF`` out in a throw-away worktree and runs ``bench_reports.py``
of it and of this checkout alternately (before, after, before, after, ...), each in
its own throw-away database, and prints one table row per run with the load average
beside it: the workers' CPU per request of the floor and of reports, their ratio, the
ratio by rate and the reports' p99. Both sides use this checkout's virtual environment.

    .venv/bin/python bench/compare_reports.py REF [--runs 3] [--seconds 6]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The figures ``bench_reports.py`` prints, by the line that carries them.
PATTERNS = {
    "floor_cpu": r"^floor\s+server CPU per request: gunicorn workers\s+([\d.]+) ms",
    "reports_cpu": r"^reports server CPU per request: gunicorn workers\s+([\d.]+) ms",
    "ratio_rate": r"ratio reports/floor ([\d.]+) by rate",
    "ratio_cpu": r", ([\d.]+) by workers' CPU per request",
    "p99": r"reports p99 ([\d.]+) ms",
}


def figures(output: str) -> dict[str, float]:
    """The figures of one run's output (a missing one is an error: the bench changed)."""
    found = {}
    for name, pattern in PATTERNS.items():
        match = re.search(pattern, output, re.MULTILINE)
        if match is None:
            raise SystemExit(f"compare_reports: no {name!r} in the benchmark's output:\n{output}")
        found[name] = float(match.group(1))
    return found


def run(tree: Path, seconds: float) -> dict[str, float]:
    """One run of ``tree``'s report benchmark with this checkout's Python."""
    load = os.getloadavg()[0]
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "bench_reports.py"), "--seconds", str(seconds)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"compare_reports: the benchmark of {tree} failed:\n{done.stdout}{done.stderr}"
        )
    return {"load": load, **figures(done.stdout)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("ref", help="the commit to compare against (before)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side")
    parser.add_argument("--seconds", type=float, default=6.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-before-") as tmp:
        before = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(before), args.ref],
            cwd=ROOT,
            check=True,
        )
        try:
            print(f"before = {args.ref}, after = this checkout ({ROOT}); {args.seconds:g} s phases")
            print(
                "| run (load, 1 min) | floor CPU/req | reports CPU/req | ratio by CPU | ratio by rate | reports p99 |"
            )
            print("| --- | --- | --- | --- | --- | --- |")
            for n in range(1, args.runs + 1):
                for side, tree in (("before", before), ("after", ROOT)):
                    f = run(tree, args.seconds)
                    print(
                        f"| {side} {n} ({f['load']:.1f}) | {f['floor_cpu']:.2f} ms | "
                        f"{f['reports_cpu']:.2f} ms | {f['ratio_cpu']:.2f} | "
                        f"{f['ratio_rate']:.2f} | {f['p99']:.0f} ms |",
                        flush=True,
                    )
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
