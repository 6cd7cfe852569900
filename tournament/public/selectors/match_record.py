"""A match's page: its games, doubles, move record and each side's chances."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from matches.game_moves import decode_moves
from matches.models import Game, Match
from matches.rules.record import Action, Beaver, Double, Drop, Raccoon, RollPlay, Take, Win
from matches.rules_text import double_answer
from matches.selectors import match_crawford_game_number, match_crawford_played
from tournament.models import Event
from tournament.public import equity
from tournament.public.selectors.common import matches_with_players


@dataclass(frozen=True)
class MoveRow:
    """One action of a game's move record: who, the dice if any, what they did."""

    who: str
    dice: str
    text: str
    side: int | None = None
    move: int | None = None

    @property
    def cell(self) -> str:
        """As a match file writes it: ``31: 8/5 6/5``, ``Doubles => 2``, ``Takes``."""
        if self.dice:
            return f"{self.dice}: {self.text}" if self.text != str(NO_MOVE) else f"{self.dice}:"
        return self.text[:1].upper() + self.text[1:]


@dataclass(frozen=True)
class MoveLine:
    """A numbered line of a match file: what each player did under that number."""

    number: int
    first: list[MoveRow]
    second: list[MoveRow]


def move_lines(rows: Sequence[MoveRow]) -> list[MoveLine]:
    """Group actions by their move number, player 1 left and player 2 right (as ``.mat``)."""
    lines: dict[int, MoveLine] = {}
    for row in rows:
        if row.move is None or row.side not in (1, 2):
            return []
        line = lines.setdefault(row.move, MoveLine(row.move, [], []))
        (line.first if row.side == 1 else line.second).append(row)
    return [lines[n] for n in sorted(lines)]


@dataclass(frozen=True)
class GameRow:
    """A game as the match page shows it, with the chances at the score before it."""

    game: Game
    winner: str
    doubles: list[str]
    chances_before: equity.MatchChances | None
    moves: list[MoveRow]

    @property
    def move_lines(self) -> list[MoveLine]:
        return move_lines(self.moves)


@dataclass(frozen=True)
class MatchPage:
    match: Match
    event: Event
    games: list[GameRow]
    voided: list[Game]
    chances: equity.MatchChances | None
    has_moves: bool
    next_match: Match | None


def match_event_id(match_id: int) -> int:
    """The event of match ``match_id`` or 404 (a small indexed read, cached by the view)."""
    found = Match.objects.filter(pk=match_id).values_list("event_id", flat=True).first()
    if found is None:
        raise Http404(_("No such match"))
    return found


def _side_name(match: Match, side: object) -> str:
    """The name of the player on ``side`` (1 or 2) of ``match``."""
    entry = match.entry1 if side in (1, "1") else match.entry2 if side in (2, "2") else None
    return entry.player.name if entry is not None else _("side {side}").format(side=side)


def _player_name(match: Match, player_id: object) -> str:
    for entry in (match.entry1, match.entry2):
        if entry is not None and entry.player_id == player_id:
            return entry.player.name
    return _("player {id}").format(id=player_id)


def _doubles(match: Match, game: Game) -> list[str]:
    """Each double of ``game``: who doubled, after how many of their rolls, the answer.

    Stored doubles name the side (1 or 2); the API's shape names the player (``by``).
    """
    out = []
    for double in game.doubles or []:
        if not isinstance(double, dict):
            continue
        if double.get("side") is not None:
            who = _side_name(match, double["side"])
        else:
            who = _player_name(match, double.get("player", double.get("by")))
        answer = double_answer(str(double.get("response", "")))
        turn = double.get("turn")
        text = (
            _("{who} doubled at roll {turn}").format(who=who, turn=turn)
            if turn is not None
            else _("{who} doubled").format(who=who)
        )
        out.append(f"{text}, {answer}" if answer else text)
    if not out:
        # Reported game by game without the doubles' detail: what the cube and the end say.
        if game.cube > 1:
            out.append(_("cube at {cube} (who doubled was not reported)").format(cube=game.cube))
        if game.ended_by == "drop":
            out.append(_("doubled to {cube}, dropped").format(cube=game.cube * 2))
    return out


_ANSWER_TEXT = {
    Take: gettext_lazy("takes"),
    Drop: gettext_lazy("drops"),
    Beaver: gettext_lazy("beavers"),
    Raccoon: gettext_lazy("raccoons"),
}
#: A roll with no legal move, as the match page shows it.
NO_MOVE = gettext_lazy("(no move)")


def _move_text(action: Action) -> tuple[str, str]:
    """The dice (``31``, or empty) and what ``action`` did, as the match page words it."""
    if isinstance(action, RollPlay):
        return "".join(str(d) for d in action.dice), action.play or str(NO_MOVE)
    if isinstance(action, Double):
        if action.value:
            return "", _("doubles to {value}").format(value=action.value)
        return "", _("doubles")
    if isinstance(action, Win):
        points = action.points
        return "", ngettext("wins {points} point", "wins {points} points", points).format(
            points=points
        )
    return "", str(_ANSWER_TEXT.get(type(action), ""))


def _move_rows(match: Match, moves: object) -> list[MoveRow]:
    """A game's stored move record (:mod:`matches.game_moves`) as rows; none if unreadable."""
    if not moves:
        return []
    try:
        actions = decode_moves(moves)
    except ValueError:
        return []
    rows = []
    for action in actions:
        side = None if action.side is None else action.side + 1
        dice, text = _move_text(action)
        rows.append(MoveRow(_side_name(match, side), dice, text, side, action.move))
    return rows


def match_page(match_id: int) -> MatchPage:
    """The match with players, event and round, its games and each side's chances."""
    try:
        match = (
            matches_with_players()
            .select_related("event__tournament", "round", "winner")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise Http404(_("No such match")) from None
    games = list(match.games.order_by("number", "id"))
    rows: list[GameRow] = []
    voided: list[Game] = []
    crawford = match_crawford_game_number(match=match, games=games)
    for game in games:
        if game.voided:
            voided.append(game)
            continue
        before = None
        if match.entry1_id and match.entry2_id:
            before = equity.chances(
                length=match.length,
                score1=game.score_before1,
                score2=game.score_before2,
                crawford=match.crawford,
                crawford_played=crawford is not None and crawford < game.number,
            )
        winner = _side_name(match, game.winner_side)
        moves = _move_rows(match, game.moves)
        rows.append(GameRow(game, winner, _doubles(match, game), before, moves))
    chances = None
    if match.entry1_id and match.entry2_id and not match.is_bye and not match.winner_id:
        chances = equity.chances(
            length=match.length,
            score1=match.score1,
            score2=match.score2,
            crawford=match.crawford,
            crawford_played=match_crawford_played(match=match, games=games),
        )
    next_match = None
    if match.status == Match.Status.COMPLETE and match.winner_id:
        next_match = (
            matches_with_players()
            .select_related("round")
            .filter(event_id=match.event_id)
            .filter(Q(entry1_id=match.winner_id) | Q(entry2_id=match.winner_id))
            .exclude(pk=match.pk)
            .filter(round__number__gt=match.round.number, round__bracket=match.round.bracket)
            .order_by("round__number")
            .first()
        )
    return MatchPage(
        match,
        match.event,
        rows,
        voided,
        chances,
        any(row.moves for row in rows),
        next_match,
    )
