"""GNU Backgammon's Match ID: cube, turn, dice, match length and score in 12 characters.

The 66 bits, least significant first: cube value as log2 (4 bits), cube owner
(2 bits: 0, 1, or 3 when centred), player on roll (1), Crawford game (1), game state
(3), player to act (1), double offered (1), resignation offered (2), the two dice
with the larger first (3 + 3), match length (15), the two scores (15 + 15), and one
bit set when the Jacoby rule is off.

>>> mid = MatchId.from_id("cAkFAAAAAAAA")
>>> mid.dice, mid.match_length, mid.cube_owner
((2, 1), 0, None)
>>> mid.to_id()
'cAkFAAAAAAAA'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .errors import ParseError

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64_VALUE = {ch: i for i, ch in enumerate(_BASE64)}
_MAX_SCORE = 0x7FFF

# (field offset, width) of each part of the key
_CUBE = (0, 4)
_OWNER = (4, 2)
_ON_ROLL = (6, 1)
_CRAWFORD = (7, 1)
_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGN = (13, 2)
_DIE_HIGH = (15, 3)
_DIE_LOW = (18, 3)
_LENGTH = (21, 15)
_SCORE0 = (36, 15)
_SCORE1 = (51, 15)
_NO_JACOBY = (66, 1)


class GameState(IntEnum):
    """GNU Backgammon's game states, as the Match ID stores them.

    >>> MatchId.from_id("cAkOAAAAAAAA").game_state
    <GameState.PLAYING: 1>
    """

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchId:
    """Everything a Match ID holds. ``cube_owner`` is ``None`` when the cube is centred.

    ``on_roll`` is the player whose turn it is; ``turn`` the player who must act now
    (the opponent when a double or resignation is offered). ``dice`` is ``(0, 0)``
    before rolling. ``resign`` is 0 (none), 1 (single), 2 (gammon), 3 (backgammon).
    ``match_length`` 0 is money play. ``jacoby`` is GNU Backgammon's Jacoby flag (it
    is always off in match play).

    >>> MatchId(match_length=7, score=(2, 4), on_roll=1, turn=1, dice=(5, 2)).to_id()
    'cInqACAAIAAE'
    >>> MatchId(cube_value=4, cube_owner=1, match_length=7, score=(2, 4), dice=(5, 2)).to_id()
    'EoHqACAAIAAE'
    """

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resign: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << 15:
            raise ParseError(f"cube value {value} is not a power of two up to 32768")
        if self.cube_owner not in (None, 0, 1):
            raise ParseError(f"cube owner {self.cube_owner!r} is not 0, 1 or None (centred)")
        if self.on_roll not in (0, 1) or self.turn not in (0, 1):
            raise ParseError("on_roll and turn are players 0 or 1")
        if not 0 <= self.resign <= 3:
            raise ParseError(f"resignation {self.resign} is not 0 to 3")
        if not all(0 <= d <= 6 for d in self.dice) or (0 in self.dice and self.dice != (0, 0)):
            raise ParseError(f"dice {self.dice} are not two dice 1 to 6 (or (0, 0) unrolled)")
        if not 0 <= self.match_length <= _MAX_SCORE:
            raise ParseError(f"match length {self.match_length} is out of range")
        for points in self.score:
            if not 0 <= points <= _MAX_SCORE:
                raise ParseError(f"score {points} is out of range")
            if self.match_length and points > self.match_length:
                raise ParseError(f"score {points} is beyond the match length {self.match_length}")
        if self.crawford and not self.match_length:
            raise ParseError("there is no Crawford game in money play")

    def to_id(self) -> str:
        """Encode as GNU Backgammon does.

        >>> MatchId().to_id()
        'MAEAAAAAAAAE'
        """
        high, low = max(self.dice), min(self.dice)
        fields = (
            (_CUBE, self.cube_value.bit_length() - 1),
            (_OWNER, 3 if self.cube_owner is None else self.cube_owner),
            (_ON_ROLL, self.on_roll),
            (_CRAWFORD, int(self.crawford)),
            (_STATE, int(self.game_state)),
            (_TURN, self.turn),
            (_DOUBLED, int(self.double_offered)),
            (_RESIGN, self.resign),
            (_DIE_HIGH, high),
            (_DIE_LOW, low),
            (_LENGTH, self.match_length),
            (_SCORE0, self.score[0]),
            (_SCORE1, self.score[1]),
            (_NO_JACOBY, int(not self.jacoby)),
        )
        key = 0
        for (offset, _width), value in fields:
            key |= value << offset
        data = key.to_bytes(9, "little")
        chars: list[str] = []
        for i in range(0, 9, 3):
            chunk = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2]
            chars.extend(_BASE64[(chunk >> shift) & 63] for shift in (18, 12, 6, 0))
        return "".join(chars)

    @classmethod
    def from_id(cls, match_id: str) -> MatchId:
        """Decode a Match ID; :class:`ParseError` when it is malformed or inconsistent.

        >>> MatchId.from_id("cAlvATAAIAAA").score
        (3, 4)
        >>> MatchId.from_id("not an id!!!")
        Traceback (most recent call last):
        ...
        matches.rules.errors.ParseError: 'not an id!!!' is not a Match ID: ' ' is not base64
        """
        text = match_id.strip()
        if len(text) != 12:
            raise ParseError(f"{match_id!r} is not a Match ID: expected 12 characters")
        try:
            values = [_BASE64_VALUE[ch] for ch in text]
        except KeyError as exc:
            raise ParseError(
                f"{match_id!r} is not a Match ID: {exc.args[0]!r} is not base64"
            ) from None
        data = bytearray()
        for i in range(0, 12, 4):
            chunk = (values[i] << 18) | (values[i + 1] << 12) | (values[i + 2] << 6) | values[i + 3]
            data += chunk.to_bytes(3, "big")
        key = int.from_bytes(data, "little")

        def get(field: tuple[int, int]) -> int:
            offset, width = field
            return (key >> offset) & ((1 << width) - 1)

        owner = get(_OWNER)
        state = get(_STATE)
        if owner == 2:
            raise ParseError(f"{match_id!r} is not a Match ID: cube owner 2 is undefined")
        if state > GameState.DROPPED:
            raise ParseError(f"{match_id!r} is not a Match ID: game state {state} is undefined")
        dice = (get(_DIE_HIGH), get(_DIE_LOW))
        try:
            return cls(
                cube_value=1 << get(_CUBE),
                cube_owner=None if owner == 3 else owner,
                on_roll=get(_ON_ROLL),
                crawford=bool(get(_CRAWFORD)),
                game_state=GameState(state),
                turn=get(_TURN),
                double_offered=bool(get(_DOUBLED)),
                resign=get(_RESIGN),
                dice=dice,
                match_length=get(_LENGTH),
                score=(get(_SCORE0), get(_SCORE1)),
                jacoby=not get(_NO_JACOBY),
            )
        except ParseError as exc:
            raise ParseError(f"{match_id!r} is not a Match ID: {exc.message}") from None
