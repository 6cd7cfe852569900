"""Dice: a roll is two dice from 1 to 6; a doublet is played four times.

>>> parse_roll("52")
(5, 2)
>>> dice_to_play((3, 3))
(3, 3, 3, 3)
"""

from __future__ import annotations

from .errors import BadDice, ParseError

Roll = tuple[int, int]

_ROLL_SEPARATORS = " -/,"


def check_roll(roll: Roll) -> None:
    """Raise :class:`BadDice` unless ``roll`` is two dice, each from 1 to 6.

    >>> check_roll((6, 1))
    >>> check_roll((7, 1))
    Traceback (most recent call last):
    ...
    matches.rules.errors.BadDice: 71 is not a roll: each die must be 1 to 6
    """
    if (
        not isinstance(roll, tuple)
        or len(roll) != 2
        or type(roll[0]) is not int
        or type(roll[1]) is not int
    ):
        raise BadDice(f"{roll!r} is not a roll: expected two dice")
    if not (1 <= roll[0] <= 6 and 1 <= roll[1] <= 6):
        raise BadDice(f"{roll[0]}{roll[1]} is not a roll: each die must be 1 to 6")


def parse_roll(text: str) -> Roll:
    """Read a roll written as two digits (``"52"``, also ``"5-2"`` or ``"5 2"``).

    Text that is not two digits is a :class:`ParseError`; two digits outside 1..6
    are :class:`BadDice`.

    >>> parse_roll(" 6-6 ")
    (6, 6)
    >>> parse_roll("70")
    Traceback (most recent call last):
    ...
    matches.rules.errors.BadDice: 70 is not a roll: each die must be 1 to 6
    >>> parse_roll("x")
    Traceback (most recent call last):
    ...
    matches.rules.errors.ParseError: 'x' is not a roll: expected two digits like 52
    """
    digits = text.strip()
    if len(digits) == 3 and digits[1] in _ROLL_SEPARATORS:
        digits = digits[0] + digits[2]
    if len(digits) != 2 or not digits.isascii() or not digits.isdigit():
        raise ParseError(f"{text!r} is not a roll: expected two digits like 52")
    roll = (int(digits[0]), int(digits[1]))
    check_roll(roll)
    return roll


def dice_to_play(roll: Roll) -> tuple[int, ...]:
    """The dice a roll lets the player move: two, or four for a doublet.

    >>> dice_to_play((5, 2))
    (5, 2)
    """
    a, b = roll
    if a == b:
        return (a, a, a, a)
    return (a, b)
