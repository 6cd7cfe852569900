"""GNU Backgammon SGF: reading gnubg's files, writing them back, and agreeing with .mat."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from matches.rules.check import CheckOptions, check_match_data
from matches.rules.errors import ParseError
from matches.rules.matfile import read_mat, write_mat
from matches.rules.notation import Play
from matches.rules.record import Action, Double, Drop, MatchRecord, RollPlay, Take, Win
from matches.rules.sgf import parse_sgf, read_sgf, write_sgf

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"
STEMS = sorted(p.stem for p in CORPUS.glob("*.sgf"))

HEAD = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:5][game:0][ws:0][bs:0]"


def test_letters_count_from_each_sides_own_home() -> None:
    text = HEAD + "PW[Ann]PB[Bob]RE[W+1]\n;W[52mhxv]\n;B[21lnab]\n;W[double]\n;B[drop])"
    game = read_sgf(text).games[0]
    assert game.actions == (
        RollPlay(0, (5, 2), "13/8 24/22", 1),
        RollPlay(1, (2, 1), "13/11 24/23", 1),
        Double(0, None, 2),
        Drop(1, 2),
        Win(0, 1, 2, False),
    )


def test_bar_off_and_a_dance() -> None:
    text = HEAD + "PW[A]PB[B]\n;B[21lnab]\n;W[64yteb]\n;B[66]\n;W[31czaz])"
    actions = parse_sgf(text).games[0].actions
    assert actions[1] == RollPlay(0, (6, 4), "25/20 5/2", 2)
    assert actions[2] == RollPlay(1, (6, 6), "", 2)
    assert actions[3] == RollPlay(0, (3, 1), "3/0 1/0", 3)


def test_a_roll_then_resignation_and_a_beaver() -> None:
    text = (
        "(;GM[6]MI[length:0][game:0][ws:0][bs:0]PW[A]PB[B]RE[B+4R]"
        ";W[21xwmk];B[double];W[double];B[take];PL[B]DI[52])"
    )
    actions = read_sgf(text).games[0].actions
    assert actions[1:] == (
        Double(1, None, 1),
        Double(0, None, 2),
        Take(1, 2),
        RollPlay(1, (5, 2), "", 3),
        Win(1, 4, 3, True),
    )
    report = check_match_data(text)
    assert report.valid, report.errors
    assert report.games[0]["points"] == 4  # beavered to 4, single resigned
    assert report.games[0]["ended_by"] == "resign"


def test_names_with_escapes_round_trip() -> None:
    text = HEAD + r"PW[Ann \] Lee]PB[B\\C]RE[W+1];W[52mhxv];B[double];W[drop])"
    record = read_sgf(text)
    assert record.players == ("Ann ] Lee", "B\\C")
    assert read_sgf(write_sgf(record)).players == record.players


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no game tree"),
        ("x", "expected '('"),
        ("(;GM[1])", "is not backgammon"),
        ("(;FF[4])", "no GM property"),
        (HEAD + ";W[52mh!v])", "not an SGF move"),
        (HEAD + ";W[52mhxv];AE[a:y]AW[a])", "set by hand (AE)"),
        (HEAD + "RE[W+two];W[52mhxv])", "not a result"),
        ("(;GM[6]MI[length:x])", "needs a number"),
        (HEAD + ";W[52mh{v])", "not an SGF move"),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)):
        read_sgf(text)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("(", 0),
        ("(;GM[6]", 0),
        ("(;GM[6]MI[length:5]PW[abc", 0),
        (HEAD + "RE[W+1];W[52mhxv];B[21ln", 1),
        (HEAD + "RE[W+1R];W[52mhxv];B[21lnab]", 1),  # a resignation stated, the tree cut
        (HEAD + "PW[A]PB[B];W[52mhxv];B[21lnab])", 1),  # no result: not over
        (HEAD + "PW[A]PB[B];W[52mh", 1),
    ],
)
def test_a_file_that_ends_inside_a_game_is_truncated(text: str, move: int) -> None:
    error = check_match_data(text).errors[0]
    assert (error["code"], error["game"], error["move"]) == ("truncated", 1, move)


def test_later_games_must_be_of_the_same_match() -> None:
    one = HEAD + "PW[A]PB[B];W[52mhxv])"
    other = one.replace("length:5", "length:7")
    with pytest.raises(ParseError, match="7-point match, not 5"):
        read_sgf(one + other)


def _moves(action: Action) -> object:
    if isinstance(action, RollPlay):
        moves = Counter((m.src, m.dst) for m in Play.parse(action.play).moves)
        return ("roll", action.side, action.dice, moves, action.move)
    if isinstance(action, Double):
        return ("double", action.side, action.move)
    if isinstance(action, Win):
        return ("win", action.side, action.points, action.move)
    return (type(action).__name__, action.side, action.move)


def _same_match(a: MatchRecord, b: MatchRecord) -> None:
    assert (a.length, a.players) == (b.length, b.players)
    assert len(a.games) == len(b.games)
    for ga, gb in zip(a.games, b.games, strict=True):
        assert (ga.number, ga.score, ga.players) == (gb.number, gb.score, gb.players)
        assert [_moves(x) for x in ga.actions] == [_moves(x) for x in gb.actions]


@pytest.mark.parametrize("stem", STEMS)
def test_gnubg_sgf_holds_the_same_match_as_its_mat(stem: str) -> None:
    sgf = read_sgf((CORPUS / f"{stem}.sgf").read_bytes())
    mat = read_mat((CORPUS / f"{stem}.mat").read_bytes())
    _same_match(sgf, mat)


@pytest.mark.parametrize("stem", STEMS[::3])
def test_writing_back_gives_an_equivalent_match(stem: str) -> None:
    record = read_sgf((CORPUS / f"{stem}.sgf").read_bytes())
    again = read_sgf(write_sgf(record))
    assert again.games == record.games
    assert dict(again.rules) == dict(record.rules)
    # and through the other format
    _same_match(read_mat(write_mat(record)), record)


def test_written_sgf_checks_like_the_original() -> None:
    options = CheckOptions()
    for stem in STEMS[:8]:
        original = (CORPUS / f"{stem}.sgf").read_bytes()
        written = write_sgf(read_sgf(original))
        assert (
            check_match_data(written, options).as_dict()["games"]
            == (check_match_data(original, options).as_dict()["games"])
        )


def test_analysis_and_statistics_are_ignored() -> None:
    text = (
        HEAD + "PW[A]PB[B]GS[M:0 0 12 12][C:0 0]RE[B+1]"
        ";W[52mhxv]DA[E ver 3 0C 1 0.000000 1]A[0][mhxv E ver 3 0.48]MR[]LU[0.1]GB[1]"
        ";B[double]DO[];W[drop]C[a comment])"
    )
    assert parse_sgf(text).first_error() is None
    assert check_match_data(text).valid


def test_a_broken_later_game_comes_after_the_errors_before_it() -> None:
    illegal = HEAD + "PW[A]PB[B]RE[B+1];W[52mhxw];B[double];W[drop])"  # 24/23 with a 2
    broken = HEAD.replace("game:0", "game:1") + "PW[A]PB[B];W[52"
    error = check_match_data(illegal + broken).errors[0]
    assert (error["code"], error["game"]) == ("illegal-move", 1)
    good = illegal.replace("xw", "xv")
    error = check_match_data(good + broken).errors[0]
    assert (error["code"], error["game"], error["move"]) == ("score-mismatch", 2, 0)
    # the score line is right: the file ends inside game 2, at its first move
    error = check_match_data(good + broken.replace("bs:0", "bs:1")).errors[0]
    assert (error["code"], error["game"], error["move"]) == ("truncated", 2, 1)
