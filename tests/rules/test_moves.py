"""Plays: notation, legal-play generation by the maximal-play rule, checking written plays.

Expected play sets are written the way GNU Backgammon 1.07 lists them (its hint
command gave the same sets for every position below).
"""

import pytest

from matches.rules import Move, Play, Position, can_move, check_play, legal_plays
from matches.rules.errors import BadDice, IllegalMove, ParseError


def board(points: dict[int, int]) -> tuple[int, ...]:
    """A side's board from {own point: checkers}; point 25 is the bar."""
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return tuple(counts)


def position(mover: dict[int, int], other: dict[int, int]) -> Position:
    """Side 0 (the mover) and side 1, each by its own point numbers."""
    return Position((board(mover), board(other)))


CLOSED = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
PRIME = {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2}  # side 0's points 18 down to 13

# (what it shows, mover, other, roll, every legal play)
CASES = [
    (
        "combined move: via the blot hits, via the open point does not",
        {8: 1},
        {22: 1},
        (5, 1),
        {"8/3*/2", "8/2"},
    ),
    (
        "a blot on the bar enters, then the other die is free",
        {25: 1, 13: 2},
        {6: 2, 4: 2},
        (6, 2),
        {"bar/23 13/7", "bar/17"},
    ),
    ("every entry point blocked: no move", {25: 1, 13: 2}, {6: 2, 4: 2}, (6, 4), {""}),
    (
        "two on the bar, one enters: the other die cannot be played",
        {25: 2, 13: 3},
        {6: 2, 5: 2, 4: 2, 3: 2},
        (5, 2),
        {"bar/23"},
    ),
    ("closed board: dance", {25: 1, 13: 5}, CLOSED, (6, 6), {""}),
    ("closed board: dance with any roll", {25: 1, 13: 5}, CLOSED, (2, 1), {""}),
    (
        "bear off with the 6 from the highest point; the 1 anywhere",
        {5: 1, 3: 2},
        {13: 2},
        (6, 1),
        {"5/off 3/2", "5/off"},
    ),
    (
        "either die alone but not both: the larger must be played",
        {10: 1},
        {24: 2},
        (6, 3),
        {"10/4"},
    ),
    ("only the smaller die can be played", {10: 1}, {24: 2, 21: 2}, (6, 3), {"10/7"}),
    ("a doublet played twice of four", {13: 1}, {24: 2}, (4, 4), {"13/5"}),
    (
        "behind a six-prime: only the 5s move",
        {24: 2, 6: 13},
        PRIME,
        (6, 5),
        {"24/19", "6/1"},
    ),
    ("behind a six-prime: 66 does not move", {24: 2, 6: 13}, PRIME, (6, 6), {""}),
    (
        "bear off two, or one checker with both dice",
        {6: 1, 1: 1},
        {13: 2},
        (6, 1),
        {"6/off 1/off", "6/off"},
    ),
    ("last checker off with one die", {2: 1}, {13: 2}, (6, 5), {"2/off"}),
    (
        "a hit checker must come home before bearing off resumes",
        {25: 1, 4: 1},
        {13: 2},
        (4, 3),
        {"bar/18", "bar/21 4/1"},
    ),
]


