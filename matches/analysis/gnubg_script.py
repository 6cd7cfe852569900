"""Run inside GNU Backgammon's embedded Python (``gnubg -t -q -r -p gnubg_script.py``).

Reads the job from the environment (``ANALYSIS_FILE``, ``ANALYSIS_FORMAT`` mat or sgf,
``ANALYSIS_PLIES``), imports the match, analyses it at those plies for chequer play and
cube decisions, and writes ``gnubg.match()`` with analysis and statistics as JSON to the
file ``ANALYSIS_OUT`` (never to the output, where a player's name could fake a marker).
Nothing imported writes ``{"error": ...}`` instead: gnubg's exit status says nothing
about that.
"""

import contextlib
import json
import os
from typing import Any

import gnubg  # only inside gnubg


def _emit(data: object) -> None:
    """Write the answer whole, then move it into place: the reader sees all or nothing."""
    out = os.environ["ANALYSIS_OUT"]
    with open(out + ".part", "w", encoding="utf-8") as f:
        json.dump(data, f, default=str)
    os.replace(out + ".part", out)


def _cube_scales(match: dict[str, Any]) -> None:
    """Give each analysed cube decision the scale of its equities: gnubg's dict gives a
    match's cube equities as match winning chances, its statistics count their errors in
    EMG. ``cube-scale`` is (cube value, MWC if the doubler wins the cube's points, MWC
    if they lose them) at that decision, from gnubg's own match equity table."""
    length = int(match.get("match-info", {}).get("match-length", 0))
    for game in match.get("games", []):
        info = game.get("info", {})
        score = (int(info.get("score-X", 0)), int(info.get("score-O", 0)))
        cube, owner, scale = 1, -1, None
        for record in game.get("game", []):
            action, side = record.get("action"), "XO".find(str(record.get("player")))
            analysis = record.get("analysis")
            if side < 0:
                continue
            if action in ("move", "double") and analysis and "nd-cubeful-eq" in analysis:
                if length:
                    info_ = gnubg.cubeinfo(cube, owner, side, length, score, 0, 0)
                    scale = [cube, gnubg.eq2mwc(1.0, info_), gnubg.eq2mwc(-1.0, info_)]
                else:  # money: the dict's equities are already per cube
                    scale = [cube, 1.0, -1.0]
                analysis["cube-scale"] = scale
            elif action in ("take", "drop") and scale is not None:
                record["cube-scale"] = scale
            if action == "take":
                cube, owner = cube * 2, side


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
    with contextlib.suppress(Exception):  # a cube's cost is then unknown, nothing else
        _cube_scales(match)
    _emit({"match": match})
    if os.environ.get("ANALYSIS_SHOW"):
        gnubg.command("show statistics match")


main()
