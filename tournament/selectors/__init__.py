"""Read-only queries of the tournament side. The number of SQL queries of each one is
fixed: it does not grow with the number of players or matches."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    Count,
    Exists,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
)

from matches.models import Game, Match
from matches.selectors import matches_query, tournaments_visible_to
from tournament.formats import standings as ranking
from tournament.models import Draw, Entry, Event, Player, PlayerLink, Round, Tournament, User

#: Entries that hold no place in the event (a waiting list, a sign-up not approved yet).
OFF_LIST = (Entry.Status.WAITING, Entry.Status.PENDING)


def in_field(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries of ``entries`` that make up an event's field: not waiting or pending,
    and not withdrawn before the draw (a player withdrawn during play had a place)."""
    seated = Match.objects.filter(Q(entry1=OuterRef("pk")) | Q(entry2=OuterRef("pk")))
    return entries.exclude(status__in=OFF_LIST).exclude(
        Q(status=Entry.Status.WITHDRAWN) & ~Exists(seated)
    )


# ---- access ---------------------------------------------------------------------------


def user_directs(user: User | Any, tournament: Tournament | int) -> bool:
    """Whether ``user`` may manage ``tournament`` (one of its directors, or staff)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.filter(pk=tournament_id, directors=user).exists()


def user_may_create_tournaments(user: User | Any) -> bool:
    """Staff, holders of the add-tournament permission and existing directors create tournaments."""
    if not user or not user.is_authenticated:
        return False
    return bool(
        user.is_staff
        or user.has_perm("tournament.add_tournament")
        or user.directed_tournaments.exists()
    )


def tournaments_directed_by(user: User) -> QuerySet[Tournament]:
    """The tournaments ``user`` manages (all of them for staff)."""
    if user.is_staff or user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(directors=user)


def user_may_edit_player(user: User | Any, player: Player | int) -> bool:
    """Whether ``user`` may correct ``player``'s details: staff, or a director of a
    tournament the player has an entry in (any status)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    player_id = player if isinstance(player, int) else player.pk
    return Entry.objects.filter(player_id=player_id, event__tournament__directors=user).exists()


