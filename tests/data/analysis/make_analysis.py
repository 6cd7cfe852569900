"""Generate match files for the analysis tests by GNU Backgammon self-play: ``tests/data/analysis``.

Run with the project's Python (it needs ``gnubg`` on the machine)::

    .venv/bin/python tests/data/analysis/make_analysis.py tests/data/analysis

Each match is one ``gnubg -t -q -r -p`` run of this same file (imported inside gnubg's
embedded Python): both players are gnubg at 0 plies with evaluation noise (so that the
analysis finds errors, blunders and cube mistakes), ``new match N`` plays it to the end
and ``export match mat`` writes it. gnubg names the players ``gnubg`` and the user's login.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

#: (file name, match length, seed, noise of player 0, noise of player 1[, cube noise of
#: player 0, of player 1]): the cube's noise is the chequer play's unless given.
MATCHES: list[tuple[str, int, int, float, float] | tuple[str, int, int, float, float, float, float]]
MATCHES = [
    ("a01_3pt.mat", 3, 11, 0.10, 0.03),
    ("a02_5pt.mat", 5, 23, 0.06, 0.06),
    ("a03_7pt.mat", 7, 37, 0.12, 0.02),
    # Lots of cube action: 7 doubles in 3 games (a held-out file, kept as a test case).
    # gnubg's self-play is not replayed identically from the seed on every machine: the
    # stored files are the data, this list says how they were made.
    ("a04_7pt_cube.mat", 7, 505, 0.03, 0.03, 0.8, 0.8),
]


def _play(
    length: int, seed: int, noise: tuple[float, float], cube: tuple[float, float], out: str
) -> None:
    import gnubg  # type: ignore[import-not-found]  # inside gnubg only

    commands = [f"set seed {seed}", "set player 0 gnubg", "set player 1 gnubg"]
    for side in (0, 1):
        for what, level in (("chequerplay", noise[side]), ("cubedecision", cube[side])):
            commands += [
                f"set player {side} {what} evaluation plies 0",
                f"set player {side} {what} evaluation noise {level}",
                f"set player {side} {what} evaluation deterministic off",
            ]
    for command in [*commands, f"new match {length}", f"export match mat {out}"]:
        gnubg.command(command)


def main(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name, length, seed, n0, n1, *cube in MATCHES:
        c0, c1 = cube or (n0, n1)
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "HOME": home, "LANG": "C", "LC_ALL": "C"}
            out = (target / name).resolve()
            env["ANALYSIS_MAKE"] = f"{length},{seed},{n0},{n1},{c0},{c1},{out}"
            subprocess.run(
                [GNUBG, "-t", "-q", "-r", "-p", __file__],
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
                timeout=600,
            )
        print(name)


if __name__ == "__main__":
    job = os.environ.get("ANALYSIS_MAKE")
    if job:
        length, seed, n0, n1, c0, c1, out = job.split(",")
        _play(int(length), int(seed), (float(n0), float(n1)), (float(c0), float(c1)), out)
    else:
        main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
