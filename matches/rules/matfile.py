"""The ``.mat`` match format, as GNU Backgammon and eXtreme Gammon export it.

A file is optional header comments (``; [Site "..."]``), a `` N point match`` line
(0 for a money session) and games::

     Game 1
     Alice : 0                      Bob : 0
      1)                             21: 13/11 24/23
      2) 52: 13/8 24/22               Doubles => 2
      3)  Drops                       Wins 1 point

Each move line holds side 0's action in the left column and side 1's in the right
one (gnubg's right column starts at character 33, XG's at 38; anything starting
past character 15 is read as the right column). A roll with nothing after it is a
dance, or a roll after which the game was resigned. Bar and off may be written
``25/22`` and ``6/0`` (gnubg) or ``bar/22`` and ``6/off`` (XG). The text may be
UTF-8 with or without a byte-order mark, with CRLF or LF line ends.

>>> record = read_mat(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 21: 13/11 6/5   65: 24/13\\n")
>>> record.players, record.games[0].actions[1]
(('A', 'B'), RollPlay(side=1, dice=(6, 5), play='24/13', move=1))
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from .errors import ParseError
from .record import (
    Action,
    Beaver,
    Double,
    Drop,
    GameRecord,
    MatchRecord,
    Raccoon,
    RollPlay,
    Take,
    Unreadable,
    Win,
)

RIGHT_COLUMN = 15
"""An action starting at this character or later belongs to the right column (side 1)."""

_MATCH_LINE = re.compile(r"\s*(\d{1,6})\s+point\s+match\b.*", re.IGNORECASE)
_GAME_LINE = re.compile(r"\s*Game\s+(\d{1,6})\s*", re.IGNORECASE)
_SCORE_LINE = re.compile(
    r"\s*(?P<a>\S.*?)\s*:\s*(?P<sa>\d{1,9})\s+(?P<b>\S.*?)\s*:\s*(?P<sb>\d{1,9})\s*"
)
_HEADER_TAG = re.compile(r'\[\s*([^\]"]+?)\s+"(.*)"\s*\]')
_DIGITS = frozenset("0123456789")
_NUMBER = re.compile(r"[0-9]{1,9}")
_LINE_END = re.compile(r"\r\n|\r|\n")
_RULE_TAGS = {"crawford": "crawford", "jacoby": "jacoby", "beaver": "beavers"}


def decode(data: bytes | str) -> str:
    """Text of a match file: UTF-8 (a byte-order mark is dropped), else Latin-1.

    >>> decode(b"\\xef\\xbb\\xbf 3 point match")
    ' 3 point match'
    >>> decode(b"Z\\xf6e")
    'Zöe'
    """
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_mat(data: bytes | str) -> MatchRecord:
    """Read a ``.mat`` file; raise the first :class:`ParseError` in it.

    >>> read_mat("7 point match\\n Game 1\\n A : 0  B : 0\\n  1) 21: 13/11 6/5   xyz\\n")
    Traceback (most recent call last):
    ...
    matches.rules.errors.ParseError: line 4: cannot read 'xyz'
    """
    record = parse_mat(data)
    error = record.first_error()
    if error is not None:
        raise error
    return record


def parse_mat(data: bytes | str) -> MatchRecord:
    """Read a ``.mat`` file, keeping unreadable places in the games as :class:`Unreadable`.

    Only a file without a ``point match`` line or without games raises at once; a
    game whose text cannot be read carries the error at the place it occurs, so
    that a checker reports problems in reading order.

    >>> game = parse_mat(" 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5  ?x\\n").games[0]
    >>> game.actions[1].error.message
    "line 4: cannot read '?x'"
    """
    text = decode(data)
    lines = _LINE_END.split(text)
    info: list[tuple[str, str]] = []
    rules: list[tuple[str, bool]] = []
    length: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        i += 1
        if not stripped:
            continue
        if stripped[0] in ";#":
            _read_comment(stripped[1:], info, rules)
            continue
        matched = _MATCH_LINE.fullmatch(line)
        if matched is None:
            raise ParseError(f"line {i}: expected ' N point match', found {_show(stripped)}")
        length = int(matched.group(1))
        break
    if length is None:
        raise ParseError("not a .mat file: no ' N point match' line")
    games = list(_read_games(lines, i))
    if not games:
        raise ParseError("the file holds no games (no ' Game 1' line)")
    last = games[-1]
    cut_line: str | None = None
    if not text.endswith(("\n", "\r")) and len(lines) > i + 1 and _unfinished(last):
        # the file stops in the middle of its last line: that line is not read
        cut_line = lines.pop()
        games = list(_read_games(lines, i)) or games
        last = games[-1]
    if cut_line is not None or last.score is None or not _has_result(last):
        games[-1] = replace(last, cut_at=_cut_move(last, cut_line))
    first = games[0].players or ("", "")
    return MatchRecord(length, first, tuple(games), tuple(info), tuple(rules))


def _has_result(game: GameRecord) -> bool:
    return any(isinstance(a, Win) for a in game.actions)


def _unfinished(game: GameRecord) -> bool:
    """Whether a game has no ``Wins`` line, or ends in text that cannot be read."""
    return not _has_result(game) or bool(game.actions and isinstance(game.actions[-1], Unreadable))


def _cut_move(game: GameRecord, cut_line: str | None) -> int:
    """The move where the file stops inside ``game``: the cut line's own number if it
    shows one, else the last move line read (0: the game's header).

    >>> _cut_move(GameRecord(1, (0, 0)), "  7) 21: 13/1")
    7
    """
    if game.score is None:
        return 0
    if cut_line is not None:
        number, close, _ = cut_line.partition(")")
        if close and number.strip().isdigit() and len(number) < 12:
            return int(number)
    return game.last_move


def _show(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _read_comment(text: str, info: list[tuple[str, str]], rules: list[tuple[str, bool]]) -> None:
    matched = _HEADER_TAG.fullmatch(text.strip())
    if matched is None:
        return
    key, value = matched.group(1), matched.group(2)
    info.append((key, value))
    rule = _RULE_TAGS.get(key.lower())
    if rule is not None and value.lower() in ("on", "off"):
        rules.append((rule, value.lower() == "on"))


def _read_games(lines: list[str], start: int) -> Iterator[GameRecord]:
    """Each game from its `` Game N`` line to the next one."""
    i = start
    n = len(lines)
    while i < n:
        line = lines[i]
        i += 1
        stripped = line.strip()
        if not stripped or stripped[0] in ";#":
            continue
        matched = _GAME_LINE.fullmatch(line)
        if matched is None:
            raise ParseError(f"line {i}: expected ' Game N', found {_show(stripped)}")
        number = int(matched.group(1))
        body_start = i
        while i < n and _GAME_LINE.fullmatch(lines[i]) is None:
            i += 1
        yield _read_game(number, lines, body_start, i)


def _read_game(number: int, lines: list[str], start: int, end: int) -> GameRecord:
    i = start
    while i < end and not lines[i].strip():
        i += 1
    if i >= end:
        error = ParseError(f"line {start}: game {number} has no score line")
        return GameRecord(number, None, error=error)
    matched = _SCORE_LINE.fullmatch(lines[i])
    if matched is None:
        error = ParseError(
            f"line {i + 1}: expected the score line 'Name : score   Name : score', "
            f"found {_show(lines[i].strip())}"
        )
        return GameRecord(number, None, error=error)
    players = (" ".join(matched.group("a").split()), " ".join(matched.group("b").split()))
    score = (int(matched.group("sa")), int(matched.group("sb")))
    actions: list[Action] = []
    last_move: int | None = None
    for k in range(i + 1, end):
        line = lines[k]
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            if stripped[1:].lstrip().lower().startswith("set pos"):
                actions.append(
                    Unreadable(
                        ParseError(
                            f"line {k + 1}: the position was set by hand ('; Set Pos'): "
                            "the game cannot be checked move by move"
                        ),
                        move=last_move,
                    )
                )
            continue
        move, line_actions = _read_move_line(line, k + 1, last_move)
        last_move = move
        actions.extend(line_actions)
    return GameRecord(number, score, tuple(actions), players)


def _read_move_line(
    line: str, line_no: int, last_move: int | None
) -> tuple[int | None, list[Action]]:
    """The move number and the actions of one move line, left column first."""
    text = line.expandtabs(8) if "\t" in line else line
    move = last_move
    offset = 0
    close = text.find(")", 0, 12)
    if close > 0:
        digits = text[:close].strip()
        if digits.isascii() and digits.isdigit():
            move = int(digits)
            offset = close + 1
    tokens = text[offset:].split()
    columns = []
    pos = offset
    for token in tokens:
        pos = text.index(token, pos)
        columns.append(pos)
        pos += len(token)
    actions: list[Action] = []
    last_side = 0
    j = 0
    n = len(tokens)
    while j < n:
        side = 0 if columns[j] < RIGHT_COLUMN else 1
        if side < last_side:
            error = ParseError(
                f"line {line_no}: {tokens[j]!r} is left of the right column's action"
            )
            actions.append(Unreadable(error, move=move, side=side))
            break
        last_side = side
        action, j = _read_action(tokens, j, side, move, line_no)
        if action is not None:
            actions.append(action)
            if isinstance(action, Unreadable):
                break
    return move, actions


def _is_roll(token: str) -> bool:
    return len(token) == 3 and token[2] == ":" and token[0] in _DIGITS and token[1] in _DIGITS


def _read_action(
    tokens: list[str], j: int, side: int, move: int | None, line_no: int
) -> tuple[Action | None, int]:
    """The action starting at token ``j`` and the index of the token after it."""
    token = tokens[j]
    n = len(tokens)
    if _is_roll(token):
        dice = (int(token[0]), int(token[1]))
        j += 1
        moves: list[str] = []
        while j < n:
            nxt = tokens[j]
            if "/" in nxt:
                moves.append(nxt.lower())
            elif not nxt.strip("?"):
                pass  # XG writes ??? for a roll after which the game was resigned
            else:
                low = nxt.lower()
                if low == "cannot" and j + 1 < n and tokens[j + 1].lower() == "move":
                    j += 1  # XG: "Cannot Move" for a dance
                elif low == "illegal":
                    message = f"line {line_no}: illegal plays recorded as such cannot be checked"
                    return _bad(message, move, side)
                else:
                    break
            j += 1
        return RollPlay(side, dice, " ".join(moves), move), j
    word = token.lower()
    if word.startswith(("double", "beaver", "raccoon")):
        value: int | None = None
        j += 1
        if j < n and tokens[j] == "=>":
            j += 1
            if j >= n or _NUMBER.fullmatch(tokens[j]) is None:
                return _bad(f"line {line_no}: {token} => needs the cube value", move, side)
            value = int(tokens[j])
            j += 1
        if word.startswith("double"):
            return Double(side, value, move), j
        if word.startswith("beaver"):
            return Beaver(side, value, move), j
        return Raccoon(side, value, move), j
    if word in ("takes", "take", "accepts"):
        return Take(side, move), j + 1
    if word in ("drops", "drop", "passes", "pass", "rejects"):
        return Drop(side, move), j + 1
    if word in ("resigns", "resign"):
        return None, j + 1
    if word in ("wins", "win"):
        j += 1
        if j >= n or _NUMBER.fullmatch(tokens[j]) is None:
            return _bad(f"line {line_no}: 'Wins' needs a number of points", move, side)
        points = int(tokens[j])
        j += 1
        if j < n and tokens[j].lower() in ("point", "points"):
            j += 1
        if [t.lower() for t in tokens[j : j + 3]] == ["and", "the", "match"]:
            j += 3
        return Win(side, points, move), j
    return _bad(f"line {line_no}: cannot read {token!r}", move, side)


def _bad(message: str, move: int | None, side: int) -> tuple[Action, int]:
    return Unreadable(ParseError(message), move=move, side=side), 1 << 30


# -- writing ---------------------------------------------------------------------------


def write_mat(record: MatchRecord) -> str:
    """The match in GNU Backgammon's ``.mat`` layout.

    >>> from matches.rules.record import GameRecord, RollPlay, Win
    >>> game = GameRecord(1, (0, 0), (RollPlay(1, (2, 1), "13/11 24/23"), Win(1, 1)))
    >>> print(write_mat(MatchRecord(1, ("Ann", "Bo"), (game,))), end="")
    <BLANKLINE>
     1 point match
    <BLANKLINE>
     Game 1
     Ann : 0                        Bo : 0
      1)                             21: 13/11 24/23
                                      Wins 1 point
    <BLANKLINE>
    """
    out: list[str] = [f'; [{key} "{value}"]' for key, value in record.info]
    out += ["", f" {record.length} point match", ""]
    for game in record.games:
        names = game.players or record.players
        score = game.score or (0, 0)
        out.append(f" Game {game.number}")
        left = f"{names[0]} : {score[0]}"
        # gnubg pads with printf's %-31s, which counts bytes, not characters
        pad = " " * max(0, 31 - len(left.encode("utf-8")))
        out.append(f" {left}{pad}{names[1]} : {score[1]}")
        out.extend(_game_lines(game))
        out.append("")
    return "\n".join(out) + "\n"


def _cell(action: Action, cube: int) -> str:
    if isinstance(action, RollPlay):
        text = f"{action.dice[0]}{action.dice[1]}:"
        return f"{text} {' '.join(action.play.split())}" if action.play.strip() else text
    if isinstance(action, Double):
        return f" Doubles => {action.value or cube}"
    if isinstance(action, Beaver):
        return f" Beavers => {action.value or cube}"
    if isinstance(action, Raccoon):
        return f" Raccoons => {action.value or cube}"
    if isinstance(action, Take):
        return " Takes"
    if isinstance(action, Drop):
        return " Drops"
    raise ParseError(f"{action!r} cannot be written to a .mat file")


def _game_lines(game: GameRecord) -> list[str]:
    lines: list[str] = []
    cube = 1 << (game.auto_doubles or 0)
    i = 0  # cells written: even = left column next, odd = right column next
    current = ""
    for action in game.actions:
        if isinstance(action, Win):
            plural = "" if action.points == 1 else "s"
            wins = f"Wins {action.points} point{plural}"
            if i % 2 and action.side == 1:  # beside side 0's last action, as gnubg does
                lines.append(f"{current} {wins}")
            else:
                if i % 2:
                    lines.append(current.rstrip())
                lines.append(f"{'':<{6 if action.side == 0 else 34}}{wins}")
            i += i % 2
            continue
        if isinstance(action, (Double, Beaver, Raccoon)):
            cube *= 2
        cell = _cell(action, cube)
        if action.side != i % 2:  # leave the other column empty
            if i % 2:
                lines.append(current.rstrip())
            else:
                current = f"{i // 2 + 1:3d}) {'':<27} "
            i += 1
        if i % 2 == 0:
            current = f"{i // 2 + 1:3d}) {cell:<27} "
        else:
            lines.append((current + cell).rstrip())
        i += 1
    if i % 2:
        lines.append(current.rstrip())
    return lines
