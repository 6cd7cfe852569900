"""GNU Backgammon's SGF match format (``save match FILE.sgf``): reader and writer.

A file is one game tree per game. The root node holds ``GM[6]``, the match info
``MI[length:7][game:0][ws:0][bs:0]``, the players ``PW`` (side 0) and ``PB``
(side 1), the rules ``RU[Crawford]``, automatic doubles ``CV[2]`` and the result
``RE[W+2]`` (``R`` at the end: resigned). Each later node is one action: ``W[52mhxv]``
(side 0 rolled 52 and moved the checkers between the lettered points),
``B[double]``, ``W[take]``, ``W[drop]``; ``PL[W]DI[52]`` is a roll the game was
resigned after. A beaver is written as a double by the doubled side. Letters ``a``
to ``x`` are points, ``y`` the bar and ``z`` off; side 0 counts ``a`` as its point
1, side 1 as its point 24. Analysis properties are ignored.

>>> text = "(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]RE[B+1R];W[21xwmk];B[drop])"
>>> record = read_sgf(text)
>>> record.games[0].actions
(RollPlay(side=0, dice=(2, 1), play='24/23 13/11', move=1), Drop(side=1, move=1), Win(side=1, points=1, move=1, resigned=True))
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .errors import ParseError, RulesError
from .generation import can_move
from .matfile import decode
from .notation import Play
from .position import Position
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
    truncated_at,
)

_RESULT = re.compile(r"([WB])\+(\d{1,9})(R?)", re.IGNORECASE)
_MOVE = re.compile(r"(\d)(\d)([a-z]*)")
_SIDES = {"W": 0, "B": 1}


@dataclass
class _Node:
    props: list[tuple[str, list[str]]] = field(default_factory=list)

    def get(self, name: str) -> list[str] | None:
        for ident, values in self.props:
            if ident == name:
                return values
        return None


@dataclass
class _Tree:
    nodes: list[_Node] = field(default_factory=list)
    children: list[_Tree] = field(default_factory=list)

    def main_line(self) -> list[_Node]:
        nodes = list(self.nodes)
        tree = self
        while tree.children:
            tree = tree.children[0]
            nodes.extend(tree.nodes)
        return nodes


class _Parser:
    """SGF's grammar: ``(`` nodes ``;PROP[value]...`` subtrees ``)``, several trees a file."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.cut = False  # the text ended inside a game tree (the last one)
        self.cut_in_move = False  # ... inside a node after the game's root

    def error(self, message: str) -> ParseError:
        line = self.text.count("\n", 0, self.pos) + 1
        return ParseError(f"line {line}: {message}")

    def skip_space(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos].isspace():
            self.pos += 1

    def collection(self) -> Iterator[_Tree]:
        """Each game tree in turn; a syntax error is raised when its tree is reached."""
        self.skip_space()
        if self.pos >= len(self.text):
            raise ParseError("not an SGF file: no game tree")
        while self.pos < len(self.text):
            if self.text[self.pos] != "(":
                raise self.error(f"expected '(' to start a game, found {self.text[self.pos]!r}")
            yield self.tree(0)
            self.skip_space()

    def tree(self, depth: int) -> _Tree:
        if depth > 50:
            raise self.error("game trees nested too deeply")
        self.pos += 1  # "("
        tree = _Tree()
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                self.cut = True  # the tree keeps the nodes read whole
                return tree
            ch = self.text[self.pos]
            if ch == ";":
                if tree.children:
                    raise self.error("a node cannot follow a variation")
                self.pos += 1
                node = self.node()
                if self.cut:
                    self.cut_in_move = bool(tree.nodes)
                    return tree  # the file ends inside this node: it is left out
                tree.nodes.append(node)
            elif ch == "(":
                tree.children.append(self.tree(depth + 1))
            elif ch == ")":
                self.pos += 1
                if not tree.nodes:
                    raise self.error("a game tree needs at least one node")
                return tree
            else:
                raise self.error(f"unexpected {ch!r} in a game tree")

    def node(self) -> _Node:
        node = _Node()
        text, n = self.text, len(self.text)
        while True:
            self.skip_space()
            start = self.pos
            while self.pos < n and text[self.pos].isalpha() and text[self.pos].isascii():
                self.pos += 1
            if self.pos >= n:
                self.cut = True  # the file ends inside the node
                return node
            if self.pos == start:
                return node
            ident = "".join(ch for ch in text[start : self.pos] if ch.isupper())
            values: list[str] = []
            self.skip_space()
            while self.pos < n and text[self.pos] == "[":
                values.append(self.value())
                if self.cut:
                    return node
                self.skip_space()
            if not values:
                raise self.error(f"property {text[start : self.pos]!r} has no value")
            node.props.append((ident, values))

    def value(self) -> str:
        self.pos += 1  # "["
        text, n = self.text, len(self.text)
        out: list[str] = []
        while self.pos < n:
            ch = text[self.pos]
            if ch == "\\":
                self.pos += 1
                if self.pos < n and text[self.pos] != "\n":
                    out.append(text[self.pos])
                self.pos += 1
                continue
            if ch == "]":
                self.pos += 1
                return "".join(out)
            out.append(ch)
            self.pos += 1
        self.cut = True  # the file ends inside this value
        return "".join(out)


