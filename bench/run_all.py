"""``make bench``: run every ``bench/bench_*.py`` in one go and keep their output.

Each benchmark measures a ratio against a baseline taken in the same run (the
machine is shared and noisy), prints its figures, and exits 0. The combined
output goes to ``bench/out/latest.txt``; figures worth keeping are copied by
hand into ``bench/RESULTS.md`` with the date.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    wanted = set(argv)
    scripts = sorted(p for p in HERE.glob("bench_*.py") if not wanted or p.stem in wanted)
    out_dir = HERE / "out"
    out_dir.mkdir(exist_ok=True)
    failures = 0
    with (out_dir / "latest.txt").open("w") as log:
        for script in scripts:
            header = f"=== {script.name} ==="
            print(header, flush=True)
            log.write(header + "\n")
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, str(script)], cwd=HERE.parent, capture_output=True, text=True
            )
            text = done.stdout + (done.stderr if done.returncode else "")
            print(text, flush=True)
            log.write(text)
            took = (
                f"({script.name}: exit {done.returncode}, {time.perf_counter() - started:.1f} s)\n"
            )
            print(took)
            log.write(took + "\n")
            failures += done.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
