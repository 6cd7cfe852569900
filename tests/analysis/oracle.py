"""The independent oracle: what gnubg itself prints with ``show statistics match``.

Runs gnubg directly (not through the app's engine or script) on a match file at the
given plies and reads the printed table: per section (chequer play, luck, cube,
overall) and label, the two players' first figures.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

from matches.analysis.engine import gnubg_find

SCRIPT = """
import gnubg
import sys
gnubg.command({load!r})
for what in ("chequerplay", "cubedecision"):
    gnubg.command("set analysis %s evaluation plies {plies}" % what)
gnubg.command("analyse match")
print("@@STATS@@")
sys.stdout.flush()
gnubg.command("show statistics match")
games = len(gnubg.match(0, 0, 0, 0)["games"])
gnubg.command("first game")
for number in range(games):
    print("@@GAME@@")
    sys.stdout.flush()
    gnubg.command("show statistics game")
    if number < games - 1:
        gnubg.command("next game")
"""
SECTIONS = ("Chequerplay", "Luck", "Cube", "Overall")


def _value(text: str) -> float:
    while "(" in text:
        text = re.sub(r"\([^()]*\)", "", text)
    return float(text.split()[0])


Table = dict[str, dict[str, tuple[float, float]]]


def gnubg_statistics(path: Path, plies: int) -> Table:
    """``{section: {label: (first player's figure, second's)}}`` for the match."""
    return gnubg_tables(path, plies)[0]


def gnubg_tables(path: Path, plies: int) -> list[Table]:
    """The match's table, then each game's (``show statistics game``), as gnubg prints them."""
    gnubg = gnubg_find()
    assert gnubg is not None
    load = f"load match {path}" if path.suffix == ".sgf" else f"import mat {path}"
    with tempfile.TemporaryDirectory() as home:
        script = Path(home) / "oracle.py"
        script.write_text(SCRIPT.format(load=load, plies=plies))
        out = subprocess.run(
            [gnubg, "-t", "-q", "-r", "-p", str(script)],
            env={"PATH": os.environ.get("PATH", ""), "HOME": home, "LANG": "C", "LC_ALL": "C"},
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        ).stdout
    match, *games = out.split("@@STATS@@", 1)[1].split("@@GAME@@")
    return [_table(match), *(_table(g) for g in games)]


def _table(text: str) -> Table:
    table: Table = {}
    section = ""
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[1] == "statistics" and words[0] in SECTIONS:
            section = words[0]
            table[section] = {}
            continue
        if not section or len(line) <= 41 or not line[:41].strip():
            continue
        label, rest = line[:41].strip(), line[41:]
        first, second = rest[:24], rest[24:]
        try:
            table[section][label] = (_value(first), _value(second) if second.strip() else 0.0)
        except (ValueError, IndexError):
            continue  # ratings in words ("Awful!")
    return table
