"""Reads behind the public pages. Each page costs a fixed number of queries, whatever the field.

Every function loads whole tables of one event (or tournament, or player) with
their joins in one query each and leaves arranging them to plain Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.http import Http404
from django.urls import reverse

from matches.game_moves import decode_moves
from matches.models import Game, Match
from matches.rules.record import Action, Beaver, Double, Drop, Raccoon, RollPlay, Take, Win
from matches.selectors import match_crawford_game_number, match_crawford_played
from tournament.formats.feed_in import FeedInBracket, FromLoser
from tournament.models import Draw, Entry, Event, Player, RatingChange, Round, Tournament
from tournament.public import bracket as layout
from tournament.public import equity
from tournament.selectors import crawford_annotations
from tournament.services.brackets import double_elimination, feed_in

ELIMINATION = frozenset({Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION})
COMPANION_KINDS = (Event.Kind.CONSOLATION, Event.Kind.LAST_CHANCE)
RUNNING = (Match.Status.PLAYING, Match.Status.REPORTED, Match.Status.DISPUTED)


def _matches_with_players() -> QuerySet[Match]:
    return Match.objects.select_related("entry1__player", "entry2__player")


def public_tournaments() -> QuerySet[Tournament]:
    """Public tournaments, newest first, with how many events each has."""
    return (
        Tournament.objects.filter(is_public=True)
        .annotate(event_count=Count("events"))
        .order_by("-starts_on", "name")
    )


def tournament_by_slug(slug: str) -> Tournament:
    """The tournament with ``slug`` or 404 (public or not: the view decides who sees it)."""
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise Http404("No such tournament") from None


def event_by_slugs(slug: str, event_slug: str) -> Event:
    """The event ``event_slug`` of tournament ``slug`` (tournament and champion joined) or 404."""
    try:
        return Event.objects.select_related("tournament", "champion__player", "feeds_from").get(
            tournament__slug=slug, slug=event_slug
        )
    except Event.DoesNotExist:
        raise Http404("No such event") from None


def event_url(event: Event) -> str:
    return reverse("public-event", args=[event.tournament.slug, event.slug])


# --- tournament page -------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveMatch:
    """A running match as the tournament page and the scoreboard show it."""

    match: Match
    event: Event
    chances: equity.MatchChances


def live_matches(tournament: Tournament) -> list[LiveMatch]:
    """Matches in play in ``tournament``, with each side's chance of winning at the score."""
    matches = (
        _matches_with_players()
        .select_related("event", "round")
        .filter(event__tournament=tournament, status__in=RUNNING)
        .annotate(**crawford_annotations())
        .order_by("event__position", "event_id", "round__number", "slot")
    )
    return [
        LiveMatch(
            match=m,
            event=m.event,
            chances=equity.chances(
                length=m.length,
                score1=m.score1,
                score2=m.score2,
                crawford=m.crawford,
                crawford_played=match_crawford_played(match=m),
            ),
        )
        for m in matches
    ]


def _count_of(rows: QuerySet[Any]) -> Coalesce:
    """A correlated ``COUNT(*)`` of ``rows`` (no join fan-out across several counts)."""
    counted = rows.order_by().values("event").annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    events: Sequence[Event]
    schedule: list[Round]
    live: list[LiveMatch]
    recent: list[Match]


#: Completed matches the tournament page lists under "Recent results".
RECENT_RESULTS = 10


def recent_results(tournament: Tournament, limit: int = RECENT_RESULTS) -> list[Match]:
    """The last ``limit`` matches decided over the board or by forfeit (no byes), newest first."""
    return list(
        _matches_with_players()
        .select_related("event", "round")
        .filter(
            event__tournament=tournament,
            status=Match.Status.COMPLETE,
            is_bye=False,
            entry1__isnull=False,
            entry2__isnull=False,
        )
        .order_by(F("decided_at").desc(nulls_last=True), "-pk")[:limit]
    )


def tournament_page(tournament: Tournament) -> TournamentPage:
    """Events (with entry and match counts), the rounds' schedule and the matches in play."""
    events = list(
        tournament.events.select_related("champion__player", "feeds_from")
        .annotate(
            entry_count=_count_of(Entry.objects.filter(event=OuterRef("pk"))),
            running_count=_count_of(Match.objects.filter(event=OuterRef("pk"), status__in=RUNNING)),
        )
        .order_by("position", "id")
    )
    schedule = list(
        Round.objects.filter(event__tournament=tournament)
        .select_related("event")
        .order_by("starts_at", "event__position", "event_id", "bracket", "number")
    )
    schedule.sort(key=lambda r: (r.starts_at is None, r.starts_at or 0, r.event.position, r.number))
    return TournamentPage(
        tournament, events, schedule, live_matches(tournament), recent_results(tournament)
    )


