"""Checking match files: our checker against GNU Backgammon importing the same files.

Whole processes, start-up included, timed in the same run and interleaved (the
machine is shared, so only ratios taken together mean anything; CPU seconds are
printed beside wall-clock seconds because they suffer less from other load):

- ``manage.py checkmatch FILE...`` (Django start-up included),
- ``python -m matches.rules.check FILE...`` (the same engine without Django),
- ``gnubg -t -q -r -c CMDS`` where CMDS holds one ``import mat PATH`` line per file.

The files are 120 thirteen-point matches from gnubg self-play, made once by
``bench/make_corpus.py`` into ``bench/out/checkmatch-corpus`` (about five minutes).
The target is the checker within 5x of gnubg.

    .venv/bin/python bench/bench_checkmatch.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.rules.check import check_match_data, read_match  # noqa: E402
from matches.rules.record import RollPlay  # noqa: E402

CORPUS = ROOT / "bench" / "out" / "checkmatch-corpus"
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
COUNT = 120
TARGET = 5.0


def corpus() -> list[Path]:
    files = sorted(CORPUS.glob("b*.mat"))
    if len(files) < COUNT:
        print(f"making {COUNT} matches with gnubg into {CORPUS} (a few minutes)...", flush=True)
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "bench" / "make_corpus.py"),
                str(CORPUS),
                "--bench",
                str(COUNT),
            ],
            check=True,
        )
        files = sorted(CORPUS.glob("b*.mat"))
    return files[:COUNT]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[:3]} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if not shutil.which(GNUBG):
        print(f"GNU Backgammon not found at {GNUBG}: nothing to compare against")
        return 0
    load = os.getloadavg()
    files = corpus()
    data = [f.read_bytes() for f in files]
    records = [read_match(d) for d in data]
    rolls = sum(isinstance(a, RollPlay) for r in records for g in r.games for a in g.actions)
    actions = sum(len(g.actions) for r in records for g in r.games)
    games = sum(len(r.games) for r in records)
    invalid = [f.name for f, d in zip(files, data, strict=True) if not check_match_data(d).valid]
    if invalid:
        raise SystemExit(f"the benchmark files should all be valid: {invalid[:5]}")

    cmds = CORPUS / "import-all.cmd"
    cmds.write_text("".join(f'import mat "{f}"\n' for f in files))
    paths = [str(f) for f in files]
    env = {**os.environ, "SECRET_KEY": "bench-checkmatch"}
    env.pop("DEBUG", None)
    # An installed site has its bytecode compiled; keep ours out of the source tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(ROOT / "bench" / "out" / "pycache")
    variants = {
        "gnubg import mat": [GNUBG, "-t", "-q", "-r", "-c", str(cmds)],
        "python -m matches.rules.check": [sys.executable, "-m", "matches.rules.check", *paths],
        "manage.py checkmatch": [sys.executable, "manage.py", "checkmatch", *paths],
        "python start-up only": [sys.executable, "-c", "pass"],
        "manage.py start-up only": [sys.executable, "manage.py", "help", "checkmatch"],
    }
    for cmd in variants.values():  # warm-up: bytecode written, files in the page cache
        timed(cmd, env)
    times: dict[str, list[float]] = {name: [] for name in variants}
    cpus: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(args.rounds):
        for name, cmd in variants.items():
            wall, cpu = timed(cmd, env)
            times[name].append(wall)
            cpus[name].append(cpu)

    started, cpu_started = time.perf_counter(), time.process_time()
    for d in data:
        check_match_data(d)
    in_process = time.perf_counter() - started
    in_process_cpu = time.process_time() - cpu_started

    print(
        f"{len(files)} matches, {games} games, {actions} actions ({rolls} rolls), "
        f"{args.rounds} rounds, interleaved"
    )
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in load)} on {os.cpu_count()} cores")
    print(f"{'':32}{'wall best':>10}{'median':>9}{'cpu best':>10}{'median':>9}")
    for name in variants:
        wall, cpu = times[name], cpus[name]
        print(
            f"{name:32}{min(wall):9.3f}s{statistics.median(wall):8.3f}s"
            f"{min(cpu):9.3f}s{statistics.median(cpu):8.3f}s"
        )
    gnubg_best = min(times["gnubg import mat"])
    gnubg_median = statistics.median(times["gnubg import mat"])
    for name in ("python -m matches.rules.check", "manage.py checkmatch"):
        best = min(times[name]) / gnubg_best
        median = statistics.median(times[name]) / gnubg_median
        verdict = "within" if best <= TARGET else "OVER"
        print(
            f"{name} / gnubg, wall: {best:.2f}x best-to-best, {median:.2f}x median-to-median "
            f"({verdict} the {TARGET:.0f}x target)"
        )
    print(
        f"in-process check (no start-up, caches warm): {in_process:.3f}s wall, "
        f"{in_process_cpu:.3f}s CPU, {in_process_cpu / actions * 1e6:.1f} us CPU per action"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
