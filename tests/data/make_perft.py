"""Regenerate ``perft.txt``: legal-play counts with GNU Backgammon as the oracle.

Step 1 (project venv) samples positions from seeded random games played with our
engine and writes ``position-id roll`` pairs; step 2 runs inside GNU Backgammon,
which counts its own legal plays (``hint`` at 0-ply lists every distinct play)::

    .venv/bin/python tests/data/make_perft.py > /tmp/perft-pairs.txt
    PERFT_PAIRS=/tmp/perft-pairs.txt PERFT_OUT_DIR=tests/data \
        gnubg -t -q -r -p tests/data/make_perft.py
"""

import os
import random
import sys


def sample_pairs(seed: int = 20240601, games: int = 100) -> list[tuple[str, str]]:
    """Positions from random games (many hits, bar entries, bear-offs), each with rolls."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from matches.rules import Position, legal_plays

    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    all_rolls = [f"{a}{b}" for a in range(1, 7) for b in range(1, a + 1)]
    pairs.extend((Position.start().position_id(), roll) for roll in all_rolls)
    seen.update(pairs)
    for _ in range(games):
        pos = Position.start()
        side = rng.randrange(2)
        while pos.off(0) < 15 and pos.off(1) < 15:
            draw = rng.random()
            rolls = all_rolls if draw < 0.004 else [rng.choice(all_rolls)] if draw < 0.05 else []
            for roll in rolls:
                key = (pos.position_id(side), roll)
                if key not in seen:
                    seen.add(key)
                    pairs.append(key)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(pos, side, dice)
            # favour hits and running half of the time so bars and bear-offs show up
            if rng.random() < 0.5:
                hits = [p for p in plays if any(m.hit for m in p.moves)]
                plays = hits or plays
            pos = pos.apply(side, rng.choice(plays))
            side = 1 - side
    return pairs


def count_with_gnubg(pairs_path: str, out_dir: str, listed: int = 250) -> None:
    """Write ``perft.txt`` (counts) and ``gnubg_plays.txt`` (every play, first pairs)."""
    import gnubg  # available only inside GNU Backgammon

    for command in (
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set evaluation chequerplay evaluation plies 0",
        "new session",
    ):
        gnubg.command(command)
    with (
        open(pairs_path) as pairs,
        open(os.path.join(out_dir, "perft.txt"), "w") as counts,
        open(os.path.join(out_dir, "gnubg_plays.txt"), "w") as plays,
    ):
        counts.write("# position-id (second half = side on roll)  roll  legal plays\n")
        counts.write("# from tests/data/make_perft.py: GNU Backgammon 1.07 hint at 0-ply\n")
        plays.write(
            "# position-id  roll  every legal play as GNU Backgammon writes it, '|' between\n"
        )
        plays.write("# ('-' when no move is possible); from tests/data/make_perft.py\n")
        for number, line in enumerate(pairs):
            pid, roll = line.split()
            gnubg.command(f"set board {pid}")
            gnubg.command(f"set dice {roll}")
            moves = [entry["move"] for entry in gnubg.hint(100000)["hint"]]
            # no move possible: gnubg lists nothing; the empty play is the one legal play
            counts.write(f"{pid} {roll} {len(moves) or 1}\n")
            if number < listed:
                plays.write(f"{pid} {roll} {'|'.join(moves) or '-'}\n")


if __name__ == "__main__":
    if "PERFT_PAIRS" in os.environ:
        count_with_gnubg(os.environ["PERFT_PAIRS"], os.environ["PERFT_OUT_DIR"])
    else:
        for pid, roll in sample_pairs():
            print(pid, roll)
