"""Money sessions from GNU Backgammon self-play, checked against gnubg's own figures.

``tests/data/gnubg_money`` (made by ``tests/data/make_money.py``) holds eight
sessions gnubg played against itself with Jacoby on and off, beavers allowed and
automatic doubles, each as gnubg saved it (``.sgf``) and exported it (``.mat``), and
``expected.json`` with gnubg's figures for every game: score before it, winner,
points, resignation, the cube it started at (automatic doubles) and ended at, the kind
of win gnubg announced, and the final score.

gnubg never beavered in self-play, so ``edited/`` holds copies of real games with only
their cube actions edited (a beaver, a raccoon, a dropped beaver, a gammon with the
cube never turned under Jacoby), each as edited (``.sgf``) and as gnubg exported it
after loading it (``.mat``), with what gnubg scored on loading it.

Two places where gnubg's ``.mat`` export and match-rules.md part, tested as such:
- A ``.mat`` file cannot record automatic doubles, and gnubg writes an automatically
  doubled game as if its cube had started at 1 (``Doubles => 2``, ``Wins 2 points``
  for a game gnubg scored 4) while its next score line counts the real points. By
  match-rules.md §5 the automatic doubles count: the engine reads such a game the way
  the next game's score line agrees with (so every game but a session's last is read
  as gnubg scored it; the last one has no score line after it to tell).
- gnubg exports a Jacoby game won with a gammon and the cube never turned as
  ``Wins 2 points`` (it scores it 1 itself): under Jacoby (§5) that is
  ``points-mismatch``; the ``.sgf`` says 1 and agrees.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from matches.rules.check import CheckOptions, check_match_data
from matches.rules.record import Beaver, Double, Drop, Raccoon, RollPlay, Take
from matches.rules.sgf import read_sgf

DATA = Path(__file__).resolve().parent.parent / "data" / "gnubg_money"
EXPECTED: dict[str, dict[str, Any]] = json.loads((DATA / "expected.json").read_text())
STEMS = sorted(EXPECTED)
EDITED: dict[str, dict[str, Any]] = json.loads((DATA / "edited" / "expected.json").read_text())


def options(stem: str) -> CheckOptions:
    rules = EXPECTED[stem]["rules"]
    return CheckOptions(jacoby=rules["jacoby"], auto_doubles=rules["auto_doubles"])


def figures(game: dict[str, Any]) -> tuple[Any, ...]:
    """gnubg's figures for one game, in the order of :func:`ours`."""
    return (
        game["score"],
        game["winner"],
        game["points"],
        game["cube"],
        game["result"],
        game["resigned"],
    )


def ours(game: dict[str, Any]) -> tuple[Any, ...]:
    """The engine's figures for one game (``checkmatch --json``'s game object)."""
    return (
        game["score_before"],
        game["winner"],
        game["points"],
        game["cube"],
        game["result"],
        game["ended_by"] == "resign",
    )


def test_the_sessions_cover_the_money_options() -> None:
    assert len(STEMS) == 8
    games = [g for s in STEMS for g in EXPECTED[s]["games"]]
    assert len(games) == 62
    assert {EXPECTED[s]["rules"]["jacoby"] for s in STEMS} == {True, False}
    assert any(EXPECTED[s]["rules"]["beavers"] for s in STEMS)
    assert {g["initial_cube"] for g in games} == {1, 2, 4}  # one and two automatic doubles
    assert {g["result"] for g in games} == {"single", "gammon", "backgammon"}
    assert sum(g["resigned"] for g in games) >= 10
    assert sum(["drop", 1 - g["winner"]] in g["cube_actions"] for g in games) >= 10
    for stem in STEMS:
        # the figures add up: gnubg's final score is its games' points
        final = [0, 0]
        for game in EXPECTED[stem]["games"]:
            assert game["score"] == final
            final[game["winner"]] += game["points"]
        assert final == EXPECTED[stem]["final_score"]
        # the rules gnubg wrote into the file agree with the spec
        assert ("Jacoby" in EXPECTED[stem]["rules"]["gnubg"]) == EXPECTED[stem]["rules"]["jacoby"]


@pytest.mark.parametrize("stem", STEMS)
def test_sgf_sessions_agree_with_gnubg_on_every_game(stem: str) -> None:
    expected = EXPECTED[stem]
    report = check_match_data((DATA / f"{stem}.sgf").read_bytes(), options(stem))
    assert report.errors == []
    assert report.valid
    assert report.match_length == 0
    assert report.players == expected["players"]
    assert [ours(g) for g in report.games] == [figures(g) for g in expected["games"]]
    assert report.final_score == expected["final_score"]
    assert report.winner is None  # a session has no winner
    autos = [g.auto_doubles for g in read_sgf((DATA / f"{stem}.sgf").read_bytes()).games]
    assert [1 << (a or 0) for a in autos] == [g["initial_cube"] for g in expected["games"]]


def _first_auto_doubled(stem: str) -> int | None:
    games = EXPECTED[stem]["games"]
    return next((i for i, g in enumerate(games) if g["initial_cube"] > 1), None)


@pytest.mark.parametrize("stem", STEMS)
def test_mat_sessions_agree_with_gnubg_on_every_game(stem: str) -> None:
    """Automatic doubles before doubles taken or dropped (cube 4 after one automatic
    double, 8 after two) are accepted as §5 allows, and score as gnubg scored them."""
    expected = EXPECTED[stem]
    report = check_match_data((DATA / f"{stem}.mat").read_bytes(), options(stem))
    assert report.errors == []
    assert report.players == expected["players"]
    assert [ours(g) for g in report.games] == [figures(g) for g in expected["games"]]
    assert report.final_score == expected["final_score"]


