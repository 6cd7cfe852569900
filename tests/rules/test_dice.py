"""Dice: reading rolls, rejecting impossible ones, doublets played four times."""

import pytest

from matches.rules import check_roll, dice_to_play, parse_roll
from matches.rules.errors import BadDice, ParseError


@pytest.mark.parametrize(
    ("text", "roll"),
    [("52", (5, 2)), ("25", (2, 5)), ("66", (6, 6)), (" 3-1 ", (3, 1)), ("4 4", (4, 4))],
)
def test_parse_roll_reads_two_dice(text: str, roll: tuple[int, int]) -> None:
    assert parse_roll(text) == roll


@pytest.mark.parametrize("text", ["07", "70", "17", "99"])
def test_parse_roll_rejects_dice_off_the_die(text: str) -> None:
    with pytest.raises(BadDice) as err:
        parse_roll(text)
    assert err.value.code == "bad-dice"


@pytest.mark.parametrize("text", ["", "5", "523", "ab", "5x", "٥٢", "5--2"])
def test_parse_roll_rejects_text_that_is_not_a_roll(text: str) -> None:
    with pytest.raises(ParseError) as err:
        parse_roll(text)
    assert err.value.code == "parse-error"


@pytest.mark.parametrize("roll", [(0, 1), (1, 7), (6, -1), (1,), (1, 2, 3), ("1", 2), [1, 2]])
def test_check_roll_rejects_bad_rolls(roll: object) -> None:
    with pytest.raises(BadDice):
        check_roll(roll)  # type: ignore[arg-type]


def test_every_real_roll_passes() -> None:
    for a in range(1, 7):
        for b in range(1, 7):
            check_roll((a, b))


def test_doublets_give_four_moves() -> None:
    assert dice_to_play((2, 2)) == (2, 2, 2, 2)
    assert dice_to_play((6, 1)) == (6, 1)
