"""Generate money sessions by GNU Backgammon self-play: ``tests/data/gnubg_money``.

Run with the project's Python (it needs ``gnubg`` on the machine)::

    .venv/bin/python tests/data/make_money.py tests/data/gnubg_money

Each session is one ``gnubg -t -q -r -p`` run of this same file (imported inside
gnubg's embedded Python): both players are gnubg, ``new session`` then ``new game``
until the session has its games, with Jacoby, beavers and automatic doubles as the
spec says. gnubg saves the session as ``.sgf`` (``save match``, straight from play:
it keeps automatic doubles as ``CV[...]``) and exports it as ``.mat``.

``expected.json`` holds gnubg's own figures for each session, from ``gnubg.match()``
and from what gnubg prints as each game ends (``X wins a gammon and 4 points.``,
``The score (after 3 games) is: ...``): every game's score before it, winner,
points, whether it was resigned, the automatic doubles it started with
(``initial_cube``), its cube actions in order, the cube value it ended at
(gnubg's records replayed: a double doubles, a double by the side just doubled is
a beaver), the kind of win gnubg announced, and the session's final score.

gnubg 1.07 applies an automatic double to the cube only while its display is on
(``ms.nCube <<= 1`` sits inside ``if (fDisplay)`` in ``NewGame``): with
``set display off`` it counts the automatic double in the game record but plays
and scores the game with the cube at 1. So sessions are played with the display
on and gnubg's output is read from its standard output.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

# stem, seed, games, jacoby, beavers (gnubg's limit a game), automatic doubles, noise, names
SESSIONS: list[tuple[str, int, int, bool, int, int, float, tuple[str, str]]] = [
    ("s1_plain", 3101, 6, False, 0, 0, 0.0, ("Alice", "Bob")),
    ("s2_jacoby", 3102, 8, True, 0, 0, 0.0, ("Anna Kowalska", "Bert van Dijk")),
    ("s3_jacoby_beavers", 3103, 8, True, 3, 0, 0.02, ("Søren", "Zoë")),
    ("s4_beavers_auto1", 3104, 8, False, 3, 1, 0.02, ("Carol", "Dave")),
    ("s5_jacoby_beavers_auto2", 3105, 8, True, 3, 2, 0.02, ("gnubg", "Opponent")),
    ("s6_auto3", 3106, 8, False, 1, 3, 0.04, ("Eve", "Frank")),
    ("s7_jacoby_auto1", 3107, 8, True, 2, 1, 0.04, ("Grace", "Heidi")),
    ("s8_beavers_auto2", 3108, 8, False, 3, 2, 0.04, ("Ivan", "Judy")),
]

WINS = re.compile(r"^(.+) wins an? (single game|gammon|backgammon) and (\d+) points?\.$")
SCORE = re.compile(r"^The score \(after (\d+) games?\) is: .+ (\d+), .+ (\d+) \(money session")
KINDS = {"single game": "single", "gammon": "gammon", "backgammon": "backgammon"}


def spec_of(row: tuple[str, int, int, bool, int, int, float, tuple[str, str]]) -> dict[str, Any]:
    stem, seed, games, jacoby, beavers, autos, noise, names = row
    return {
        "stem": stem,
        "seed": seed,
        "games": games,
        "jacoby": jacoby,
        "beavers": beavers,
        "auto_doubles": autos,
        "noise": noise,
        "names": list(names),
    }


# --- inside gnubg --------------------------------------------------------------------


def _play(job: dict[str, Any]) -> None:  # pragma: no cover - runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    spec = job["spec"]
    cmd = gnubg.command
    cmd("set display on")  # automatic doubles need it (see the module docstring)
    cmd("set player 0 gnubg")
    cmd("set player 1 gnubg")
    for p in (0, 1):
        cmd(f"set player {p} chequerplay evaluation plies 0")
        cmd(f"set player {p} cubedecision evaluation plies 0")
        cmd(f"set player {p} chequerplay evaluation noise {spec['noise']}")
        cmd(f"set player {p} cubedecision evaluation noise {spec['noise']}")
    cmd(f"set jacoby {'on' if spec['jacoby'] else 'off'}")
    cmd(f"set beavers {spec['beavers']}")
    cmd(f"set automatic doubles {spec['auto_doubles']}")
    cmd("set automatic game off")
    cmd(f"set seed {spec['seed']}")
    cmd("new session")
    for _ in range(spec["games"] - 1):
        cmd("new game")
    cmd(f"set player 0 name {spec['names'][0]}")
    cmd(f"set player 1 name {spec['names'][1]}")
    played = gnubg.match()
    out = Path(job["out"])
    cmd("analyse clear match")  # drop the evaluations self-play stored
    cmd(f'save match "{out / (spec["stem"] + ".sgf")}"')
    cmd(f'export match mat "{out / (spec["stem"] + ".mat")}"')
    games = []
    for g in played["games"]:
        info = g["info"]
        actions = [
            [a["action"], {"X": 0, "O": 1}[a["player"]]]
            for a in g["game"]
            if a.get("action") in ("double", "take", "drop", "resign")
        ]
        games.append(
            {
                "score": [info["score-X"], info["score-O"]],
                "winner": {"X": 0, "O": 1}.get(info["winner"]),
                "points": info["points-won"],
                "resigned": bool(info["resigned"]),
                "initial_cube": info.get("initial-cube", 1),
                "cube_actions": actions,
            }
        )
    rules = list(played["match-info"].get("rules", []))
    Path(job["result"]).write_text(json.dumps({"games": games, "rules": rules}))


# --- outside ---------------------------------------------------------------------------


def cube_after(initial: int, actions: list[list[Any]]) -> int:
    """The cube value a game ended at, from gnubg's cube actions in order.

    >>> cube_after(1, [["double", 0], ["take", 1], ["double", 1], ["drop", 0]])
    2
    >>> cube_after(2, [["double", 0], ["double", 1], ["take", 0]])  # beavered
    8
    """
    value, pending, doubler = initial, None, None
    for action, side in actions:
        if action == "double":
            if pending is not None and side != doubler:
                value = pending  # a beaver (or raccoon): the double is taken and redoubled
            pending, doubler = value * 2, side
        elif action == "take":
            assert pending is not None
            value, pending, doubler = pending, None, None
    return value


def play_session(spec: dict[str, Any], out: Path) -> dict[str, Any]:
    """Play one session in gnubg; return its entry for ``expected.json``."""
    with tempfile.TemporaryDirectory() as tmp:
        job = {"spec": spec, "out": str(out.resolve()), "result": f"{tmp}/result.json"}
        script = Path(tmp) / "play.py"
        script.write_text(
            "import json, sys\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "import make_money\n"
            f"make_money._play(json.loads({json.dumps(json.dumps(job))}))\n"
        )
        run = subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            check=True,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        played = json.loads(Path(job["result"]).read_text())
    said = [m for line in run.stdout.splitlines() if (m := WINS.match(line.strip()))]
    scores = [m for line in run.stdout.splitlines() if (m := SCORE.match(line.strip()))]
    games = played["games"]
    if len(said) != len(games) or len(scores) != len(games):
        raise SystemExit(f"{spec['stem']}: gnubg announced {len(said)} results for {len(games)}")
    for game, wins in zip(games, said, strict=True):
        if int(wins.group(3)) != game["points"]:
            raise SystemExit(f"{spec['stem']}: gnubg says {wins.group(0)!r}, its record {game}")
        game["result"] = KINDS[wins.group(2)]
        game["cube"] = cube_after(game["initial_cube"], game["cube_actions"])
    last = scores[-1]
    return {
        "length": 0,
        "players": spec["names"],
        "seed": spec["seed"],
        "rules": {
            "jacoby": spec["jacoby"],
            "beavers": spec["beavers"],
            "auto_doubles": spec["auto_doubles"],
            "gnubg": played["rules"],
        },
        "games": games,
        "final_score": [int(last.group(2)), int(last.group(3))],
    }


# Hand-edited copies: gnubg never beavered in self-play (no beaver in about 400 games at
# noise up to 0.6), and with Jacoby on it always turned the cube before a gammon. Each
# copy is the first game of a real session above with only its cube actions edited (and
# the result ``RE[...]`` that the edit implies); ``C[...]`` on the edited node says why.
# name, source session, [(gnubg's text, edited text)], the edited RE, what it shows
EDITS: list[tuple[str, str, list[tuple[str, str]], str, str]] = [
    (
        "beaver",
        "s1_plain",
        [
            (
                ";W[take]",
                ";W[double]C[edit: was a take; Alice beavers to 4 and keeps the cube];B[take]",
            )
        ],
        "W+4",
        "Bob doubles, Alice beavers, Bob takes at 4; Alice wins a single: 4 points",
    ),
    (
        "raccoon",
        "s1_plain",
        [
            (
                ";W[take]",
                ";W[double]C[edit: was a take; Alice beavers to 4]"
                ";B[double]C[edit: Bob raccoons to 8; Alice keeps the cube];W[take]",
            )
        ],
        "W+8",
        "double, beaver, raccoon, taken at 8; Alice wins a single: 8 points",
    ),
    (
        "beaver_dropped",
        "s1_plain",
        [
            (
                ";W[take]",
                ";W[double]C[edit: was a take; Alice beavers to 4];B[drop]C[edit: Bob drops the beaver]",
            )
        ],
        "W+2",
        "Bob drops Alice's beaver: he loses the 2 he had doubled to",
    ),
    (
        "jacoby_centred_gammon",
        "s3_jacoby_beavers",
        [
            (
                ";W[double]\n;B[take]",
                "C[edit: removed the double and the take: the cube is never turned]",
            )
        ],
        "W+1",
        "Søren's gammon with the cube never turned: 1 point under Jacoby (2 without)",
    ),
]


def first_game(sgf: str) -> str:
    """The first game tree of a gnubg SGF file (gnubg writes one tree per game)."""
    end = sgf.find("(;FF", 1)
    return (sgf if end < 0 else sgf[:end]).rstrip() + "\n"


def edit_copy(sgf: str, edits: list[tuple[str, str]], result: str) -> str:
    """The first game of ``sgf`` with each text replaced once and the result set."""
    game = first_game(sgf)
    for old, new in edits:
        if old not in game:
            raise SystemExit(f"edit {old!r} not found")
        game = game.replace(old, new, 1)
    game = re.sub(r"RE\[[^]]*\]", f"RE[{result}]", game, count=1)
    if result == "W+2":  # the beaver was dropped: the game ends there
        game = (
            game[: game.index(";B[drop]")] + game[game.index(";B[drop]") :].split("\n")[0] + ")\n"
        )
    return game


def _load_edited(job: dict[str, Any]) -> None:  # pragma: no cover - runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    results = {}
    for name in job["names"]:
        sgf = Path(job["out"]) / f"{name}.sgf"
        gnubg.command(f'load match "{sgf}"')
        gnubg.command(f'export match mat "{sgf.with_suffix(".mat")}"')
        info = gnubg.match()["games"][0]["info"]
        results[name] = {
            "winner": {"X": 0, "O": 1}.get(info["winner"]),
            "points": info["points-won"],
            "resigned": bool(info["resigned"]),
        }
    Path(job["result"]).write_text(json.dumps(results))


def make_edited(out: Path) -> None:
    """Write the hand-edited copies into ``out/edited`` with gnubg's reading of each."""
    edited = out / "edited"
    edited.mkdir(exist_ok=True)
    for name, stem, edits, result, _ in EDITS:
        text = edit_copy((out / f"{stem}.sgf").read_text(encoding="utf-8"), edits, result)
        (edited / f"{name}.sgf").write_text(text, encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        job = {
            "names": [e[0] for e in EDITS],
            "out": str(edited.resolve()),
            "result": f"{tmp}/r.json",
        }
        script = Path(tmp) / "load.py"
        script.write_text(
            "import json, sys\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "import make_money\n"
            f"make_money._load_edited(json.loads({json.dumps(json.dumps(job))}))\n"
        )
        subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            check=True,
            capture_output=True,
            stdin=subprocess.DEVNULL,
        )
        loaded = json.loads(Path(job["result"]).read_text())
    expected = {
        name: {"source": stem, "why": why, "result": result, "gnubg_on_load": loaded[name]}
        for name, stem, _, result, why in EDITS
    }
    (edited / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", help="comma-separated stems to (re)generate")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    specs = [spec_of(row) for row in SESSIONS]
    if args.only:
        specs = [s for s in specs if s["stem"] in set(args.only.split(","))]
    expected_path = args.out / "expected.json"
    expected = json.loads(expected_path.read_text()) if expected_path.exists() else {}
    for spec in specs:
        expected[spec["stem"]] = play_session(spec, args.out)
        print(f"{spec['stem']}: {len(expected[spec['stem']]['games'])} games", file=sys.stderr)
    expected_path.write_text(
        json.dumps(dict(sorted(expected.items())), indent=1, ensure_ascii=False) + "\n"
    )
    make_edited(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