def read_sgf(data: bytes | str) -> MatchRecord:
    """Read a GNU Backgammon SGF match; raise the first :class:`ParseError` in it.

    >>> read_sgf("(;GM[1])")
    Traceback (most recent call last):
    ...
    matches.rules.errors.ParseError: game 1 is not backgammon: GM[1] (backgammon is GM[6])
    """
    record = parse_sgf(data)
    error = record.first_error()
    if error is not None:
        raise error
    return record


def parse_sgf(data: bytes | str) -> MatchRecord:
    """Read an SGF match, keeping unreadable actions as :class:`Unreadable` in their game.

    >>> parse_sgf("(;GM[6]MI[length:3];W[52mh];AE[a])").games[0].actions[1].error.message
    'the position or cube was set by hand (AE): the game cannot be checked move by move'
    """
    parser = _Parser(decode(data))
    trees = parser.collection()
    games: list[GameRecord] = []
    length: int | None = None
    players: tuple[str, str] | None = None
    info: list[tuple[str, str]] = []
    rules: dict[str, bool] = {}
    ordinal = 0
    while True:
        ordinal += 1
        try:
            tree = next(trees, None)
            if tree is None:
                break
            nodes = tree.main_line()
            if not nodes:  # the file ends before the game's first node is whole
                if ordinal == 1:
                    raise truncated_at(1, 0)
                games.append(GameRecord(ordinal, None, cut_at=0))
                break
            root = nodes[0]
            mi = _root_info(root, ordinal, length)
        except ParseError as exc:
            if ordinal == 1:
                raise
            # a later game that cannot be read: the games before it are still checked
            exc.located(game=ordinal)
            games.append(GameRecord(ordinal, None, error=exc))
            break
        length = mi.get("length", 0)
        names = (_text(root, "PW"), _text(root, "PB"))
        players = players or names
        if ordinal == 1:
            for ident, key in (
                ("EV", "Event"),
                ("RO", "Round"),
                ("PC", "Site"),
                ("DT", "EventDate"),
            ):
                value = _text(root, ident)
                if value:
                    info.append((key, value))
        for rule in (root.get("RU") or [""])[0].split(":"):
            if rule in ("Crawford", "Jacoby"):
                rules[rule.lower()] = True
        if length and "crawford" not in rules:
            rules["crawford"] = False
        games.append(_game(ordinal, mi, names, nodes))
    last = games[-1]
    if last.score is not None and (parser.cut or not any(isinstance(a, Win) for a in last.actions)):
        # the file ends before the game's result; when it stops inside a node after the
        # root, it stops in the move list (at its first move at the earliest)
        games[-1] = replace(last, cut_at=last.last_move or int(parser.cut_in_move))
    assert length is not None
    assert players is not None
    return MatchRecord(length, players, tuple(games), tuple(info), tuple(sorted(rules.items())))


def _root_info(root: _Node, ordinal: int, length: int | None) -> dict[str, int]:
    """The root node's match info, checked: a backgammon game of the match's length."""
    gm = root.get("GM")
    if gm is None or gm[0].strip() != "6":
        shown = f"GM[{gm[0]}]" if gm else "no GM property"
        raise ParseError(f"game {ordinal} is not backgammon: {shown} (backgammon is GM[6])")
    mi = _match_info(root, ordinal)
    game_length = mi.get("length", 0)
    if length is not None and game_length != length:
        raise ParseError(
            f"game {ordinal} is from a {game_length}-point match, not {length}", game=ordinal
        )
    return mi


