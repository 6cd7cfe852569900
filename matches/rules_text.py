"""The rules engine's refusals in the reader's language, translated at the door.

The engine (:mod:`matches.rules`) is pure Python: it imports no Django and writes each
refusal in English, with a stable ``code``. Here every message it can write is listed
as a template with its parameters (``side {side} cannot double: side {owner} owns the
cube``); :func:`translated` finds the template a message was written from, reads its
parameters back out of it, and writes the template's translation with them. A
parameter that is itself an engine message or a word of the game (``gammon``,
``take``) is translated too. The ``code`` stays English; a message no template knows is
shown as written (``tests/i18n`` checks that every message of the engine has one).
"""

from __future__ import annotations

import functools
import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

#: Every message the engine writes for a report, by the English it is written in.
TEMPLATES: tuple[str, ...] = (
    # cube.py
    gettext_noop("a cube value must be a power of two, not {value}"),
    gettext_noop("the cube owner must be side 0, side 1 or none: {owner}"),
    gettext_noop("side {side} cannot double: a {kind} by side {by} is waiting for an answer"),
    gettext_noop("no double may be offered in the Crawford game"),
    gettext_noop("side {side} cannot double: side {owner} owns the cube"),
    gettext_noop(
        "Holland rule: side {side} may not double before playing two rolls in this "
        "post-Crawford game (has played {rolls})"
    ),
    gettext_noop("side {side} cannot {action}: no double was offered"),
    gettext_noop("side {side} cannot {action} its own {kind}: side {other} answers it"),
    gettext_noop("side {side} cannot beaver a {kind}: only a double can be beavered"),
    gettext_noop("beavers are not allowed in match play"),
    gettext_noop("beavers are not allowed in this session"),
    gettext_noop("side {side} cannot raccoon a {kind}: only a beaver can be raccooned"),
    gettext_noop("raccoons are not allowed in match play"),
    gettext_noop("raccoons are not allowed in this session"),
    gettext_noop("automatic doubles are not allowed in match play"),
    gettext_noop("no more automatic doubles: the limit is {limit} a game"),
    gettext_noop("automatic doubles happen only before the first move"),
    # dice.py
    gettext_noop("{roll} is not a roll: expected two dice"),
    gettext_noop("{roll} is not a roll: each die must be 1 to 6"),
    gettext_noop("{text} is not a roll: expected two digits like 52"),
    # match.py
    gettext_noop(
        "the match is already over ({score1}-{score2} in a {length}-point match): game "
        "{game} cannot be played"
    ),
    gettext_noop("the rules are for a {length}-point match, the state for {other}"),
    gettext_noop("the winner is side 0 or side 1, not {winner}"),
    gettext_noop("a game ended by a drop is a single game, not a {result}"),
    gettext_noop(
        "{points} points reported, but a {result} with the cube at {cube} under the Jacoby "
        "rule is worth {worth}"
    ),
    gettext_noop(
        "{points} points reported, but a {result} with the cube at {cube} is worth {worth}"
    ),
    gettext_noop("automatic doubles are 0 or more, not {count}"),
    gettext_noop("the game ended by a drop, but no reported double was dropped"),
    gettext_noop("the cube is reported at {cube}, but the reported doubles leave it at {value}"),
    gettext_noop(
        "the cube is reported at {cube}, but no double was reported: that leaves it at {value}"
    ),
    gettext_noop(
        "the doubles' turns are impossible: each double comes at the start of the doubler's "
        "own turn, later than the one before"
    ),
    gettext_noop("a match length is 0 (money) or more, not {length}"),
    gettext_noop("the automatic-double limit is 0 or more, not {limit}"),
    gettext_noop("raccoons need beavers"),
    gettext_noop("a match state needs a starting score"),
    gettext_noop(
        "the match is over ({score1}-{score2} in a {length}-point match): no game {game} may "
        "be played"
    ),
    gettext_noop("the winner is side 0 or 1, not {winner}"),
    gettext_noop("a game is worth 1 point or more, not {points}"),
    gettext_noop("a game cannot end by a drop in the Crawford game: no double may be offered"),
    gettext_noop("no double may be offered in the Crawford game: its cube stays at 1, not {cube}"),
    gettext_noop(
        "the cube is reported at {cube}, but {count} automatic doubles put it at {value} "
        "before the first move"
    ),
    gettext_noop("double {number}: 'by' is side 0 or 1, not {by}"),
    gettext_noop("double {number}: 'turn' is 0 or more, not {turn}"),
    gettext_noop("{options} are money-play options: not allowed in a {length}-point match"),
    gettext_noop("a score is two counts of 0 or more, not {score}"),
    gettext_noop("double {number}: response {response} is not take, drop, beaver or raccoon"),
    gettext_noop("double {number} was dropped, which ends the game, but more doubles are reported"),
    gettext_noop("double {number} was dropped, so the game ended by a drop, not by {ended_by}"),
    gettext_noop("side {side} dropped side {other}'s double, so side {winner} won"),
    gettext_noop("the game ended by a drop, but the last double was taken"),
    gettext_noop("side {side} dropped side {other}'s beaver, so side {winner} won"),
    gettext_noop("side {side} dropped side {other}'s raccoon, so side {winner} won"),
    # outcome.py
    gettext_noop("{points} points is not the cube ({cube}) times 1, 2 or 3"),
    gettext_noop("cube value {cube} is not a power of two"),
    gettext_noop("{text} is not a result: expected single, gammon or backgammon"),
    gettext_noop("{text} is not how a game ends: expected play, drop or resign"),
    # notation.py
    gettext_noop("cannot read {token}"),
    gettext_noop("{text} needs a from and a to point, like 13/9"),
    gettext_noop("{text} is not a play: expected text"),
    gettext_noop("{token}: a move is repeated 1 to 4 times"),
    gettext_noop("misplaced '*' in {text}"),
    gettext_noop("{text}: a checker cannot move to the bar"),
    gettext_noop("{text}: a move cannot start off the board"),
    gettext_noop("{text}: nothing can be hit off the board"),
    gettext_noop("{text} does not move towards home"),
    gettext_noop("{src}/{dst} is not a move: points run 25 (bar) to 0 (off)"),
    gettext_noop("{src}/{dst} moves backwards: a checker moves from a higher point to a lower one"),
    gettext_noop("{text} is not a play: {reason}"),
    gettext_noop("{name} is not a point"),
    # play_check.py and steps.py
    gettext_noop("{play} is not legal for {roll}: its moves need more than the {roll2} dice"),
    gettext_noop("{move} is not legal: {reason}"),
    gettext_noop("must enter from the bar first ({move} is not legal)"),
    gettext_noop("a move is possible: {play}"),
    gettext_noop("{play} is not legal for {roll}"),
    gettext_noop("{roll} is not a roll"),
    gettext_noop("must use both dice: {play} is possible"),
    gettext_noop("{play} is not legal"),
    gettext_noop(
        "{play} is ambiguous for {roll}: it hits on the way; write the hit, like 24/21*/16"
    ),
    gettext_noop("must play the larger die ({die}): {play} is possible"),
    gettext_noop("must play {count} of the four {die}s, not {played}: {play} is possible"),
    gettext_noop("no checker on {point}"),
    gettext_noop("must enter from the bar first"),
    gettext_noop("cannot bear off while checkers are outside the home board"),
    gettext_noop("point {point} is blocked"),
    gettext_noop("bearing off from {point} with a {die} while a checker is on {higher}"),
    # position.py
    gettext_noop("a position needs two boards, one per side"),
    gettext_noop("side {side}'s board must be a tuple of 25 counts (24 points, bar)"),
    gettext_noop("side {side} has {count} checkers on the board: at most 15"),
    gettext_noop("both sides hold side 0's point {point} (side 1's point {other})"),
    gettext_noop("{text} is not a Position ID: expected 14 characters"),
    gettext_noop("{text} is not a Position ID: more than 15 checkers a side"),
    gettext_noop("{text} is not a Position ID: both sides on the bar against closed boards"),
    gettext_noop("side {side} has a bad checker count {count}"),
    gettext_noop("{play} cannot be played: {reason}"),
    gettext_noop("{text} is not a Position ID: {value} is not base64"),
    gettext_noop("{text} is not a Position ID: {reason}"),
    # record.py
    gettext_noop(
        "the file ends inside game {game}, at move {move}: the game is cut off before its result"
    ),
    gettext_noop(
        "game {game} comes after the end of the match ({score1}-{score2} in a {length}-point match)"
    ),
    gettext_noop(
        "game {game} says the score is {score1}-{score2}, but the match stands at "
        "{stands1}-{stands2}"
    ),
    gettext_noop(
        "game {game} stops at move {move} before it is over: no one has borne off all 15 "
        "checkers, dropped or resigned"
    ),
    gettext_noop("the cube is offered at {value}, but it stands at {stands}"),
    gettext_noop("the game stops before the last checker is off, without a drop or a resignation"),
    gettext_noop(
        "Wins {points}: under the Jacoby rule, with the cube never turned, a resignation is "
        "worth {worth}"
    ),
    gettext_noop("the game's score line cannot be read"),
    gettext_noop("side {winner} bore off all 15 checkers, but side {side} is said to win"),
    gettext_noop("the game was played out, not resigned"),
    gettext_noop("Wins {points}: a {result} with the cube at {cube} is worth {worth}"),
    gettext_noop("side {winner} dropped, but side {side} is said to win"),
    gettext_noop("Wins {points}: a dropped double with the cube at {cube} is worth {worth}"),
    gettext_noop("Wins {points}: a resigned game is worth the cube ({cube}) times 1, 2 or 3"),
    gettext_noop(
        "game {game} is between {name1} and {name2}, not the file's players {player1} and {player2}"
    ),
    gettext_noop("nothing may follow the game's result"),
    gettext_noop("{roll} was rolled but not played, and a move was possible"),
    gettext_noop("the game was already over (ended by {ended_by}): nothing may follow"),
    gettext_noop(
        "the opening roll cannot be a doublet ({roll}): equal opening throws are thrown again"
    ),
    gettext_noop("side {side} rolled on side {other}'s turn"),
    gettext_noop("side {side} rolled while side {other}'s {kind} awaited an answer"),
    gettext_noop("side {side} doubled before the opening roll was played"),
    gettext_noop("side {side} doubled on side {other}'s turn"),
    # matches.services.reporting (a whole match against its reported score)
    gettext_noop("the games add up to {score1}-{score2}, not the reported {reported1}-{reported2}"),
    # matfile.py
    gettext_noop("line {line}: cannot read {token}"),
    gettext_noop("not a .mat file: no ' N point match' line"),
    gettext_noop("the file holds no games (no ' Game 1' line)"),
    gettext_noop("line {line}: game {game} has no score line"),
    gettext_noop(
        "line {line}: expected the score line 'Name : score   Name : score', found {found}"
    ),
    gettext_noop("line {line}: expected ' N point match', found {found}"),
    gettext_noop("line {line}: expected ' Game N', found {found}"),
    gettext_noop("line {line}: {token} is left of the right column's action"),
    gettext_noop("line {line}: 'Wins' needs a number of points"),
    gettext_noop("line {line}: {token} => needs the cube value"),
    gettext_noop(
        "line {line}: the position was set by hand ('; Set Pos'): the game cannot be checked "
        "move by move"
    ),
    gettext_noop("line {line}: illegal plays recorded as such cannot be checked"),
    gettext_noop("{action} cannot be written to a .mat file"),
    # sgf.py
    gettext_noop("line {line}: {reason}"),
    gettext_noop("game {game} is not backgammon: GM[{gm}] (backgammon is GM[6])"),
    gettext_noop("game {game} is not backgammon: no GM property (backgammon is GM[6])"),
    gettext_noop("game {game} is from a {length}-point match, not {other}"),
    gettext_noop("not an SGF file: no game tree"),
    gettext_noop("game trees nested too deeply"),
    gettext_noop("{value} is not an SGF move like 52mhxv"),
    gettext_noop("expected '(' to start a game, found {found}"),
    gettext_noop("property {name} has no value"),
    gettext_noop("game {game}: MI[{value}] needs a number"),
    gettext_noop("a node cannot follow a variation"),
    gettext_noop("{value} is not an SGF point (a-x, y bar, z off)"),
    gettext_noop("CV[{value}] is not a cube value"),
    gettext_noop("RE[{value}] is not a result like W+2 or B+1R"),
    gettext_noop("unexpected {value} in a game tree"),
    gettext_noop(
        "the position or cube was set by hand ({name}): the game cannot be checked move by move"
    ),
    gettext_noop("a game tree needs at least one node"),
    gettext_noop("DI[{value}] without a side or dice"),
    gettext_noop("{action} cannot be written to SGF"),
)

