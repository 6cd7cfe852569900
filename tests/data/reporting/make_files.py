"""Make the reporting tests' match files with GNU Backgammon's self-play.

    .venv/bin/python tests/data/reporting/make_files.py

Writes ``anna_bert_25pt.mat`` (a 25-point match that gnubg plays against itself,
exported by gnubg), ``anna_bert_25pt.sgf`` (gnubg's save of the same match),
``anna_bert_25pt_illegal.mat`` (the same file with one play made illegal) and
``expected.json`` (gnubg's own final score, and where the illegal play is).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
STEM = "anna_bert_25pt"
NAMES = ("Anna_Kowalska", "Bert_van_Dijk")  # gnubg player names cannot hold spaces
SEED = 2512
#: Where the illegal play goes: game, move line, left column (side 0).
ILLEGAL_GAME, ILLEGAL_MOVE = 3, 6

INSIDE_GNUBG = """
import json
import gnubg

job = json.loads({job!r})
cmd = gnubg.command
cmd("set display off")
for p in (0, 1):
    cmd(f"set player {{p}} gnubg")
    cmd(f"set player {{p}} chequerplay evaluation plies 0")
    cmd(f"set player {{p}} cubedecision evaluation plies 0")
cmd("set automatic crawford on")
cmd("set jacoby off")
cmd(f"set seed {{job['seed']}}")
cmd("set automatic game on")
cmd("new match 25")
cmd(f"set player 0 name {{job['names'][0]}}")
cmd(f"set player 1 name {{job['names'][1]}}")
played = gnubg.match()
cmd(f'export match mat "{{job["mat"]}}"')
cmd(f'import mat "{{job["mat"]}}"')
cmd(f'save match "{{job["sgf"]}}"')
last = played["games"][-1]["info"]
score = [last["score-X"], last["score-O"]]
score[{{"X": 0, "O": 1}}[last["winner"]]] += last["points-won"]
with open(job["result"], "w") as out:
    json.dump({{"final_score": score, "games": len(played["games"])}}, out)
"""


def make_illegal(text: str) -> tuple[str, str]:
    """The file with side 0's play on move ``ILLEGAL_MOVE`` of game ``ILLEGAL_GAME`` spoiled."""
    lines = text.splitlines(keepends=True)
    in_game = False
    for i, line in enumerate(lines):
        if line.strip() == f"Game {ILLEGAL_GAME}":
            in_game = True
        elif in_game and line.lstrip().startswith(f"{ILLEGAL_MOVE})"):
            left = line[: line.index(")") + 1]
            roll = line[len(left) :].split()[0]  # "43:"
            a, b = int(roll[0]), int(roll[1])
            assert a != b, "pick a move line whose roll is not a doublet"
            bad = f"24/{24 - (a + b + 1)}"  # no die or sum of the roll moves that far
            cell = f" {roll} {bad}"
            lines[i] = f"{left}{cell:<{33 - len(left)}}{line[33:]}"
            return "".join(lines), bad
    raise SystemExit(f"game {ILLEGAL_GAME} has no move {ILLEGAL_MOVE}")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        job = {
            "seed": SEED,
            "names": NAMES,
            "mat": str(HERE / f"{STEM}.mat"),
            "sgf": str(HERE / f"{STEM}.sgf"),
            "result": f"{tmp}/result.json",
        }
        script = Path(tmp) / "play.py"
        script.write_text(INSIDE_GNUBG.format(job=json.dumps(job)))
        subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            check=True,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        result = json.loads(Path(job["result"]).read_text())
    text = (HERE / f"{STEM}.mat").read_text(encoding="utf-8")
    spoiled, bad = make_illegal(text)
    (HERE / f"{STEM}_illegal.mat").write_text(spoiled, encoding="utf-8")
    expected = {
        STEM: {"players": list(NAMES), "length": 25, **result},
        f"{STEM}_illegal": {
            "error": "illegal-move",
            "game": ILLEGAL_GAME,
            "move": ILLEGAL_MOVE,
            "side": 0,
            "play": bad,
        },
    }
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(json.dumps(expected, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
