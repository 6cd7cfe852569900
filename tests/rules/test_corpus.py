"""Real matches from GNU Backgammon self-play, and corrupted copies of them.

``tests/data/gnubg`` holds matches that gnubg played against itself (made by
``bench/make_corpus.py``), each as gnubg exports ``.mat`` and saves ``.sgf``, and
``expected.json`` with what gnubg reported for each: every game's score, winner
and points, and the final score.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from matches.rules.check import CheckOptions, check_match_data
from matches.rules.matfile import read_mat, write_mat
from matches.rules.notation import Play
from matches.rules.position import Position
from matches.rules.record import Action, Double, GameRecord, MatchRecord, RollPlay, Win
from matches.rules.sgf import read_sgf, write_sgf

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"
EXPECTED: dict[str, dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text())
STEMS = sorted(EXPECTED)
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")


def options(stem: str) -> CheckOptions:
    rules = EXPECTED[stem]["rules"]
    return CheckOptions(
        crawford=rules["crawford"], jacoby=rules["jacoby"], auto_doubles=rules["auto_doubles"]
    )


def test_the_corpus_covers_what_it_should() -> None:
    assert len(STEMS) >= 40
    lengths = {EXPECTED[s]["length"] for s in STEMS}
    assert {1, 3, 5, 7, 9, 11, 13, 25, 0} <= lengths
    assert any(not EXPECTED[s]["rules"]["crawford"] for s in STEMS if EXPECTED[s]["length"] > 1)
    for stem in STEMS:
        assert (CORPUS / f"{stem}.mat").exists()
        assert (CORPUS / f"{stem}.sgf").exists()


@pytest.mark.parametrize("ext", ["mat", "sgf"])
@pytest.mark.parametrize("stem", STEMS)
def test_gnubg_matches_are_valid_with_gnubgs_scores(stem: str, ext: str) -> None:
    expected = EXPECTED[stem]
    report = check_match_data((CORPUS / f"{stem}.{ext}").read_bytes(), options(stem))
    assert report.errors == []
    assert report.valid
    assert report.match_length == expected["length"]
    assert report.players == expected["players"]
    assert report.final_score == expected["final_score"]
    got = [(g["score_before"], g["winner"], g["points"]) for g in report.games]
    want = [(g["score"], g["winner"], g["points"]) for g in expected["games"]]
    assert got == want
    resigned = [g["ended_by"] == "resign" for g in report.games]
    assert resigned == [g["resigned"] for g in expected["games"]]
    if expected["length"]:
        winner = 0 if expected["final_score"][0] >= expected["length"] else 1
        assert report.winner == expected["players"][winner]


def test_crawford_games_are_found_and_played_for_one() -> None:
    seen = 0
    for stem in STEMS:
        report = check_match_data((CORPUS / f"{stem}.mat").read_bytes(), options(stem))
        crawford = [g for g in report.games if g["crawford"]]
        assert len(crawford) <= 1
        for game in crawford:
            seen += 1
            assert game["cube"] == 1
            assert report.match_length - 1 in game["score_before"]
    assert seen >= 5


# -- corrupted copies -----------------------------------------------------------------


def _position_before(game: GameRecord, index: int) -> Position:
    pos = Position.start()
    for action in game.actions[:index]:
        if isinstance(action, RollPlay) and action.play:
            pos = pos.apply(action.side, Play.parse(action.play))
    return pos


def _rolls(game: GameRecord) -> list[int]:
    return [i for i, a in enumerate(game.actions) if isinstance(a, RollPlay) and a.play]


def _with_action(record: MatchRecord, g: int, i: int, action: Action | None) -> MatchRecord:
    game = record.games[g]
    actions = list(game.actions)
    if action is None:
        del actions[i]
    else:
        actions[i] = action
    games = list(record.games)
    games[g] = replace(game, actions=tuple(actions))
    return replace(record, games=tuple(games))


def corrupt(record: MatchRecord, how: str) -> tuple[MatchRecord, int, Action | None]:
    """A corrupted copy, the game number it is wrong in, and the action that is wrong."""
    g = len(record.games) // 2
    game = record.games[g]
    rolls = _rolls(game)
    if how == "illegal-move":
        i = rolls[len(rolls) // 3]
        roll = game.actions[i]
        assert isinstance(roll, RollPlay)
        pos = _position_before(game, i)
        empty = next(p for p in range(24, 6, -1) if pos.boards[roll.side][p - 1] == 0)
        bad: Action = replace(roll, play=f"{empty}/{empty - roll.dice[0]}")
        return _with_action(record, g, i, bad), g + 1, bad
    if how == "bad-dice":
        i = rolls[len(rolls) // 2]
        roll = game.actions[i]
        assert isinstance(roll, RollPlay)
        bad = replace(roll, dice=(7, roll.dice[1]))
        return _with_action(record, g, i, bad), g + 1, bad
    if how == "points-mismatch":
        i = len(game.actions) - 1
        win = game.actions[i]
        assert isinstance(win, Win)
        bad = replace(win, points=win.points * 10 + 1)
        return _with_action(record, g, i, bad), g + 1, bad
    if how == "score-mismatch":
        g = max(1, g)
        game = record.games[g]
        assert game.score is not None
        wrong = replace(game, score=(game.score[0] + 1, game.score[1]))
        games = list(record.games)
        games[g] = wrong
        return replace(record, games=tuple(games)), g + 1, None
    if how in ("game-not-finished", "truncated"):
        # a game stopped half way: in the middle of the file it is not finished; as the
        # last game the file ends inside it, cut off
        g = len(record.games) - 1 if how == "truncated" else len(record.games) // 2
        game = record.games[g]
        cut = _rolls(game)[len(_rolls(game)) // 2]
        games = list(record.games)
        games[g] = replace(game, actions=game.actions[:cut])
        return replace(record, games=tuple(games)), g + 1, None
    raise AssertionError(how)


KINDS = [
    "illegal-move",
    "bad-dice",
    "points-mismatch",
    "score-mismatch",
    "game-not-finished",
    "truncated",
]
SAMPLE = [s for s in STEMS if len(EXPECTED[s]["games"]) >= 3][::3]


def _written(record: MatchRecord, ext: str) -> str:
    return write_mat(record) if ext == "mat" else write_sgf(record)


def _read(text: str, ext: str) -> MatchRecord:
    return read_mat(text) if ext == "mat" else read_sgf(text)


@pytest.mark.parametrize("ext", ["mat", "sgf"])
@pytest.mark.parametrize("how", KINDS)
@pytest.mark.parametrize("stem", SAMPLE)
def test_corrupted_copies_are_rejected_with_code_and_place(stem: str, how: str, ext: str) -> None:
    original = _read((CORPUS / f"{stem}.{ext}").read_text(encoding="utf-8"), ext)
    record, game, bad = corrupt(original, how)
    text = _written(record, ext)
    report = check_match_data(text, options(stem))
    assert not report.valid
    error = report.errors[0]
    assert error["code"] == how
    assert error["game"] == game
    # every game before the corrupted one was checked and reported
    assert [g["number"] for g in report.games] == list(range(1, game))
    reread = _read(text, ext).games[game - 1]
    if bad is not None:
        located = next(
            a for a in reread.actions if type(a) is type(bad) and a == replace(bad, move=a.move)
        )
        assert (error["move"], error["side"]) == (located.move, bad.side)
    elif how == "score-mismatch":
        assert error["move"] == 0  # the game's score line, before its first move
    else:
        assert error["move"] == reread.actions[-1].move


@pytest.mark.parametrize("ext", ["mat", "sgf"])
def test_a_double_in_the_crawford_game_is_rejected(ext: str) -> None:
    for stem in STEMS:
        report = check_match_data((CORPUS / f"{stem}.{ext}").read_bytes(), options(stem))
        crawford = [g["number"] for g in report.games if g["crawford"]]
        if crawford:
            break
    record = _read((CORPUS / f"{stem}.{ext}").read_text(encoding="utf-8"), ext)
    g = crawford[0] - 1
    game = record.games[g]
    i = _rolls(game)[3]
    roller = game.actions[i].side
    actions = list(game.actions)
    actions.insert(i, Double(roller, 2))
    games = list(record.games)
    games[g] = replace(game, actions=tuple(actions))
    text = _written(replace(record, games=tuple(games)), ext)
    error = check_match_data(text, options(stem)).errors[0]
    double = next(a for a in _read(text, ext).games[g].actions if isinstance(a, Double))
    assert (error["code"], error["game"], error["move"], error["side"]) == (
        "double-in-crawford",
        g + 1,
        double.move,
        roller,
    )


def test_a_game_after_the_end_of_the_match() -> None:
    stem = next(s for s in STEMS if EXPECTED[s]["length"] and len(EXPECTED[s]["games"]) > 1)
    record = read_mat((CORPUS / f"{stem}.mat").read_bytes())
    final = tuple(EXPECTED[stem]["final_score"])
    extra = replace(record.games[0], number=len(record.games) + 1, score=final)
    text = write_mat(replace(record, games=(*record.games, extra)))
    error = check_match_data(text).errors[0]
    assert (error["code"], error["game"], error["move"]) == (
        "game-after-match-end",
        len(record.games) + 1,
        None,
    )


@pytest.mark.skipif(not shutil.which(GNUBG), reason="GNU Backgammon is not installed")
def test_gnubg_reads_our_written_files_as_the_same_matches(tmp_path: Path) -> None:
    """What we write, gnubg imports to the same games and scores it played."""
    stems = [s for s in STEMS if EXPECTED[s]["length"]][::6]
    for stem in stems:
        record = read_sgf((CORPUS / f"{stem}.sgf").read_bytes())
        (tmp_path / f"{stem}.mat").write_text(write_mat(record), encoding="utf-8")
        (tmp_path / f"{stem}.sgf").write_text(write_sgf(record), encoding="utf-8")
    script = tmp_path / "read.py"
    script.write_text(
        "import gnubg, json\n"
        "out = {}\n"
        f"for stem in {stems!r}:\n"
        "    for ext, cmd in (('mat', 'import mat'), ('sgf', 'load match')):\n"
        f"        gnubg.command(f'{{cmd}} \"{tmp_path}/{{stem}}.{{ext}}\"')\n"
        "        games = [g['info'] for g in gnubg.match()['games']]\n"
        "        out[stem + '.' + ext] = [[g['score-X'], g['score-O'], g['winner'], g['points-won']]\n"
        "                                for g in games]\n"
        f"open('{tmp_path}/out.json', 'w').write(json.dumps(out))\n"
    )
    subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)],
        check=True,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    got = json.loads((tmp_path / "out.json").read_text())
    for stem in stems:
        want = [
            [g["score"][0], g["score"][1], "XO"[g["winner"]], g["points"]]
            for g in EXPECTED[stem]["games"]
        ]
        assert got[f"{stem}.mat"] == want
        assert got[f"{stem}.sgf"] == want