def _text(node: _Node, ident: str) -> str:
    values = node.get(ident)
    return " ".join(values[0].split()) if values else ""


def _match_info(root: _Node, ordinal: int) -> dict[str, int]:
    mi: dict[str, int] = {}
    for value in root.get("MI") or []:
        key, _, number = value.partition(":")
        if key in ("length", "game", "ws", "bs"):
            if not number.strip().isdigit() or len(number.strip()) > 9:
                raise ParseError(f"game {ordinal}: MI[{value}] needs a number", game=ordinal)
            mi[key] = int(number)
    return mi


def _points(letters: str, side: int) -> list[int]:
    """The points (mover's numbering, 25 bar, 0 off) that SGF letters stand for."""
    points = []
    for ch in letters:
        if ch == "y":
            points.append(25)
        elif ch == "z":
            points.append(0)
        elif "a" <= ch <= "x":
            index = ord(ch) - ord("a")
            points.append(index + 1 if side == 0 else 24 - index)
        else:
            raise ParseError(f"{ch!r} is not an SGF point (a-x, y bar, z off)")
    return points


def _game(
    ordinal: int, mi: dict[str, int], names: tuple[str, str], nodes: list[_Node]
) -> GameRecord:
    number = mi.get("game", ordinal - 1) + 1
    score = (mi.get("ws", 0), mi.get("bs", 0))
    actions: list[Action] = []
    autos: int | None = 0
    cells = 0  # as the .mat export would lay them out: even = left, odd = right column

    def place(side: int) -> int:
        nonlocal cells
        if side != cells % 2:
            cells += 1
        move = cells // 2 + 1
        cells += 1
        return move

    cv = nodes[0].get("CV")
    if cv is not None:
        value = cv[0].strip()
        if (
            value.isdigit()
            and len(value) < 10
            and int(value) & (int(value) - 1) == 0
            and int(value)
        ):
            autos = int(value).bit_length() - 1
        else:
            actions.append(Unreadable(ParseError(f"CV[{value}] is not a cube value")))
    for node in nodes:
        for ident, values in node.props:
            if ident in ("B", "W"):
                side = _SIDES[ident]
                actions.append(_move(values[0].strip(), side, place))
                break
            if ident == "DI":
                pl = node.get("PL")
                side = _SIDES.get((pl or [""])[0].strip().upper(), -1)
                matched = re.fullmatch(r"(\d)(\d)", values[0].strip())
                if side < 0 or matched is None:
                    actions.append(
                        Unreadable(ParseError(f"DI[{values[0]}] without a side or dice"))
                    )
                else:
                    dice = (int(matched.group(1)), int(matched.group(2)))
                    actions.append(RollPlay(side, dice, "", place(side)))
                break
            if ident in ("AE", "AB", "AW") or (ident in ("CV", "CP") and node is not nodes[0]):
                last = actions[-1].move if actions else None
                actions.append(
                    Unreadable(
                        ParseError(
                            f"the position or cube was set by hand ({ident}): "
                            "the game cannot be checked move by move"
                        ),
                        move=last,
                    )
                )
                break
    result = nodes[0].get("RE")
    if result is not None:
        matched = _RESULT.fullmatch(result[0].strip())
        last = actions[-1].move if actions else None
        if matched is None:
            actions.append(
                Unreadable(
                    ParseError(f"RE[{result[0]}] is not a result like W+2 or B+1R"), move=last
                )
            )
        else:
            side = _SIDES[matched.group(1).upper()]
            actions.append(Win(side, int(matched.group(2)), last, bool(matched.group(3))))
    return GameRecord(number, score, tuple(actions), names, autos)


def _move(value: str, side: int, place: object) -> Action:
    assert callable(place)
    word = value.lower()
    if word in ("double", "beaver", "raccoon"):
        return Double(side, None, place(side))
    if word == "take":
        return Take(side, place(side))
    if word == "drop":
        return Drop(side, place(side))
    matched = _MOVE.fullmatch(word)
    if matched is None or len(matched.group(3)) % 2 or len(matched.group(3)) > 8:
        return Unreadable(ParseError(f"{value!r} is not an SGF move like 52mhxv"), side=side)
    move: int = place(side)
    try:
        points = _points(matched.group(3), side)
    except ParseError as exc:
        return Unreadable(exc, move=move, side=side)
    play = " ".join(f"{points[k]}/{points[k + 1]}" for k in range(0, len(points), 2))
    return RollPlay(side, (int(matched.group(1)), int(matched.group(2))), play, move)


