"""Read-only queries of the tournament side. The number of SQL queries of each one is
fixed: it does not grow with the number of players or matches."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    Count,
    Exists,
    IntegerField,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy, pgettext_lazy

from matches.models import Game, Match
from matches.selectors import matches_query, tournaments_visible_to
from tournament.formats import elimination_playoff as playoffs
from tournament.formats import standings as ranking
from tournament.formats import swiss_elimination as elimination
from tournament.formats.places import Place
from tournament.models import Draw, Entry, Event, Player, PlayerLink, Round, Tournament, User

#: Entries that hold a place and may still play.
ACTIVE_STATUSES = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)

#: The formats that take late entries once drawn (``Event.is_swiss``).
SWISS_FORMATS = (Event.Format.SWISS, Event.Format.SWISS_ELIMINATION)


def in_field(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """The entries of ``entries`` that make up their event's field: the one definition of
    "the players of an event" that every page, the console, the API, the standings and
    the final places count and rank.

    Before the draw, every entry that holds a place (registered or checked in: not
    waiting, pending or withdrawn). From the draw on, the players the draw placed or a
    feed brought in (seated in one of the event's matches: a player withdrawn during play
    had a place, one withdrawn before the draw or left out of it never did); and in a
    Swiss event (plain or elimination: both take late entries) still under way also the
    active players its next round pairs (late entries)."""
    seated = Match.objects.filter(Q(entry1=OuterRef("pk")) | Q(entry2=OuterRef("pk")))
    active = Q(status__in=ACTIVE_STATUSES)
    open_swiss = Q(event__format__in=SWISS_FORMATS) & ~Q(event__status=Event.Status.FINISHED)
    return entries.filter(
        (Q(event__status=Event.Status.REGISTRATION) & active)
        | (~Q(event__status=Event.Status.REGISTRATION) & Exists(seated))
        | (open_swiss & active)
    )


def field_count(event_ref: Any = None) -> Coalesce:
    """The size of the field (``in_field``) of the event ``event_ref`` names (default: the
    outer query's row, ``OuterRef("pk")``), as a correlated ``COUNT`` to annotate with."""
    rows = in_field(Entry.objects.filter(event=OuterRef("pk") if event_ref is None else event_ref))
    counted = rows.order_by().values("event").annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


# ---- access ---------------------------------------------------------------------------


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
    if not Entry.objects.filter(player=player).exists():  # held by no tournament yet
        return player.created_by_id in (None, user.pk)
    others = Entry.objects.filter(player=player).exclude(event__tournament__directors=user)
    return not others.exists()


def tournament_directors(tournament: Tournament) -> QuerySet[User]:
    """The tournament's directors, by username."""
    return tournament.directors.order_by("username", "pk")


# ---- players, events ---------------------------------------------------------------


def players_visible_to(user: User | Any) -> QuerySet[Player]:
    """Players the user may see: those entered in a tournament visible to them, and
    those entered nowhere yet that the user made (or nobody recorded making). A player
    seen only in private tournaments the user does not direct stays hidden, and a record
    no tournament holds yet is its maker's until entered (staff see everyone)."""
    qs = Player.objects.all()
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return qs
    entries = Entry.objects.filter(player=OuterRef("pk"))
    visible = tournaments_visible_to(user).values("pk")
    maker = Q(created_by__isnull=True)
    if user is not None and user.is_authenticated:
        maker |= Q(created_by=user)
    return qs.filter(
        (~Exists(entries) & maker) | Exists(entries.filter(event__tournament__in=visible))
    )


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
        .annotate(entry_count=field_count())
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
        .annotate(entry_count=field_count())
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
    status: str | None = None
    """Swiss elimination: ``alive`` or ``eliminated``."""
    eliminated_in_round: int | None = None
    playoff: str | None = None
    """Swiss elimination, a player of its playoff: ``in``, ``out`` or ``won``."""

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def _results(event: Event) -> tuple[list[Entry], list[Match]]:
    """The field and its decided matches (an elimination Swiss: its Swiss rounds only,
    its playoff places players without changing their records)."""
    entries = list(in_field(event.entries.all()).select_related("player").order_by("seed", "id"))
    matches = Match.objects.filter(event=event, status=Match.Status.COMPLETE, winner__isnull=False)
    if event.is_elimination_swiss:
        matches = matches.exclude(round__bracket=Round.Bracket.PLAYOFF)
    decided = list(
        matches.order_by("pk").only(
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


#: The tie-breaks' labels in the request's language (``formats.standings`` is pure Python
#: and names them in English).
TIEBREAK_LABELS = {
    "wins": gettext_lazy("Wins"),
    "points_diff": gettext_lazy("Points won minus lost"),
    "opponents_wins": gettext_lazy("Opponents' wins"),
    "head_to_head": gettext_lazy("Head to head"),
}
#: The tie-breaks as they read inside a sentence ("ranked by wins, then head to head"):
#: German keeps its nouns capitalised, so each language words them itself.
TIEBREAKS_IN_TEXT = {
    "wins": pgettext_lazy("tie-break in running text", "wins"),
    "points_diff": pgettext_lazy("tie-break in running text", "points won minus lost"),
    "opponents_wins": pgettext_lazy("tie-break in running text", "opponents' wins"),
    "head_to_head": pgettext_lazy("tie-break in running text", "head to head"),
}
#: Tie-breaks a director may choose (``formats.standings``), by name: their labels.
TIEBREAKS = {
    name: TIEBREAK_LABELS.get(name, tiebreak.label) for name, tiebreak in ranking.TIEBREAKS.items()
}
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
    if event.is_elimination_swiss:
        rows = _elimination_rows(event, rows)
    return rows


@dataclass(frozen=True)
class EliminationState:
    """An elimination Swiss as its results stand: each entry's Swiss record, and the
    playoff's (if one has started) winners by round and each playoff player's round out."""

    records: dict[int, elimination.EliminationRecord]
    playoff_winners: list[list[int | None]]
    playoff_exits: dict[int, int | None] | None


def elimination_state(event: Event) -> EliminationState:
    """The Swiss records (main rounds only: 1 query for all of it) and the playoff's
    state. A withdrawn entry is out in the round it withdrew after, if it was not out
    before; a withdrawn playoff player still in the playoff goes out below its rounds."""
    entries = dict(in_field(event.entries.all()).values_list("pk", "status").order_by("pk"))
    by_round: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    playoff: dict[int, dict[int, int]] = defaultdict(dict)
    last = 0
    decided = Match.objects.filter(event=event, status=Match.Status.COMPLETE, winner__isnull=False)
    for number, bracket, slot, winner, one, two, is_bye in decided.values_list(
        "round__number", "round__bracket", "slot", "winner_id", "entry1_id", "entry2_id", "is_bye"
    ).order_by("round__number", "pk"):
        if bracket == Round.Bracket.PLAYOFF:
            playoff[number][slot] = winner
            continue
        last = max(last, number)
        if winner not in entries:
            continue
        loser = None if is_bye else (two if winner == one else one)
        by_round[number].append((winner, loser if loser in entries else None))
    rounds = [by_round.get(k, []) for k in range(1, last + 1)]
    records = elimination.elimination_records(
        list(entries), rounds, losses_to_eliminate=event.losses_to_eliminate, strict=False
    )
    for pk, status in entries.items():
        record = records[pk]
        if status == Entry.Status.WITHDRAWN and record.alive:
            records[pk] = elimination.EliminationRecord(record.wins, record.losses, max(last, 1))
    winners: list[list[int | None]] = [
        [by_slot.get(k) for k in range(max(by_slot) + 1)] for _, by_slot in sorted(playoff.items())
    ]
    exits: dict[int, int | None] | None = None
    kind, seeds = (event.playoff or {}).get("kind"), (event.playoff or {}).get("seeds")
    if kind and seeds:
        exits = playoffs.playoff_exits(kind, seeds, winners)
        for pk in exits:
            if exits[pk] is None and entries.get(pk) == Entry.Status.WITHDRAWN:
                exits[pk] = 0
    return EliminationState(records, winners, exits)


def elimination_records(event: Event) -> dict[int, elimination.EliminationRecord]:
    """Each entry's Swiss wins, losses and round of elimination (1 query)."""
    return elimination_state(event).records


def elimination_places_of(
    event: Event, state: EliminationState | None = None, among: Container[int] | None = None
) -> dict[int, Place]:
    """The event's places as things stand (final once it is finished): the playoff's
    players first, then by the round of elimination and the record; with
    ``last_loss_cashes`` the players out in the round the field dropped to the places
    paid share (``formats.swiss_elimination.final_places``). ``among``: the entries to
    place, the field (an entry registered after the last round never sat down)."""
    state = state or elimination_state(event)
    records = state.records
    if among is not None:
        records = {pk: record for pk, record in records.items() if pk in among}
    return elimination.final_places(
        records,
        places_paid=event.places_paid,
        last_loss_cashes=event.last_loss_cashes,
        playoff=state.playoff_exits,
    )


def _elimination_rows(event: Event, rows: list[StandingRow]) -> list[StandingRow]:
    """The standings of an elimination Swiss: by final place as things stand (the
    playoff, the round of elimination, players alive first, then the record), the
    tie-breaks within."""
    state = elimination_state(event)
    records = state.records
    places = elimination_places_of(event, state, among={row.entry.pk for row in rows})
    exits = state.playoff_exits or {}
    for row in rows:
        record = records[row.entry.pk]
        row.status = "alive" if record.alive else "eliminated"
        row.eliminated_in_round = record.eliminated_in_round
        row.rank = places[row.entry.pk].best
        if row.entry.pk in exits:
            row.playoff = _playoff_status(exits, row.entry.pk, event.status)
    order = {id(row): k for k, row in enumerate(rows)}
    return sorted(rows, key=lambda row: (row.rank, order[id(row)]))


def _playoff_status(exits: dict[int, int | None], pk: int, status: str) -> str:
    """``in`` (still playing), ``out`` (lost in it) or ``won``."""
    if exits[pk] is not None:
        return "out"
    if status == Event.Status.FINISHED and sum(v is None for v in exits.values()) == 1:
        return "won"
    return "in"


@dataclass(frozen=True)
class EliminationCounts:
    """The room's counts of an elimination Swiss."""

    alive: int
    cashing: int
    out: int
    losses_to_eliminate: int


def elimination_counts(event: Event) -> EliminationCounts:
    records = elimination_records(event)
    alive = elimination.alive_count(records)
    cashing = elimination.cashing(
        records,
        losses_to_eliminate=event.losses_to_eliminate,
        places_paid=event.places_paid,
        last_loss_cashes=event.last_loss_cashes,
    )
    return EliminationCounts(alive, cashing, len(records) - alive, event.losses_to_eliminate)


@dataclass(frozen=True)
class EliminationNext:
    """What an elimination Swiss plays next, for the director's page: the stage
    (``swiss``, ``three-player``, ``knockout``, ``playoff`` once one has begun, or
    ``over``), the players alive, and those out in the last Swiss round the director
    may keep one more round (when the players alive are odd and a Swiss round is next)."""

    stage: str
    alive: int
    keepable: list[Entry]


def elimination_next(event: Event) -> EliminationNext:
    """The next stage of an elimination Swiss between rounds (3 queries)."""
    state = elimination_state(event)
    alive = elimination.alive_count(state.records)
    if event.playoff:
        return EliminationNext("playoff", alive, [])
    swiss_rounds = event.rounds.filter(bracket=Round.Bracket.MAIN).count()
    stage = elimination.next_stage(
        state.records,
        rounds_played=swiss_rounds,
        places_paid=event.places_paid if event.playoff_switch and event.places_paid else None,
        three_player_playoff=event.three_player_playoff,
        wisconsin_after_rounds=event.wisconsin_after_rounds,
    )
    keepable: list[Entry] = []
    if stage == elimination.SWISS and alive % 2 and swiss_rounds:
        just_out = [pk for pk, r in state.records.items() if r.eliminated_in_round == swiss_rounds]
        keepable = list(
            event.entries.filter(pk__in=just_out, status__in=ACTIVE_STATUSES)
            .select_related("player")
            .order_by("player__name", "pk")
        )
    return EliminationNext(stage, alive, keepable)


#: Entries still entered (not withdrawn, not waiting or pending).
ACTIVE_STATUSES = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)


@dataclass
class SwissState:
    """What Swiss pairing needs: the ranking, scores, who met whom, who had a bye."""

    ranked: list[int]
    scores: dict[int, float]
    played: list[tuple[int, int]]
    had_bye: set[int]
    bye_counts: dict[int, int]


def swiss_state(event: Event) -> SwissState:
    """The active players of a Swiss event ranked by the standings (seed order in round 1)."""
    rows = standings(event)
    active = {Entry.Status.REGISTERED, Entry.Status.CHECKED_IN}
    ranked = [row.entry.pk for row in rows if row.entry.status in active]
    scores = {row.entry.pk: float(row.wins) for row in rows}
    played: list[tuple[int, int]] = []
    byes: Counter[int] = Counter()
    for m in Match.objects.filter(event=event).order_by().only("entry1_id", "entry2_id", "is_bye"):
        if m.is_bye:
            byes.update(e for e in (m.entry1_id, m.entry2_id) if e is not None)
        elif m.entry1_id is not None and m.entry2_id is not None:
            played.append((m.entry1_id, m.entry2_id))
    return SwissState(
        ranked, {e: scores.get(e, 0.0) for e in ranked}, played, set(byes), dict(byes)
    )


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


def numbers_tables(tournament_id: int) -> bool:
    """Whether the tournament numbers its tables: some match of it has had one."""
    return Match.objects.filter(event__tournament_id=tournament_id, table__isnull=False).exists()