# --- event page ------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventPage:
    event: Event
    bracket: layout.Bracket | None
    companions: list[layout.Bracket]
    feeds_into: list[Event]
    standings: Standings | None
    rounds: list[tuple[Round, list[Match]]]
    draws: list[Draw]
    entry_count: int


def _companions(event: Event) -> list[Event]:
    """Events drawn beside a Main: those it feeds, and the tournament's Consolation and Last
    Chance brackets that no event feeds, beside its first Main only (one query)."""
    if event.kind != Event.Kind.MAIN:
        return []
    earlier_main = Event.objects.filter(
        tournament_id=event.tournament_id, kind=Event.Kind.MAIN
    ).filter(Q(position__lt=event.position) | Q(position=event.position, pk__lt=event.pk))
    return list(
        Event.objects.filter(tournament_id=event.tournament_id, kind__in=COMPANION_KINDS)
        .filter(Q(feeds_from=event) | Q(feeds_from__isnull=True) & ~Exists(earlier_main))
        .select_related("tournament", "champion__player", "feeds_from")
        .order_by("position", "id")
    )


def _main_entrants(event_ids: Iterable[int]) -> dict[int, int]:
    """Players placed in round 1 of each event's main bracket (one query for all)."""
    ids = list(event_ids)
    if not ids:
        return {}
    rows = (
        Match.objects.filter(event_id__in=ids, round__bracket=Round.Bracket.MAIN, round__number=1)
        .values("event_id")
        .annotate(
            first=Count("pk", filter=Q(entry1__isnull=False)),
            second=Count("pk", filter=Q(entry2__isnull=False)),
        )
        .order_by()
    )
    return {row["event_id"]: row["first"] + row["second"] for row in rows}


def _feed_placeholders(
    structure: FeedInBracket, bracket: str, source: str
) -> dict[tuple[str, int, int, int], str]:
    fills: dict[tuple[str, int, int, int], str] = {}
    for number, matches in enumerate(structure.rounds, start=1):
        for match in matches:
            for position, line in enumerate((match.upper, match.lower)):
                if isinstance(line, FromLoser):
                    ref = line.match
                    fills[(bracket, number, match.ref.index, position)] = (
                        f"Loser of {source} R{ref.round} M{ref.index + 1}"
                    )
    return fills


def _placeholders(event: Event, entrants: dict[int, int]) -> layout.Placeholders:
    """Who will fill each empty line of a Consolation or a losers bracket."""
    try:
        if (
            event.feeds_from_id
            and event.feed_rounds
            and event.feeds_from_id in entrants
            and event.feeds_from is not None
        ):
            structure = feed_in(entrants[event.feeds_from_id], tuple(event.feed_rounds))
            return _feed_placeholders(structure, Round.Bracket.MAIN, event.feeds_from.name)
        if event.format == Event.Format.DOUBLE_ELIMINATION and entrants.get(event.pk, 0) > 1:
            fills = _feed_placeholders(
                double_elimination(entrants[event.pk]).losers, Round.Bracket.LOSERS, "W"
            )
            fills[(Round.Bracket.FINAL, 1, 0, 0)] = "Winners bracket champion"
            fills[(Round.Bracket.FINAL, 1, 0, 1)] = "Losers bracket champion"
            return fills
    except ValueError:  # a structure the draw did not make: show plain empty lines
        return {}
    return {}


def event_and_companion_ids(event: Event) -> list[int]:
    """``event``'s id followed by the ids of the events its page draws beside it."""
    return [event.pk, *(e.pk for e in _companions(event))]