# -- writing ---------------------------------------------------------------------------


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _letters(play: str, side: int) -> str:
    out = []
    for move in Play.parse(play).moves:
        for point in (move.src, move.dst):
            if point == 25:
                out.append("y")
            elif point == 0:
                out.append("z")
            else:
                out.append(chr(ord("a") + point - 1) if side == 0 else chr(ord("a") + 24 - point))
    return "".join(out)


def write_sgf(record: MatchRecord, *, application: str = "backgammon-director") -> str:
    """The match as GNU Backgammon SGF, one game tree per game.

    >>> from matches.rules.record import GameRecord, RollPlay, Win
    >>> game = GameRecord(1, (0, 0), (RollPlay(1, (2, 1), "13/11 24/23"), Win(1, 1)))
    >>> print(write_sgf(MatchRecord(1, ("Ann", "Bo"), (game,))), end="")
    (;FF[4]GM[6]CA[UTF-8]AP[backgammon-director]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bo]RE[B+1R]
    ;B[21lnab])
    """
    info = dict(record.info)
    rules = dict(record.rules)
    out: list[str] = []
    for index, game in enumerate(record.games):
        names = game.players or record.players
        score = game.score or (0, 0)
        head = [
            f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(application)}]",
            f"MI[length:{record.length}][game:{index}][ws:{score[0]}][bs:{score[1]}]",
            f"PW[{_escape(names[0])}]PB[{_escape(names[1])}]",
        ]
        if index == 0:
            for ident, key in (
                ("DT", "EventDate"),
                ("EV", "Event"),
                ("RO", "Round"),
                ("PC", "Site"),
            ):
                if info.get(key):
                    head.append(f"{ident}[{_escape(info[key])}]")
        flags = [
            name for name, key in (("Crawford", "crawford"), ("Jacoby", "jacoby")) if rules.get(key)
        ]
        if flags:
            head.append(f"RU[{':'.join(flags)}]")
        if game.auto_doubles:
            head.append(f"CV[{1 << game.auto_doubles}]")
        body: list[str] = []
        pos: Position | None = Position.start()  # None once a play cannot be made
        dropped = any(isinstance(a, Drop) for a in game.actions)
        rolls = [a for a in game.actions if isinstance(a, RollPlay)]
        last_roll = rolls[-1] if rolls else None
        for action in game.actions:
            letter = "WB"[action.side] if action.side in (0, 1) else "W"
            if isinstance(action, Win):
                resigned = action.resigned
                if resigned is None:
                    resigned = not dropped and pos is not None and not _over(pos)
                flag = "R" if resigned else ""
                head.append(f"RE[{letter}+{action.points}{flag}]")
            elif isinstance(action, RollPlay):
                dice = f"{action.dice[0]}{action.dice[1]}"
                if action.play.strip():
                    body.append(f";{letter}[{dice}{_letters(action.play, action.side)}]")
                    pos = _after(pos, action)
                elif action is last_roll and pos is not None and _unplayed(pos, action):
                    body.append(f";PL[{letter}]DI[{dice}]")
                else:
                    body.append(f";{letter}[{dice}]")
            elif isinstance(action, (Double, Beaver, Raccoon)):
                body.append(f";{letter}[double]")
            elif isinstance(action, Take):
                body.append(f";{letter}[take]")
            elif isinstance(action, Drop):
                body.append(f";{letter}[drop]")
            else:
                raise ParseError(f"{action!r} cannot be written to SGF")
        out.append("".join(head) + "".join(f"\n{node}" for node in body) + ")\n")
    return "".join(out)


def _after(pos: Position | None, action: RollPlay) -> Position | None:
    """The position after the play, or ``None`` if it cannot be made (the record is written as is)."""
    if pos is None:
        return None
    try:
        return pos.apply(action.side, Play.parse(action.play))
    except RulesError:
        return None


def _over(pos: Position) -> bool:
    return pos.off(0) == 15 or pos.off(1) == 15


def _unplayed(pos: Position, action: RollPlay) -> bool:
    try:
        return can_move(pos, action.side, action.dice)
    except ParseError:
        return False
    except ValueError:
        return False
