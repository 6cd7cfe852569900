"""GNU Backgammon's analysis: analyses per core-hour at 0 and 2 plies, peak memory per gnubg.

Each match file of the corpus is analysed as the worker does it (``matches.analysis.engine``:
one gnubg process per pass, one thread), at 0 plies and at 2 plies. The machine is shared,
so the figures are CPU time (the gnubg process' own user + system time, from ``wait4``),
not wall time; the peak memory is the process' largest resident set.

    .venv/bin/python bench/bench_analysis.py [--quick]

``--quick`` analyses at 0 plies only. Prints, per file and per plies, the CPU seconds, ms
per move and peak MB; then analyses per core-hour by match length and what a 64-player
weekend's uploads cost with one and two analysis workers.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.analysis import engine  # noqa: E402
from matches.analysis.figures import match_figures  # noqa: E402

FILES = [
    "tests/data/gnubg/m02_3pt.mat",
    "tests/data/gnubg/m03_5pt.mat",
    "tests/data/gnubg/m04_7pt.mat",
    "tests/data/gnubg/m06_11pt.mat",
    "tests/data/analysis/a02_5pt.mat",
    "tests/data/analysis/a03_7pt.mat",
]

#: A 64-player weekend, every match with an uploaded file (the most work): Main of 64 in
#: 9, 9, 11, 11, 13 and 17 points (63 matches), a Consolation of Main's 32 first-round
#: losers in 9, 9, 9, 11, 11 (31), a Last Chance of 16 in 7, 7, 7, 9 (15): 109 matches,
#: 999 match points. Match length -> matches.
WEEKEND = {7: 14, 9: 77, 11: 15, 13: 2, 17: 1}


def main() -> int:
    gnubg = engine.gnubg_find(os.environ.get("GNUBG_PATH", ""))
    if gnubg is None:
        print("gnubg is not installed (make analysis-deps): nothing measured")
        return 0
    quick = "--quick" in sys.argv
    plies_list = (0,) if quick else (0, 2)
    print(f"{engine.gnubg_version(gnubg)}; load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'file':34} {'pt':>3} {'moves':>6} {'plies':>5} {'CPU s':>7} {'ms/move':>8} {'peak MB':>8}"
    )
    per_point: dict[int, list[float]] = {p: [] for p in plies_list}
    peak = 0
    for name in FILES:
        path = ROOT / name
        text = path.read_text()
        for plies in plies_list:
            run = engine.analyse(
                gnubg=gnubg, text=text, file_name=path.name, plies=plies, timeout=1800
            )
            if not run.ok or run.match is None:
                print(f"{name}: {run.reason}")
                continue
            figures = match_figures(run.match)
            moves = sum(f.total_moves for f in figures.match)
            length = int(run.match["match-info"]["match-length"])
            peak = max(peak, run.peak_kb)
            per_point[plies].append(run.cpu_seconds / length)
            print(
                f"{name:34} {length:>3} {moves:>6} {plies:>5} {run.cpu_seconds:>7.2f} "
                f"{1000 * run.cpu_seconds / max(moves, 1):>8.2f} {run.peak_kb / 1024:>8.1f}"
            )
    print(f"\npeak resident memory of one gnubg process: {peak / 1024:.1f} MB")
    for plies, values in per_point.items():
        if not values:
            continue
        per = sum(values) / len(values)  # CPU seconds per match point (length)
        rates = ", ".join(f"{n}-pt {3600 / (per * n):.0f}" for n in (5, 7, 11))
        print(f"{plies}-ply: {per:.2f} CPU s per match point; analyses per core-hour: {rates}")
    if len(per_point) == 2 and per_point[0] and per_point[2]:
        per = sum(per_point[0]) / len(per_point[0]) + sum(per_point[2]) / len(per_point[2])
        points = sum(n * count for n, count in WEEKEND.items())
        cpu = per * points
        matches = sum(WEEKEND.values())
        print(
            f"64-player weekend: {matches} matches, {points} match points x {per:.2f} CPU s "
            f"(quick + full pass) = {cpu / 60:.0f} CPU min: one worker {cpu / 60:.0f} min, "
            f"two workers {cpu / 120:.0f} min of analysis"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
