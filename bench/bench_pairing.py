"""Pairing a round as a maximum-weight matching (``formats.pairing``): 512 players.

Target: a round of 512 players paired in under 5 s on the shared 2-core machine,
in every round of an elimination Swiss (N = 3) played with seeded random results,
with forbidden pairs (1 in 200 pairs absolute, 1 in 100 "avoid") and without, and
a plain Swiss with forbidden pairs (9 rounds). Prints each round's time, the worst,
and the load average.

    .venv/bin/python bench/bench_pairing.py [--players 512]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.formats.pairing import weighted_pairings
from tournament.formats.swiss_elimination import (
    elimination_pairings,
    elimination_records,
    is_over,
)

TARGET = 5.0


def prohibitions(n: int, seed: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    rng = random.Random(seed)
    forbidden, avoid = [], []
    for a in range(1, n + 1):
        for b in rng.sample(range(1, n + 1), 3):
            if a < b and rng.random() < 0.35:
                (forbidden if rng.random() < 0.35 else avoid).append((a, b))
    return forbidden, avoid


def elimination(n: int, with_prohibitions: bool) -> list[tuple[int, int, float]]:
    rng = random.Random(n)
    players = list(range(1, n + 1))
    forbidden, avoid = prohibitions(n, n) if with_prohibitions else ([], [])
    rounds: list[list[tuple[int, int | None]]] = []
    played: list[tuple[int, int]] = []
    byes: set[int] = set()
    times = []
    records = elimination_records(players, rounds, losses_to_eliminate=3)
    while not is_over(records):
        alive = sum(r.alive for r in records.values())
        started = time.perf_counter()
        result = elimination_pairings(
            players, records, played=played, had_bye=byes, forbidden=forbidden, avoid=avoid
        )
        times.append((len(rounds) + 1, alive, time.perf_counter() - started))
        results: list[tuple[int, int | None]] = []
        for a, b in result.pairings:
            played.append((a, b))
            results.append((a, b) if rng.random() < 0.6 else (b, a))
        if result.bye is not None:
            byes.add(result.bye)
            results.append((result.bye, None))
        rounds.append(results)
        records = elimination_records(players, rounds, losses_to_eliminate=3)
    return times


def swiss(n: int, rounds: int) -> list[tuple[int, int, float]]:
    rng = random.Random(n + 1)
    players = list(range(1, n + 1))
    forbidden, avoid = prohibitions(n, n + 1)
    scores = dict.fromkeys(players, 0)
    played: list[tuple[int, int]] = []
    byes: set[int] = set()
    times = []
    for number in range(1, rounds + 1):
        ranked = sorted(players, key=lambda p: -scores[p])
        started = time.perf_counter()
        result = weighted_pairings(
            ranked, scores=scores, played=played, had_bye=byes, forbidden=forbidden, avoid=avoid
        )
        times.append((number, n, time.perf_counter() - started))
        for a, b in result.pairings:
            played.append((a, b))
            scores[a if rng.random() < 0.6 else b] += 1
        if result.bye is not None:
            byes.add(result.bye)
            scores[result.bye] += 1
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=512)
    args = parser.parse_args()
    n = args.players
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    worst = 0.0
    for label, times in (
        (f"elimination Swiss N=3, {n} players", elimination(n, False)),
        (f"elimination Swiss N=3, {n} players, forbidden pairs", elimination(n, True)),
        (f"Swiss, {n} players, forbidden pairs, 9 rounds", swiss(n, 9)),
    ):
        print(label)
        print("  " + ", ".join(f"r{r} ({alive}): {t:.2f} s" for r, alive, t in times))
        slowest = max(t for _, _, t in times)
        worst = max(worst, slowest)
        print(f"  slowest round {slowest:.2f} s, all rounds {sum(t for _, _, t in times):.2f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    verdict = "OK" if worst < TARGET else "OVER"
    print(f"worst round {worst:.2f} s (target {TARGET:.0f} s): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
