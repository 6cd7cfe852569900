"""The .mat reader and writer: gnubg's and XG's dialects, errors in place, round trips."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from matches.rules.check import CheckOptions, check_match_data
from matches.rules.errors import ParseError
from matches.rules.matfile import parse_mat, read_mat, write_mat
from matches.rules.record import (
    Beaver,
    Double,
    Drop,
    Raccoon,
    RollPlay,
    Take,
    Unreadable,
    Win,
)

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"
MAT_FILES = sorted(CORPUS.glob("*.mat"))

GNUBG_GAME = """\
; [EventDate "2026.11.21"]

 7 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             21: 13/11 24/23 $
  2) 52: 13/8 24/22              63: 8/5 11/5 $
  3) 66:                         22: 15/13 13/11 11/9* 3/1
  4) 22: 24/22 22/20* 13/11 13/11 63: 25/22 22/16 $
  5) 53: 25/22 13/8               Doubles => 2
  6)  Drops                       Wins 1 point $

 Game 2
 gnubg : 0                      root : 1
  1) 52: 13/8 24/22              31: 8/5 6/5 $
  2)  Doubles => 2                Takes
  3) 62: 4/0 2/0                 $
      Wins 2 points
"""


def test_gnubg_layout() -> None:
    record = parse_mat(GNUBG_GAME.replace("$", ""))
    assert record.length == 7
    assert record.players == ("gnubg", "root")
    assert record.info == (("EventDate", "2026.11.21"),)
    first, second = record.games
    assert (first.number, first.score, second.score) == (1, (0, 0), (0, 1))
    assert first.actions == (
        RollPlay(1, (2, 1), "13/11 24/23", 1),
        RollPlay(0, (5, 2), "13/8 24/22", 2),
        RollPlay(1, (6, 3), "8/5 11/5", 2),
        RollPlay(0, (6, 6), "", 3),  # a dance
        RollPlay(1, (2, 2), "15/13 13/11 11/9* 3/1", 3),
        RollPlay(0, (2, 2), "24/22 22/20* 13/11 13/11", 4),  # overflows into the right column
        RollPlay(1, (6, 3), "25/22 22/16", 4),
        RollPlay(0, (5, 3), "25/22 13/8", 5),
        Double(1, 2, 5),
        Drop(0, 6),
        Win(1, 1, 6),
    )
    assert second.actions[-4:] == (
        Double(0, 2, 2),
        Take(1, 2),
        RollPlay(0, (6, 2), "4/0 2/0", 3),
        Win(0, 2, 3),
    )


def xg_dialect(text: str, *, last_game_wins_match: bool = True) -> bytes:
    """The same match as eXtreme Gammon writes it: BOM, CRLF, right column at 38, bar/off."""
    out = ['; [Site "eXtremeGammon"]', '; [Crawford "On"]', '; [Player 1 "x"]']
    lines = text.splitlines()
    wins_lines = [i for i, line in enumerate(lines) if "Wins" in line]
    for i, line in enumerate(lines):
        if line.startswith(";"):
            continue
        header = re.fullmatch(r"(\s*.+? : \d+)\s+(.+ : \d+)\s*", line)
        if header:
            line = f"{header.group(1):<38}{header.group(2)}"
        elif re.match(r"\s*\d+\)", line) or "Wins" in line:
            left, right = line[:33].rstrip(), line[33:].strip()
            line = f"{left:<38}{right}".rstrip() if right else left
        line = re.sub(r"\b25/", "Bar/", line)
        line = re.sub(r"/0\b", "/Off", line)
        line = re.sub(r"Wins (\d+) points", r"Wins \1 point", line)
        if last_game_wins_match and i == wins_lines[-1]:
            line += " and the match"
        out.append(line)
    return ("\ufeff" + "\r\n".join(out) + "\r\n").encode("utf-8")


@pytest.mark.parametrize("path", MAT_FILES[::4], ids=lambda p: p.name)
def test_the_xg_dialect_of_a_match_reads_as_the_same_match(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    gnubg, xg = read_mat(text), read_mat(xg_dialect(text))
    assert xg.players == gnubg.players
    assert [g.score for g in xg.games] == [g.score for g in gnubg.games]
    for a, b in zip(gnubg.games, xg.games, strict=True):
        assert [type(x) for x in a.actions] == [type(x) for x in b.actions]
        assert [x.side for x in a.actions] == [x.side for x in b.actions]
    options = CheckOptions()
    assert (
        check_match_data(xg_dialect(text), options).as_dict()["games"]
        == (check_match_data(text, options).as_dict()["games"])
    )


def test_xg_specials() -> None:
    text = (
        " 0 point match\r\n\r\n Game 1\r\n Ken : 0                              XG : 0\r\n"
        "  1) 41: 13/9 24/23                   16: 13/7 8/7\r\n"
        "  2) 66: Cannot Move                  52: ???\r\n"
        "  3)  Doubles => 2                    Beavers => 4\r\n"
        "  4)  Raccoons => 8                    Takes\r\n"
        "  5) 66: Bar/19* 6/Off\r\n"
        " 29)                                   Wins 4 point\r\n"
    )
    actions = read_mat(text).games[0].actions
    assert actions[1] == RollPlay(1, (1, 6), "13/7 8/7", 1)
    assert actions[2:4] == (RollPlay(0, (6, 6), "", 2), RollPlay(1, (5, 2), "", 2))
    assert actions[4:8] == (Double(0, 2, 3), Beaver(1, 4, 3), Raccoon(0, 8, 4), Take(1, 4))
    assert actions[8] == RollPlay(0, (6, 6), "bar/19* 6/off", 5)
    assert actions[9] == Win(1, 4, 29)


def test_tabs_and_blank_lines() -> None:
    text = "3 point match\n\n\n Game 1\n A : 0\tB : 0\n 1) 31: 8/5 6/5\t\t\t42: 8/4 6/4\n\n"
    actions = read_mat(text).games[0].actions
    assert [a.side for a in actions] == [0, 1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no ' N point match' line"),
        ("hello\n", "line 1: expected ' N point match'"),
        (" 5 point match\n", "no games"),
        (" 5 point match\n Game 1\n", "has no score line"),
        (" 5 point match\n Game 1\n A 0 B 0\n", "line 3: expected the score line"),
        (
            " 5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5  Dubbles\n",
            "line 4: cannot read 'Dubbles'",
        ),
        (" 5 point match\n Game 1\n A : 0  B : 0\n  1) Wins\n", "'Wins' needs a number"),
        (" 5 point match\n stray\n", "line 2: expected ' Game N'"),
        (
            " 5 point match\n Game 1\n A : 0  B : 0\n ; Set Pos=-b----E-C---eE---c-e----B-:0:0:1\n",
            "set by hand",
        ),
    ],
)
def test_parse_errors_say_where(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as caught:
        read_mat(text)
    assert caught.value.code == "parse-error"


def test_unreadable_text_stays_in_its_game_for_reading_order() -> None:
    text = (
        " 5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n  2) ##\n"
        " Game 2\n A : 0  B : 1\n  1) 31: 8/5 6/5\n"
    )
    record = parse_mat(text)
    assert isinstance(record.games[0].actions[-1], Unreadable)
    assert record.games[0].actions[-1].move == 2
    assert len(record.games) == 2


def test_latin1_and_bom() -> None:
    text = " 1 point match\n Game 1\n Zoë : 0   Søren : 0\n"
    assert read_mat(text.encode("latin-1")).players == ("Zoë", "Søren")
    assert read_mat(b"\xef\xbb\xbf" + text.encode("utf-8")).players == ("Zoë", "Søren")


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: p.name)
def test_writing_back_a_gnubg_file_gives_the_same_file(path: Path) -> None:
    """Line for line as gnubg wrote it (gnubg pads cells with trailing blanks we leave off)."""
    text = path.read_text(encoding="utf-8")
    record = read_mat(text)
    written = write_mat(record)
    assert [line.rstrip() for line in written.splitlines()] == [
        line.rstrip() for line in text.splitlines()
    ]
    assert read_mat(written) == record


def test_writing_a_beaver_and_an_empty_column() -> None:
    text = (
        " 0 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Beavers => 4\n"
        "  3) 42: 8/4 6/4\n"
    )
    record = read_mat(text)
    assert read_mat(write_mat(record)) == record
