"""Run inside GNU Backgammon's embedded Python (``gnubg -t -q -r -p gnubg_script.py``).

Reads the job from the environment (``ANALYSIS_FILE``, ``ANALYSIS_FORMAT`` mat or sgf,
``ANALYSIS_PLIES``), imports the match, analyses it at those plies for chequer play and
cube decisions, and prints ``gnubg.match()`` with analysis and statistics as one JSON
line between markers. Nothing imported prints ``{"error": ...}`` instead: gnubg's exit
status says nothing about that.
"""

import json
import os

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

BEGIN, END = "@@ANALYSIS-JSON@@", "@@END-ANALYSIS-JSON@@"


def _emit(data: object) -> None:
    print(BEGIN + json.dumps(data, default=str) + END, flush=True)


def main() -> None:
    path = os.environ["ANALYSIS_FILE"]
    plies = int(os.environ.get("ANALYSIS_PLIES", "2"))
    fmt = os.environ.get("ANALYSIS_FORMAT", "mat")
    for command in ("set threads 1", "set display off", "set automatic game off"):
        gnubg.command(command)
    gnubg.command(f"load match {path}" if fmt == "sgf" else f"import mat {path}")
    if gnubg.match(0, 0, 0, 0) is None:
        _emit({"error": "gnubg could not read the match file (nothing was imported)"})
        return
    for what in ("chequerplay", "cubedecision"):
        gnubg.command(f"set analysis {what} evaluation plies {plies}")
        gnubg.command(f"set analysis {what} evaluation cubeful on")
        gnubg.command(f"set analysis {what} evaluation prune on")
        gnubg.command(f"set analysis {what} evaluation noise 0")
    gnubg.command("analyse match")
    match = gnubg.match(1, 0, 1, 0)
    if match is None or "stats" not in match:
        _emit({"error": "gnubg imported no analysable game"})
        return
    _emit({"match": match})
    if os.environ.get("ANALYSIS_SHOW"):
        gnubg.command("show statistics match")


main()