def user_may_change_player_email(user: User | Any, player: Player) -> bool:
    """Whether ``user`` may change ``player``'s own email, which the notices of every
    tournament without a contact of its own use: staff; the account linked to the player;
    or, for a player with no account, a director of every tournament the player is in
    (no other director's notices depend on it). Anyone else sets their own tournament's
    contact (``PlayerLink.email``) instead."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if player.user_id is not None:
        return bool(player.user_id == user.pk)
    others = Entry.objects.filter(player=player).exclude(event__tournament__directors=user)
    return not others.exists()


def user_may_change_player_identity(user: User | Any, player: Player) -> bool:
    """Whether ``user`` may change ``player``'s name, club or country, which every
    tournament the player is in shows (one identity: ratings, series): staff, or a
    director of every tournament the player is in. A director of only some of them asks
    staff (or the player's other directors)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    others = Entry.objects.filter(player=player).exclude(event__tournament__directors=user)
    return not others.exists()


def tournament_directors(tournament: Tournament) -> QuerySet[User]:
    """The tournament's directors, by username."""
    return tournament.directors.order_by("username", "pk")


# ---- players, events ---------------------------------------------------------------


def players_visible_to(user: User | Any) -> QuerySet[Player]:
    """Players the user may see: those entered in a tournament visible to them, and
    those entered nowhere yet. A player seen only in private tournaments the user
    does not direct stays hidden (staff see everyone)."""
    qs = Player.objects.all()
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return qs
    entries = Entry.objects.filter(player=OuterRef("pk"))
    visible = tournaments_visible_to(user).values("pk")
    return qs.filter(~Exists(entries) | Exists(entries.filter(event__tournament__in=visible)))


def player_list(*, q: str = "", user: User | Any = None) -> QuerySet[Player]:
    """Players visible to ``user`` whose name or club contains ``q``; directors (of any
    tournament) and staff also find a player by their whole email address (any case), to
    find a player they are adding. Never by a part of it: a part would let an address be
    read out a character at a time."""
    qs = players_visible_to(user)
    if q:
        match = Q(name__icontains=q) | Q(club__icontains=q)
        if user_directs_any(user) and "@" in q:
            match |= Q(email__iexact=q.strip())
        qs = qs.filter(match)
    return qs


def user_directs_any(user: User | Any) -> bool:
    """Whether ``user`` directs some tournament (or is staff): the players' managers."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or user.is_superuser or user.directed_tournaments.exists())


def event_list(tournament: Tournament) -> QuerySet[Event]:
    """A tournament's events in their order, with the numbers a list shows."""
    return (
        tournament.events.select_related("feeds_from", "champion__player")
        .annotate(
            entry_count=Count("entries", filter=~Q(entries__status__in=OFF_LIST), distinct=True)
        )
        .order_by("position", "id")
    )


def event_detail(event_id: int) -> Event:
    """An event with its tournament, feed, champion, rounds and last draw (3 queries)."""
    return (
        Event.objects.select_related("tournament", "feeds_from", "champion__player")
        .prefetch_related(
            Prefetch("rounds", queryset=Round.objects.order_by("bracket", "number")),
            Prefetch(
                "draws", queryset=Draw.objects.order_by("-created_at")[:1], to_attr="last_draws"
            ),
        )
        .annotate(
            entry_count=Count("entries", filter=~Q(entries__status__in=OFF_LIST), distinct=True)
        )
        .get(pk=event_id)
    )


def entry_list(event: Event) -> QuerySet[Entry]:
    """An event's entries with their players, by seed then name."""
    return event.entries.select_related("player").order_by("seed", "player__name", "id")


def player_link_keys(tournament_id: int, player_ids: Iterable[int]) -> dict[int, str]:
    """Player id -> the key of their private link in the tournament, in one query."""
    return dict(
        PlayerLink.objects.filter(tournament_id=tournament_id, player_id__in=list(player_ids))
        .order_by()
        .values_list("player_id", "key")
    )


# ---- matches -----------------------------------------------------------------------


# ---- brackets ----------------------------------------------------------------------


@dataclass
class BracketRound:
    """One column of a bracket: a round and its matches in slot order."""

    round: Round
    matches: list[Match]


@dataclass
class BracketPart:
    """The main, losers or grand-final part of an event's bracket."""

    bracket: str
    rounds: list[BracketRound]


@dataclass
class BracketTree:
    """An elimination event drawn as rounds of matches; ``feeds`` say where Main losers go."""

    event: Event
    parts: list[BracketPart]
    fed_events: list[Event] = field(default_factory=list)


def bracket_tree(event: Event) -> BracketTree:
    """The whole bracket of ``event`` in 3 queries, whatever the field's size."""
    rounds = list(event.rounds.order_by("bracket", "number"))
    matches = list(matches_query().filter(event=event))
    by_round: dict[int, list[Match]] = defaultdict(list)
    for match in matches:
        by_round[match.round_id].append(match)
    order = {Round.Bracket.MAIN: 0, Round.Bracket.LOSERS: 1, Round.Bracket.FINAL: 2}
    parts: dict[str, BracketPart] = {}
    for round_ in sorted(rounds, key=lambda r: (order[Round.Bracket(r.bracket)], r.number)):
        part = parts.setdefault(round_.bracket, BracketPart(round_.bracket, []))
        part.rounds.append(
            BracketRound(round_, sorted(by_round.get(round_.pk, []), key=lambda m: m.slot))
        )
    fed = list(Event.objects.filter(feeds_from=event).order_by("position", "id"))
    return BracketTree(event, list(parts.values()), fed)


# ---- standings ---------------------------------------------------------------------


@dataclass
class StandingRow:
    """One ranked entry with its tie-break columns."""

    rank: int
    entry: Entry
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    columns: dict[str, float] = field(default_factory=dict)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def _results(event: Event) -> tuple[list[Entry], list[Match]]:
    entries = list(
        event.entries.exclude(status__in=OFF_LIST).select_related("player").order_by("seed", "id")
    )
    decided = list(
        Match.objects.filter(event=event, status=Match.Status.COMPLETE, winner__isnull=False)
        .order_by("pk")
        .only(
            "pk",
            "entry1_id",
            "entry2_id",
            "winner_id",
            "is_bye",
            "score1",
            "score2",
            "start_score1",
            "start_score2",
        )
    )
    return entries, decided


#: Tie-breaks a director may choose (``formats.standings``), by name.
TIEBREAKS = {name: tiebreak.label for name, tiebreak in ranking.TIEBREAKS.items()}
DEFAULT_TIEBREAKS = ranking.DEFAULT_TIEBREAKS


def event_tiebreaks(event: Event) -> list[str]:
    """The event's tie-breaks in order; names the registry does not know (an event edited
    in the admin) are left out, and none left means the default ones."""
    chosen = [
        name
        for k, name in enumerate(event.tiebreaks or [])
        if name in TIEBREAKS and name not in (event.tiebreaks or [])[:k]
    ]
    return chosen or list(DEFAULT_TIEBREAKS)


def standings(event: Event) -> list[StandingRow]:
    """The event's ranked table (2 queries) by ``formats.standings`` and the event's
    tie-breaks. Byes count as wins; points are those won in play (a starting score
    from penalty points is not counted)."""
    entries, decided = _results(event)
    by_id = {e.pk: e for e in entries}
    results: list[ranking.MatchResult] = []
    extra: dict[int, StandingRow] = {e.pk: StandingRow(rank=0, entry=e) for e in entries}
    for m in decided:
        if m.winner_id not in by_id:
            continue
        if m.is_bye or m.entry1_id is None or m.entry2_id is None:
            results.append(ranking.MatchResult(m.winner_id, None, winner=m.winner_id, bye=True))
            extra[m.winner_id].byes += 1
            continue
        if m.entry1_id not in by_id or m.entry2_id not in by_id:
            continue
        first, second = m.score1 - m.start_score1, m.score2 - m.start_score2
        results.append(
            ranking.MatchResult(
                m.entry1_id, m.entry2_id, winner=m.winner_id, points_a=first, points_b=second
            )
        )
        for entry_id, won, lost in ((m.entry1_id, first, second), (m.entry2_id, second, first)):
            extra[entry_id].points_for += won
            extra[entry_id].points_against += lost
    tiebreaks = event_tiebreaks(event)
    rows: list[StandingRow] = []
    for ranked in ranking.rank_entrants([e.pk for e in entries], results, tiebreaks):
        row = extra[ranked.entrant]
        row.rank = ranked.rank
        row.played = ranked.played
        row.wins = ranked.wins
        row.losses = ranked.losses
        row.columns = dict(ranked.values)
        rows.append(row)
    return rows


@dataclass
class SwissState:
    """What Swiss pairing needs: the ranking, scores, who met whom, who had a bye."""

    ranked: list[int]
    scores: dict[int, float]
    played: list[tuple[int, int]]
    had_bye: set[int]


def swiss_state(event: Event) -> SwissState:
    """The active players of a Swiss event ranked by the standings (seed order in round 1)."""
    rows = standings(event)
    active = {Entry.Status.REGISTERED, Entry.Status.CHECKED_IN}
    ranked = [row.entry.pk for row in rows if row.entry.status in active]
    scores = {row.entry.pk: float(row.wins) for row in rows}
    played: list[tuple[int, int]] = []
    had_bye: set[int] = set()
    for m in Match.objects.filter(event=event).order_by().only("entry1_id", "entry2_id", "is_bye"):
        if m.is_bye:
            had_bye.update(e for e in (m.entry1_id, m.entry2_id) if e is not None)
        elif m.entry1_id is not None and m.entry2_id is not None:
            played.append((m.entry1_id, m.entry2_id))
    return SwissState(ranked, {e: scores.get(e, 0.0) for e in ranked}, played, had_bye)


def round_summary(event: Event) -> dict[int, dict[str, int]]:
    """Per round id: how many matches are in each status (1 query)."""
    summary: dict[int, dict[str, int]] = defaultdict(dict)
    rows = (
        Match.objects.filter(event=event)
        .values("round_id", "status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for row in rows:
        summary[row["round_id"]][row["status"]] = row["n"]
    return dict(summary)


def first_game_min(match_ids: Iterable[int]) -> dict[int, int | None]:
    """The first live game's number per match (used by pages showing 'in play')."""
    rows = (
        Game.objects.filter(match_id__in=list(match_ids), voided=False)
        .values("match_id")
        .annotate(first=Min("number"))
        .order_by()
    )
    return {row["match_id"]: row["first"] for row in rows}