def test_an_automatically_doubled_game_needs_the_option() -> None:
    """Without automatic doubles allowed, the game after one disagrees with the file."""
    stems = [s for s in STEMS if _first_auto_doubled(s) is not None]
    assert len(stems) == 5
    for stem in stems:
        first = _first_auto_doubled(stem)
        assert first is not None
        plain = CheckOptions(jacoby=EXPECTED[stem]["rules"]["jacoby"])
        report = check_match_data((DATA / f"{stem}.mat").read_bytes(), plain)
        error = report.errors[0]
        assert (error["code"], error["game"], error["move"]) == ("score-mismatch", first + 2, 0)


def test_sessions_without_automatic_doubles_read_the_same_from_mat_and_sgf() -> None:
    plain = [s for s in STEMS if _first_auto_doubled(s) is None]
    assert len(plain) >= 3
    for stem in plain:
        mat = check_match_data((DATA / f"{stem}.mat").read_bytes(), options(stem))
        sgf = check_match_data((DATA / f"{stem}.sgf").read_bytes(), options(stem))
        assert mat.valid
        assert mat.games == sgf.games


# -- hand-edited copies: beavers, raccoons, Jacoby with the cube never turned -------------


def _cube_actions(path: Path) -> list[tuple[str, int]]:
    game = read_sgf(path.read_bytes()).games[0]
    return [
        (type(a).__name__, a.side)
        for a in game.actions
        if isinstance(a, (Double, Beaver, Raccoon, Take, Drop))
    ]


@pytest.mark.parametrize("name", sorted(EDITED))
def test_edited_copies_change_only_cube_actions(name: str) -> None:
    source = read_sgf((DATA / f"{EDITED[name]['source']}.sgf").read_bytes()).games[0]
    edited = read_sgf((DATA / "edited" / f"{name}.sgf").read_bytes()).games[0]
    rolls = [a for a in edited.actions if isinstance(a, RollPlay)]
    original = [a for a in source.actions if isinstance(a, RollPlay)]
    # the same rolls and plays, up to the end of the edited game (a dropped beaver ends it)
    assert [(a.side, a.dice, a.play) for a in rolls] == [
        (a.side, a.dice, a.play) for a in original[: len(rolls)]
    ]
    assert "C[edit: " in (DATA / "edited" / f"{name}.sgf").read_text(encoding="utf-8")


EDITED_CUBES = {
    "beaver": ([("Double", 1), ("Double", 0), ("Take", 1)], 4, "play"),
    "raccoon": ([("Double", 1), ("Double", 0), ("Double", 1), ("Take", 0)], 8, "play"),
    "beaver_dropped": ([("Double", 1), ("Double", 0), ("Drop", 1)], 2, "drop"),
    "jacoby_centred_gammon": ([], 1, "play"),
}


@pytest.mark.parametrize("ext", ["sgf", "mat"])
@pytest.mark.parametrize("name", sorted(EDITED))
def test_edited_copies_agree_with_gnubgs_scoring(name: str, ext: str) -> None:
    gnubg = EDITED[name]["gnubg_on_load"]
    actions, cube, ended_by = EDITED_CUBES[name]
    assert _cube_actions(DATA / "edited" / f"{name}.sgf") == actions
    jacoby = name.startswith("jacoby")
    report = check_match_data(
        (DATA / "edited" / f"{name}.{ext}").read_bytes(), CheckOptions(jacoby=jacoby)
    )
    if jacoby and ext == "mat":
        # gnubg's export writes the gammon as 2 although gnubg scores it 1 (Jacoby, §5)
        assert report.errors[0]["code"] == "points-mismatch"
        assert "Wins 2: a gammon with the cube at 1 is worth 1" in report.errors[0]["message"]
        plain = check_match_data((DATA / "edited" / f"{name}.mat").read_bytes())
        assert plain.valid
        assert plain.games[0]["points"] == 2 * gnubg["points"]
        return
    assert report.errors == []
    [game] = report.games
    assert (game["winner"], game["points"], game["ended_by"] == "resign") == (
        gnubg["winner"],
        gnubg["points"],
        gnubg["resigned"],
    )
    assert (game["cube"], game["ended_by"]) == (cube, ended_by)


def test_gnubg_writes_beavers_and_raccoons_as_beavers_in_mat() -> None:
    raccoon = (DATA / "edited" / "raccoon.mat").read_text(encoding="utf-8")
    assert "Beavers => 4" in raccoon
    assert "Beavers => 8" in raccoon
    assert "Raccoon" not in raccoon
    # the second "Beavers" answers a beaver, so it is the raccoon: taken, the cube is 8
    report = check_match_data(raccoon)
    assert report.valid
    assert (report.games[0]["cube"], report.games[0]["points"]) == (8, 8)
    # with the raccoon replaced by a take, the same game is played for 4
    beaver = raccoon.replace("Beavers => 8", "Takes").replace("Wins 8 points", "Wins 4 points")
    report = check_match_data(beaver)
    assert report.valid
    assert (report.games[0]["cube"], report.games[0]["points"]) == (4, 4)


def test_jacoby_decides_the_centred_gammon_in_the_sgf() -> None:
    path = DATA / "edited" / "jacoby_centred_gammon.sgf"
    under_jacoby = check_match_data(path.read_bytes(), CheckOptions(jacoby=True))
    assert under_jacoby.valid
    assert under_jacoby.games[0]["result"] == "gammon"
    assert under_jacoby.games[0]["points"] == 1
    without = check_match_data(path.read_bytes(), CheckOptions(jacoby=False))
    assert without.errors[0]["code"] == "points-mismatch"