@pytest.mark.parametrize(
    ("mover", "other", "roll", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_legal_plays(
    mover: dict[int, int], other: dict[int, int], roll: tuple[int, int], expected: set[str]
) -> None:
    pos = position(mover, other)
    plays = legal_plays(pos, 0, roll)
    assert {str(play) for play in plays} == expected
    assert len(plays) == len(expected)
    for play in plays:
        assert check_play(pos, 0, roll, str(play)) == pos.apply(0, play)
    assert can_move(pos, 0, roll) == (expected != {""})


def test_opening_counts() -> None:
    start = Position.start()
    counts = {roll: len(legal_plays(start, 0, roll)) for roll in [(2, 1), (6, 5), (4, 4), (1, 1)]}
    assert counts == {(2, 1): 15, (6, 5): 7, (4, 4): 52, (1, 1): 42}


def test_a_combined_move_prefers_the_path_without_a_hit() -> None:
    pos = position({8: 1}, {22: 1})
    assert check_play(pos, 0, (5, 1), "8/2").bar(1) == 0
    assert check_play(pos, 0, (5, 1), "8/3*/2").bar(1) == 1


def test_a_combined_move_that_can_only_hit_on_the_way_is_accepted() -> None:
    # 8/2 with 51 where 7 is blocked: the only way is 8/3*/2
    pos = position({8: 1}, {22: 1, 18: 2})
    assert check_play(pos, 0, (5, 1), "8/2") == check_play(pos, 0, (5, 1), "8/3*/2")


def test_a_combined_move_with_two_different_hits_is_ambiguous() -> None:
    pos = position({8: 1, 13: 2}, {22: 1, 18: 1})  # blots on side 0's 3 and 7
    with pytest.raises(IllegalMove, match="ambiguous"):
        check_play(pos, 0, (5, 1), "8/2")
    assert check_play(pos, 0, (5, 1), "8/7*/2").bar(1) == 1


def test_hit_marks_do_not_decide() -> None:
    pos = position({13: 2, 6: 2}, {16: 1, 6: 3})
    marked = check_play(pos, 0, (4, 1), "13/9* 6/5")
    unmarked = check_play(pos, 0, (4, 1), "13/9 6/5")
    assert marked == unmarked
    assert marked.bar(1) == 1
    assert check_play(pos, 0, (4, 1), "13/12* 6/2*") == pos.apply(0, Play.parse("13/12 6/2"))


def test_moves_may_be_written_in_any_order() -> None:
    pos = position({25: 1, 13: 2}, {6: 2, 4: 2})
    assert check_play(pos, 0, (6, 2), "13/7 bar/23") == check_play(pos, 0, (6, 2), "bar/23 13/7")


def test_a_bear_off_written_as_one_move_over_two_dice() -> None:
    # 9/off with 33 plays 9/6/3/off; 7/4 must come in first (gnubg writes "9/off 7/4")
    pos = position({9: 1, 7: 1, 3: 2}, {13: 2})
    after = check_play(pos, 0, (3, 3), "9/off 7/4")
    assert after.boards[0] == board({4: 1, 3: 2})


def test_doublet_combined_moves() -> None:
    start = Position.start()
    assert check_play(start, 0, (4, 4), "24/16(2)") == check_play(
        start, 0, (4, 4), "24/20 24/20 20/16 20/16"
    )
    assert check_play(start, 0, (2, 2), "13/5") == start.apply(0, Play.parse("13/11/9/7/5"))


@pytest.mark.parametrize(
    ("mover", "other", "roll", "text", "message"),
    [
        ({13: 5, 6: 5}, {}, (5, 2), "13/7", "13/7 is not legal for 52"),
        (
            {13: 5, 6: 5},
            {},
            (5, 2),
            "13/8 13/11 6/4",
            "not legal for 52: its moves need more than the 2 dice",
        ),
        ({13: 5, 6: 5}, {}, (6, 1), "13/7 13/7", "13/7(2) is not legal for 61: its moves need"),
        ({13: 5, 6: 5}, {}, (6, 5), "12/6 13/8", "12/6 is not legal: no checker on 12"),
        ({13: 5, 6: 5}, {18: 2}, (6, 5), "13/7 13/8", "13/7 is not legal: point 7 is blocked"),
        ({25: 1, 13: 2}, {}, (6, 2), "13/7 13/11", "must enter from the bar first"),
        (
            {25: 2, 13: 3},
            {6: 2, 5: 2, 4: 2, 3: 2},
            (5, 2),
            "bar/23 13/8",
            "must enter from the bar first",
        ),
        ({25: 1, 13: 5}, CLOSED, (6, 5), "bar/19 bar/20", "is not legal: point 19 is blocked"),
        (
            {5: 1, 3: 2},
            {13: 2},
            (6, 1),
            "3/off 3/2",
            "bearing off from 3 with a 6 while a checker is on 5",
        ),
        (
            {7: 1, 3: 2},
            {13: 2},
            (4, 3),
            "3/off 3/off",
            "cannot bear off while checkers are outside",
        ),
        ({10: 1}, {24: 2}, (6, 3), "10/7", "must play the larger die (6): 10/4 is possible"),
        ({13: 5, 6: 5}, {}, (6, 5), "13/7", "must use both dice: "),
        ({13: 1}, {24: 2}, (4, 4), "13/9", "must play 2 of the four 4s, not 1: 13/5 is possible"),
        ({13: 5}, {}, (2, 1), "", "a move is possible: 13/"),
        ({13: 5}, {}, (2, 1), "6/4 6/5", "no checker on 6"),
    ],
)
def test_illegal_plays_say_why(
    mover: dict[int, int],
    other: dict[int, int],
    roll: tuple[int, int],
    text: str,
    message: str,
) -> None:
    pos = position(mover, other)
    with pytest.raises(IllegalMove) as err:
        check_play(pos, 0, roll, text)
    assert message in err.value.message
    assert err.value.code == "illegal-move"
    assert err.value.side == 0


def test_check_play_works_for_side_one() -> None:
    start = Position.start()
    after = check_play(start, 1, (3, 1), "8/5 6/5")
    assert after.boards[1] == board({24: 2, 13: 5, 8: 2, 6: 4, 5: 2})
    with pytest.raises(IllegalMove) as err:
        check_play(start, 1, (3, 1), "8/2")
    assert err.value.side == 1


def test_bad_rolls_are_bad_dice() -> None:
    with pytest.raises(BadDice):
        check_play(Position.start(), 0, (7, 1), "13/6")
    with pytest.raises(BadDice):
        legal_plays(Position.start(), 0, (0, 1))
    with pytest.raises(BadDice):
        can_move(Position.start(), 0, (1, 9))


# -- notation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("24/18 13/9*", [(24, 18, False), (13, 9, True)]),
        ("bar/22", [(25, 22, False)]),
        ("Bar/22", [(25, 22, False)]),
        ("25/22", [(25, 22, False)]),
        ("6/off", [(6, 0, False)]),
        ("6/Off", [(6, 0, False)]),
        ("6/0", [(6, 0, False)]),
        ("8/4(2)", [(8, 4, False), (8, 4, False)]),
        ("24/16", [(24, 16, False)]),
        ("24/18/16", [(24, 18, False), (18, 16, False)]),
        ("24/21*/16", [(24, 21, True), (21, 16, False)]),
        ("bar/22*/19*(2)", [(25, 22, True), (22, 19, True)] * 2),
        ("13/11, 6/5", [(13, 11, False), (6, 5, False)]),
        ("  13/11   6/5 ", [(13, 11, False), (6, 5, False)]),
        ("", []),
        ("-", []),
        ("dance", []),
        ("Cannot move", []),
    ],
)
def test_parse(text: str, moves: list[tuple[int, int, bool]]) -> None:
    assert Play.parse(text) == Play(tuple(Move(*m) for m in moves))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("13", "needs a from and a to point"),
        ("13-9", "needs a from and a to point"),
        ("13/x", "'x' is not a point"),
        ("13/26", "'26' is not a point"),
        ("13/100", "'100' is not a point"),
        ("9/13", "does not move towards home"),
        ("13/13", "does not move towards home"),
        ("off/6", "cannot start off the board"),
        ("6/bar", "cannot move to the bar"),
        ("6/off*", "nothing can be hit off the board"),
        ("*13/9", "'*13' is not a point"),
        ("13/9**", "misplaced '*'"),
        ("8/4(5)", "repeated 1 to 4 times"),
        ("8/4(0)", "repeated 1 to 4 times"),
        ("8/4(2", "cannot read"),
        ("13/9 foo", "needs a from and a to point"),
    ],
)
def test_parse_errors(text: str, fragment: str) -> None:
    with pytest.raises(ParseError) as err:
        Play.parse(text)
    assert fragment in err.value.message
    assert err.value.message.startswith(f"{text!r} is not a play")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("13/9* 24/18", "24/18 13/9*"),
        ("25/22 6/0", "bar/22 6/off"),
        ("8/4 8/4 6/2 6/2", "8/4(2) 6/2(2)"),
        ("24/18 18/16", "24/16"),
        ("24/21* 21/16", "24/21*/16"),
        ("13/11* 12/11 11/10", "13/11*/10 12/11"),
        ("6/4* 6/4*", "6/4*(2)"),
        ("bar/22* 22/19* bar/22* 22/19*", "bar/22*/19*(2)"),
        ("", ""),
    ],
)
def test_format_is_gnubg_style(text: str, canonical: str) -> None:
    assert str(Play.parse(text)) == canonical
    assert str(Play.parse(canonical)) == canonical


def test_moves_validate_their_points() -> None:
    with pytest.raises(ParseError):
        Move(26, 20)
    with pytest.raises(ParseError):
        Move(6, -1)
    with pytest.raises(ParseError):
        Move(6, 6)
