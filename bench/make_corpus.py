"""Generate match files by GNU Backgammon self-play, for the test corpus and the benchmark.

Run with the project's Python; it drives ``gnubg -t -q -r -p`` with a script of its own
(this same file, imported inside gnubg's embedded Python) and writes, per match, the
``.mat`` that gnubg exports and the ``.sgf`` that gnubg saves after importing that
``.mat`` (so the SGF holds no analysis). ``expected.json`` records what gnubg itself
reports for each match (``gnubg.match()``): the rules, every game's score, winner and
points, and the final score.

    .venv/bin/python bench/make_corpus.py tests/data/gnubg          # the test corpus
    .venv/bin/python bench/make_corpus.py /tmp/bench --bench 120    # benchmark matches
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

NAMES = [
    ("Alice", "Bob"),
    ("Anna Kowalska", "Bert van Dijk"),
    ("Søren", "Zoë"),
    ("gnubg", "Opponent"),
    ("Carol", "Dave"),
]


def corpus_specs() -> list[dict[str, Any]]:
    """The test corpus: every length the brief names, Crawford on and off, noisy play, money."""
    specs: list[dict[str, Any]] = []
    lengths = [1, 3, 5, 7, 9, 11, 13, 25]
    n = 0
    for rep in range(5):
        for length in lengths:
            if length == 25 and rep > 1:
                continue
            n += 1
            specs.append(
                {
                    "stem": f"m{n:02d}_{length}pt",
                    "seed": 1000 + n,
                    "length": length,
                    "crawford": not (rep == 3 and length > 1),
                    "noise": 0.0 if rep < 2 else 0.04 * rep,
                    "names": NAMES[n % len(NAMES)],
                }
            )
    for i, (jacoby, beavers, autos) in enumerate(
        [(False, 0, 0), (True, 0, 0), (True, 3, 0), (False, 3, 1)]
    ):
        n += 1
        specs.append(
            {
                "stem": f"m{n:02d}_money",
                "seed": 2000 + i,
                "length": 0,
                "games": 6,
                "crawford": False,
                "jacoby": jacoby,
                "beavers": beavers,
                "auto_doubles": autos,
                "noise": 0.02,
                "names": NAMES[i % len(NAMES)],
            }
        )
    return specs


def bench_specs(count: int) -> list[dict[str, Any]]:
    """``count`` 13-point matches (about 400 moves each)."""
    return [
        {
            "stem": f"b{i:03d}",
            "seed": 5000 + i,
            "length": 13,
            "crawford": True,
            "noise": 0.0,
            "names": NAMES[i % len(NAMES)],
        }
        for i in range(count)
    ]


# --- inside gnubg --------------------------------------------------------------------


def _play_all(job: dict[str, Any]) -> None:  # pragma: no cover - runs inside gnubg
    import gnubg  # type: ignore[import-not-found]

    cmd = gnubg.command
    cmd("set display off")
    cmd("set player 0 gnubg")
    cmd("set player 1 gnubg")
    for p in (0, 1):
        cmd(f"set player {p} chequerplay evaluation plies 0")
        cmd(f"set player {p} cubedecision evaluation plies 0")
    out = Path(job["out"])
    results = []
    for spec in job["specs"]:
        for p in (0, 1):
            cmd(f"set player {p} chequerplay evaluation noise {spec['noise']}")
            cmd(f"set player {p} cubedecision evaluation noise {spec['noise']}")
        cmd(f"set automatic crawford {'on' if spec['crawford'] else 'off'}")
        cmd(f"set jacoby {'on' if spec.get('jacoby') else 'off'}")
        cmd(f"set beavers {spec.get('beavers', 0)}")
        cmd(f"set automatic doubles {spec.get('auto_doubles', 0)}")
        cmd(f"set seed {spec['seed']}")
        if spec["length"]:
            cmd("set automatic game on")
            cmd(f"new match {spec['length']}")
        else:
            cmd("set automatic game off")
            cmd("new session")
            for _ in range(spec["games"] - 1):
                cmd("new game")
        cmd(f"set player 0 name {spec['names'][0]}")
        cmd(f"set player 1 name {spec['names'][1]}")
        played = gnubg.match()
        mat = out / f"{spec['stem']}.mat"
        sgf = out / f"{spec['stem']}.sgf"
        cmd(f'export match mat "{mat}"')
        cmd(f'import mat "{mat}"')
        cmd(f'save match "{sgf}"')
        games = []
        for g in played["games"]:
            info = g["info"]
            games.append(
                {
                    "score": [info["score-X"], info["score-O"]],
                    "winner": {"X": 0, "O": 1}.get(info["winner"]),
                    "points": info["points-won"],
                    "resigned": bool(info["resigned"]),
                }
            )
        final = list(games[-1]["score"])
        if games[-1]["winner"] is not None:
            final[games[-1]["winner"]] += games[-1]["points"]
        results.append(
            {
                "stem": spec["stem"],
                "length": spec["length"],
                "players": list(spec["names"]),
                "rules": {
                    "crawford": spec["crawford"],
                    "jacoby": bool(spec.get("jacoby")),
                    "beavers": bool(spec.get("beavers")),
                    "auto_doubles": spec.get("auto_doubles", 0),
                },
                "games": games,
                "final_score": final,
            }
        )
    Path(job["result"]).write_text(json.dumps(results, indent=1, ensure_ascii=False))


def _run_gnubg(specs: list[dict[str, Any]], out: Path) -> list[dict[str, Any]]:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        job = {"specs": specs, "out": str(out.resolve()), "result": f"{tmp}/result.json"}
        script = Path(tmp) / "play.py"
        script.write_text(
            "import json, sys\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "import make_corpus\n"
            f"make_corpus._play_all(json.loads({json.dumps(json.dumps(job))}))\n"
        )
        subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-p", str(script)],
            check=True,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        results: list[dict[str, Any]] = json.loads(Path(job["result"]).read_text())
        return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--bench", type=int, metavar="N", help="N benchmark matches instead")
    parser.add_argument("--only", help="comma-separated stems to (re)generate")
    args = parser.parse_args(argv)
    specs = bench_specs(args.bench) if args.bench else corpus_specs()
    if args.only:
        wanted = set(args.only.split(","))
        specs = [s for s in specs if s["stem"] in wanted]
    results = _run_gnubg(specs, args.out)
    expected_path = args.out / "expected.json"
    expected = {}
    if args.only and expected_path.exists():
        expected = json.loads(expected_path.read_text())
    expected.update({r.pop("stem"): r for r in results})
    expected_path.write_text(
        json.dumps(dict(sorted(expected.items())), indent=1, ensure_ascii=False) + "\n"
    )
    print(f"{len(results)} matches written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