#: The game's words the messages carry as parameters (a result, a cube action, how a
#: game ended).
WORDS: dict[str, str] = {
    "single": gettext_noop("single"),
    "gammon": gettext_noop("gammon"),
    "backgammon": gettext_noop("backgammon"),
    "double": gettext_noop("double"),
    "beaver": gettext_noop("beaver"),
    "raccoon": gettext_noop("raccoon"),
    "take": gettext_noop("take"),
    "drop": gettext_noop("drop"),
    "resign": gettext_noop("resign"),
    "play": gettext_noop("play"),
    "the Jacoby rule": gettext_noop("the Jacoby rule"),
    "automatic doubles": gettext_noop("automatic doubles"),
    "the Jacoby rule and automatic doubles": gettext_noop("the Jacoby rule and automatic doubles"),
}

#: How a double was answered, as a game's record tells it ("Anna doubled, dropped").
DOUBLE_ANSWERS: dict[str, str] = {
    "take": gettext_noop("taken"),
    "drop": gettext_noop("dropped"),
    "beaver": gettext_noop("beavered"),
    "raccoon": gettext_noop("raccooned"),
}


def double_answer(response: str) -> str:
    """A stored double's answer (``take``, ``drop``...) in the active language."""
    return _(DOUBLE_ANSWERS[response]) if response in DOUBLE_ANSWERS else response


_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    for found in _FIELD.finditer(template):
        parts.append(re.escape(template[pos : found.start()]))
        parts.append(f"(?P<{found.group(1)}>.+?)")
        pos = found.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.S)


@functools.cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """The templates as patterns, the most specific (most fixed text) first."""
    fixed = {t: len(_FIELD.sub("", t)) for t in TEMPLATES}
    return [(_pattern(t), t) for t in sorted(TEMPLATES, key=lambda t: -fixed[t])]


def template_of(message: str) -> tuple[str, dict[str, str]] | None:
    """The template ``message`` was written from, and its parameters; ``None`` if none."""
    for pattern, template in _patterns():
        if found := pattern.fullmatch(message):
            return template, found.groupdict()
    return None


def translated(message: str) -> str:
    """An engine message in the active language (as written when no template knows it)."""
    if message in WORDS:
        return _(WORDS[message])
    known = template_of(message)
    if known is None:
        return message
    template, params = known
    return _(template).format(**{k: translated(v) for k, v in params.items()})
