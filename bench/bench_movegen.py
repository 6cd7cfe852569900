"""Legal-play generation and play checking per second over a fixed, seeded sample.

    .venv/bin/python bench/bench_movegen.py [--games N] [--seed S]

Positions come from seeded random games; each gets a random roll and one of its
legal plays written out as text, as a match file would carry it. Timings:

- ``legal_plays``: full generation (every legal play, deduplicated);
- ``check_play`` (text): parse plus check, parse cache cleared first;
- ``check_play`` (parsed): the check alone, for plays already parsed.

Times are CPU time of this process (steadier than wall time on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from matches.rules import Play, Position, check_play, legal_plays
from matches.rules.notation import parse_play
from matches.rules.play_check import play_candidates

Sample = tuple[Position, int, tuple[int, int], str]


def sample(games: int, seed: int) -> list[Sample]:
    rng = random.Random(seed)
    cases: list[Sample] = []
    for _ in range(games):
        pos = Position.start()
        side = rng.randrange(2)
        turns = 0
        while pos.off(0) < 15 and pos.off(1) < 15 and turns < 400:
            roll = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(pos, side, roll)
            play = rng.choice(plays)
            cases.append((pos, side, roll, str(play)))
            pos = pos.apply(side, play)
            side = 1 - side
            turns += 1
    return cases


def rate(label: str, count: int, seconds: float) -> None:
    print(f"{label:<34} {count:>7} in {seconds:6.3f} s  = {count / seconds:>9,.0f} /s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cases = sample(args.games, args.seed)
    print(f"{len(cases)} (position, roll, play) cases from {args.games} seeded random games")

    start = time.process_time()
    for pos, side, roll, _ in cases:
        legal_plays(pos, side, roll)
    rate("legal_plays", len(cases), time.process_time() - start)

    parse_play.cache_clear()
    play_candidates.cache_clear()
    start = time.process_time()
    for pos, side, roll, text in cases:
        check_play(pos, side, roll, Play.parse(text))
    rate("check_play (text, cold caches)", len(cases), time.process_time() - start)

    start = time.process_time()
    for pos, side, roll, text in cases:
        check_play(pos, side, roll, Play.parse(text))
    rate("check_play (text, warm caches)", len(cases), time.process_time() - start)

    parsed = [(pos, side, roll, Play.parse(text)) for pos, side, roll, text in cases]
    start = time.process_time()
    for pos, side, roll, play in parsed:
        check_play(pos, side, roll, play)
    rate("check_play (parsed)", len(parsed), time.process_time() - start)


if __name__ == "__main__":
    main()