def _brackets(
    events: Sequence[Event], destinations: dict[int, layout.Destination] | None = None
) -> dict[int, layout.Bracket]:
    """The bracket of each elimination event in ``events``: four queries for all of them."""
    chosen = [e for e in events if e.format in ELIMINATION]
    if not chosen:
        return {}
    ids = [e.pk for e in chosen]
    rounds: dict[int, list[Round]] = {}
    for rnd in Round.objects.filter(event_id__in=ids):
        rounds.setdefault(rnd.event_id, []).append(rnd)
    matches: dict[int, list[layout.MatchRow]] = {}
    rows = (
        Match.objects.filter(event_id__in=ids)
        .order_by("round_id", "slot")
        .values_list(*layout.MatchRow.FIELDS)
    )
    for row in rows:
        match = layout.MatchRow.from_values(row)
        matches.setdefault(match.event_id, []).append(match)
    feeders = {e.feeds_from_id for e in chosen if e.feeds_from_id and e.feed_rounds}
    doubles = {e.pk for e in chosen if e.format == Event.Format.DOUBLE_ELIMINATION}
    entrants = _main_entrants(feeders | doubles)
    return {
        e.pk: layout.build(
            e,
            rounds.get(e.pk, []),
            matches.get(e.pk, []),
            destinations,
            _placeholders(e, entrants),
        )
        for e in chosen
    }


def _destinations(companions: Iterable[layout.Bracket]) -> dict[int, layout.Destination]:
    """Player -> the first companion round they appear in (for the Main's losers)."""
    found: dict[int, layout.Destination] = {}
    for companion in companions:
        href = event_url(companion.event)
        for section in companion.sections:
            for column in section.columns:
                for box in column.boxes:
                    for line in (box.top, box.bottom):
                        if line.player_id is not None and line.player_id not in found:
                            found[line.player_id] = layout.Destination(
                                f"{companion.event.name} R{column.number}",
                                f"{href}#m{box.match_id}",
                            )
    return found


@dataclass(frozen=True)
class Standings:
    """The standings table: its tie-break columns (name, label) and each row's values."""

    columns: list[tuple[str, str]]
    rows: list[tuple[Any, list[float]]]


def _standings(event: Event) -> Standings:
    """Swiss or round-robin standings (``tournament.selectors.standings``) laid out as a table."""
    from tournament import selectors

    rows = selectors.standings(event)
    names = [n for n in (event.tiebreaks or selectors.DEFAULT_TIEBREAKS) if n != "wins"]
    columns = [(n, selectors.TIEBREAKS.get(n, n.replace("_", " "))) for n in names]
    return Standings(columns, [(row, [row.columns.get(n, 0) for n in names]) for row in rows])


def event_page(event: Event) -> EventPage:
    """Everything the event page shows: the bracket (and companions) or standings and pairings."""
    draws = list(event.draws.order_by("-created_at"))
    entry_count = event.entries.count()
    feeds_into = list(event.feeds.order_by("position", "id"))
    if event.format in ELIMINATION:
        companions = _companions(event)
        side = list(_brackets(companions).values())
        destinations = _destinations(side)
        main = _brackets([event], destinations).get(event.pk)
        return EventPage(event, main, side, feeds_into, None, [], draws, entry_count)
    rounds = list(event.rounds.order_by("number"))
    by_round: dict[int, list[Match]] = {r.pk: [] for r in rounds}
    for match in _matches_with_players().filter(event=event).order_by("round__number", "slot"):
        by_round.setdefault(match.round_id, []).append(match)
    return EventPage(
        event,
        None,
        [],
        feeds_into,
        _standings(event),
        [(r, by_round[r.pk]) for r in reversed(rounds)],
        draws,
        entry_count,
    )


def event_slips(event: Event) -> list[Match]:
    """Matches to print slips for: both players known and not yet decided, in round order."""
    return list(
        _matches_with_players()
        .select_related("round")
        .filter(event=event, entry1__isnull=False, entry2__isnull=False, is_bye=False)
        .exclude(status=Match.Status.COMPLETE)
        .order_by("round__bracket", "round__number", "slot")
    )


def draw_of(event: Event, draw_id: int) -> Draw:
    """One draw of ``event`` (its maker joined) or 404."""
    try:
        return Draw.objects.select_related("made_by").get(event=event, pk=draw_id)
    except Draw.DoesNotExist:
        raise Http404("No such draw") from None


# --- match page ------------------------------------------------------------------------------


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
            return f"{self.dice}: {self.text}" if self.text != "(no move)" else f"{self.dice}:"
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
        raise Http404("No such match")
    return found


def _side_name(match: Match, side: object) -> str:
    """The name of the player on ``side`` (1 or 2) of ``match``."""
    entry = match.entry1 if side in (1, "1") else match.entry2 if side in (2, "2") else None
    return entry.player.name if entry is not None else f"side {side}"


def _player_name(match: Match, player_id: object) -> str:
    for entry in (match.entry1, match.entry2):
        if entry is not None and entry.player_id == player_id:
            return entry.player.name
    return f"player {player_id}"


