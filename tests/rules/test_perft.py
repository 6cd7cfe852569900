"""Perft-style counts: our legal plays against GNU Backgammon's on thousands of positions.

``tests/data/perft.txt`` holds (Position ID, roll, number of legal plays) for
positions sampled from seeded random games, counted by GNU Backgammon 1.07;
``tests/data/gnubg_plays.txt`` lists every play, as gnubg writes it, for the first
250 of them. ``tests/data/make_perft.py`` regenerates both.
"""

from pathlib import Path

from matches.rules import Position, check_play, legal_plays

DATA = Path(__file__).resolve().parent.parent / "data"


def read(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text().splitlines()
    return [line.split(" ", 2) for line in lines if line and not line.startswith("#")]


def roll_of(text: str) -> tuple[int, int]:
    return int(text[0]), int(text[1])


def test_perft_counts_match_gnubg() -> None:
    rows = read("perft.txt")
    assert len(rows) > 4000
    wrong = []
    for pid, roll, count in rows:
        pos = Position.from_position_id(pid, 0)
        found = len(legal_plays(pos, 0, roll_of(roll)))
        if found != int(count):
            wrong.append((pid, roll, int(count), found))
    assert wrong == []


def test_perft_covers_the_hard_cases() -> None:
    """The sample really contains dances, one-die plays and partly played doublets."""
    kinds = set()
    for pid, roll, _ in read("perft.txt"):
        pos = Position.from_position_id(pid, 0)
        dice = roll_of(roll)
        used = len(legal_plays(pos, 0, dice)[0].moves)
        kinds.add(("doublet" if dice[0] == dice[1] else "plain", used))
        if pos.bar(0):
            kinds.add(("bar", used))
        if pos.all_home(0):
            kinds.add(("bearoff", used))
    assert {("plain", 0), ("plain", 1), ("doublet", 0), ("doublet", 3)} <= kinds
    assert {("bar", 0), ("bearoff", 1), ("bearoff", 2)} <= kinds


def test_well_known_opening_counts() -> None:
    counts = {roll: int(n) for pid, roll, n in read("perft.txt") if pid == "4HPwATDgc/ABMA"}
    assert counts["21"] == 15
    assert counts["66"] == 11
    assert len(counts) == 21


def test_plays_are_written_as_gnubg_writes_them() -> None:
    rows = read("gnubg_plays.txt")
    assert len(rows) == 250
    for pid, roll, listed in rows:
        pos = Position.from_position_id(pid, 0)
        dice = roll_of(roll)
        expected = {""} if listed == "-" else set(listed.split("|"))
        plays = legal_plays(pos, 0, dice)
        assert {str(play) for play in plays} == expected, (pid, roll)
        for play in plays:
            assert check_play(pos, 0, dice, str(play)) == pos.apply(0, play)
