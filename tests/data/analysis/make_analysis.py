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

#: (file name, match length, seed, noise of player 0, noise of player 1)
MATCHES = [
    ("a01_3pt.mat", 3, 11, 0.10, 0.03),
    ("a02_5pt.mat", 5, 23, 0.06, 0.06),
    ("a03_7pt.mat", 7, 37, 0.12, 0.02),
]


def _play(length: int, seed: int, noise: tuple[float, float], out: str) -> None:
    import gnubg  # type: ignore[import-not-found]  # inside gnubg only

    commands = [f"set seed {seed}", "set player 0 gnubg", "set player 1 gnubg"]
    for side in (0, 1):
        for what in ("chequerplay", "cubedecision"):
            commands += [
                f"set player {side} {what} evaluation plies 0",
                f"set player {side} {what} evaluation noise {noise[side]}",
                f"set player {side} {what} evaluation deterministic off",
            ]
    for command in [*commands, f"new match {length}", f"export match mat {out}"]:
        gnubg.command(command)


def main(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name, length, seed, n0, n1 in MATCHES:
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "HOME": home, "LANG": "C", "LC_ALL": "C"}
            env["ANALYSIS_MAKE"] = f"{length},{seed},{n0},{n1},{(target / name).resolve()}"
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
        length, seed, n0, n1, out = job.split(",")
        _play(int(length), int(seed), (float(n0), float(n1)), out)
    else:
        main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