_ANSWERS = {"take": "taken", "drop": "dropped", "beaver": "beavered", "raccoon": "raccooned"}


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
        answer = _ANSWERS.get(str(double.get("response", "")), str(double.get("response", "")))
        turn = double.get("turn")
        text = f"{who} doubled" + (f" at roll {turn}" if turn is not None else "")
        out.append(f"{text}, {answer}" if answer else text)
    return out


_ANSWER_TEXT = {Take: "takes", Drop: "drops", Beaver: "beavers", Raccoon: "raccoons"}


def _move_text(action: Action) -> tuple[str, str]:
    """The dice (``31``, or empty) and what ``action`` did, as the match page words it."""
    if isinstance(action, RollPlay):
        return "".join(str(d) for d in action.dice), action.play or "(no move)"
    if isinstance(action, Double):
        return "", "doubles" + (f" to {action.value}" if action.value else "")
    if isinstance(action, Win):
        points = action.points
        return "", f"wins {points} point{'s' if points != 1 else ''}"
    return "", _ANSWER_TEXT.get(type(action), "")


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
            _matches_with_players()
            .select_related("event__tournament", "round", "winner")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise Http404("No such match") from None
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
            _matches_with_players()
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


# --- player page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerMatch:
    match: Match
    side: int
    opponent: Entry | None
    won: bool | None


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    entries: list[Entry]
    matches: list[PlayerMatch]
    rating_changes: list[RatingChange]
    wins: int
    losses: int

    @property
    def rating_rows(self) -> list[tuple[RatingChange, float]]:
        """Each rating change with its difference, newest first."""
        return [(c, c.rating_after - c.rating_before) for c in reversed(self.rating_changes)]


def player_page(player_id: int) -> PlayerPage:
    """A player with their public events, matches and rating history."""
    try:
        player = Player.objects.get(pk=player_id)
    except Player.DoesNotExist:
        raise Http404("No such player") from None
    entries = list(
        player.entries.filter(event__tournament__is_public=True)
        .select_related("event__tournament", "event__champion")
        .order_by("-event__tournament__starts_on", "event__position")
    )
    matches = (
        _matches_with_players()
        .select_related("event__tournament", "round")
        .filter(event__tournament__is_public=True)
        .filter(Q(entry1__player=player) | Q(entry2__player=player))
        .exclude(is_bye=True)
        .order_by(
            "-event__tournament__starts_on", "event__position", "round__bracket", "-round__number"
        )
    )
    rows: list[PlayerMatch] = []
    wins = losses = 0
    for match in matches:
        side = 1 if match.entry1 and match.entry1.player_id == player.pk else 2
        mine = match.entry1 if side == 1 else match.entry2
        won = None
        if match.status == Match.Status.COMPLETE and match.winner_id:
            won = match.winner_id == (mine.pk if mine else None)
            wins += won
            losses += not won
        rows.append(PlayerMatch(match, side, match.entry2 if side == 1 else match.entry1, won))
    changes = list(
        RatingChange.objects.filter(player=player)
        .select_related("match__event__tournament")
        .order_by("created_at", "id")
    )
    return PlayerPage(player, entries, rows, changes, wins, losses)


# --- player search ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FoundPlayer:
    """A player of the tournament whose name matched, with the events they entered."""

    player: Player
    events: list[Event]


#: Players a search lists at most (a longer list asks for more letters).
SEARCH_LIMIT = 30


def tournament_players(tournament: Tournament, query: str) -> list[FoundPlayer]:
    """The tournament's players whose name contains ``query`` (any case), by name (one query)."""
    entries = (
        Entry.objects.filter(event__tournament=tournament, player__name__icontains=query)
        .select_related("player", "event")
        .order_by("player__name", "player_id", "event__position", "event_id")[: SEARCH_LIMIT * 8]
    )
    found: dict[int, FoundPlayer] = {}
    for entry in entries:
        row = found.get(entry.player_id)
        if row is None:
            if len(found) == SEARCH_LIMIT:
                break
            row = found[entry.player_id] = FoundPlayer(entry.player, [])
        row.events.append(entry.event)
    return list(found.values())


# --- scoreboard ------------------------------------------------------------------------------


def scoreboard(tournament: Tournament) -> list[LiveMatch]:
    """The running matches of ``tournament`` for the room's screen (same as 'live now')."""
    return live_matches(tournament)
