"""The pure formats alone: the 1,024-player draw and 512-player Swiss pairings.

Targets: the draw (seeding, first round, public log, and checking the log by
re-running it) under 1 s; a Swiss round of 512 players under 1 s, in round 1 and
in a late round (after 9 or 11 simulated rounds, when score groups are small and
many pairs have already met). Each figure is the median of several runs, printed
with a fixed pure-Python baseline loop timed in the same run, since the machine
is shared and noisy.

    .venv/bin/python bench/bench_formats.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.formats.consolation import consolation_bracket
from tournament.formats.double_elimination import DoubleEliminationBracket
from tournament.formats.draw import DrawEntrant, make_draw, verify
from tournament.formats.standings import MatchResult, rank_entrants
from tournament.formats.swiss import SwissRound, swiss_pairings

TARGET = 1.0


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def baseline() -> None:
    total = 0
    for k in range(1_000_000):
        total += k % 7
    assert total > 0


class SwissState:
    """A Swiss event played to some round with seeded random results (the better-ranked
    player wins 60% of the time)."""

    def __init__(self, players: int, rounds_played: int, seed: int = 1) -> None:
        rng = random.Random(seed)
        self.ranked = list(range(1, players + 1))
        self.scores = dict.fromkeys(self.ranked, 0)
        self.played: list[tuple[int, int]] = []
        self.had_bye: set[int] = set()
        for _ in range(rounds_played):
            result = self.pair()
            for a, b in result.pairings:
                self.played.append((a, b))
                self.scores[a if rng.random() < 0.6 else b] += 1
            if result.bye is not None:
                self.had_bye.add(result.bye)
                self.scores[result.bye] += 1
            self.ranked.sort(key=lambda p: -self.scores[p])

    def pair(self) -> SwissRound:
        return swiss_pairings(
            self.ranked, scores=self.scores, played=self.played, had_bye=self.had_bye
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    repeat = args.repeat
    rows: list[tuple[str, float, float | None]] = []

    rows.append(("baseline: 1e6-step Python loop", timed(baseline, repeat), None))

    rng = random.Random(2026)
    field = [
        DrawEntrant(10_000 + k, f"Player {k:04d}", round(rng.uniform(1200, 2000), 1))
        for k in range(1024)
    ]

    def draw_and_verify() -> None:
        draw = make_draw(field, method="random", seed=20260101)
        assert verify(draw.log)

    rows.append(
        (
            "draw 1024, random, with log",
            timed(lambda: make_draw(field, method="random", seed=20260101), repeat),
            TARGET,
        )
    )
    rows.append(
        (
            "draw 1024, by rating, with log",
            timed(lambda: make_draw(field, method="rating"), repeat),
            TARGET,
        )
    )
    rows.append(("draw 1024 + verify(log) re-run", timed(draw_and_verify, repeat), TARGET))
    rows.append(
        (
            "consolation of a 1024 Main, rounds 1-2",
            timed(lambda: consolation_bracket(main_entrants=1024, fed_rounds=[1, 2]), repeat),
            None,
        )
    )
    rows.append(
        (
            "double elimination, 1024",
            timed(lambda: DoubleEliminationBracket.build(list(range(1, 1025))), repeat),
            None,
        )
    )

    for players, rounds in ((512, 0), (512, 9), (512, 11), (511, 0), (511, 9)):
        state = SwissState(players, rounds)
        label = f"swiss {players} players, round {rounds + 1}"
        result = state.pair()
        assert not result.rematches
        rows.append((label, timed(state.pair, repeat), TARGET))

    late = SwissState(512, 9)
    results = [MatchResult(a, b, winner=a, points_a=7, points_b=3) for a, b in late.played]
    rows.append(
        (
            "standings 512 after 9 rounds, 4 tie-breaks",
            timed(
                lambda: rank_entrants(
                    list(range(1, 513)),
                    results,
                    ["wins", "head_to_head", "points_diff", "opponents_wins"],
                ),
                repeat,
            ),
            None,
        )
    )

    failed = False
    width = max(len(label) for label, _, _ in rows)
    for label, seconds, target in rows:
        verdict = ""
        if target is not None:
            ok = seconds < target
            failed |= not ok
            verdict = f"  (target < {target:.0f} s: {'ok' if ok else 'MISSED'})"
        print(f"{label:<{width}}  {seconds * 1000:8.1f} ms{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
