"""Read-only queries behind the console pages: what a director may see, and how it is grouped.

Every page runs a fixed number of queries whatever the field size (select_related and
one grouped count), so a 1,024-player event costs the same as an 8-player one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.shortcuts import get_object_or_404

from matches.models import Match
from matches.names import names_told_apart
from matches.selectors import device_syncs
from tournament.models import Entry, Event, Player, PlayerLink, Round, Tournament, User
from tournament.selectors import (
    field_count,
    in_field,
    tournament_directors,
    tournaments_directed_by,
)

#: The states and their names (translated when shown: lazy).
MATCH_STATES: list[tuple[str, Any]] = list(Match.Status.choices)


@dataclass(frozen=True)
class StateCount:
    """How many matches are in one state (``value`` is the code, ``label`` its name)."""

    value: str
    label: str
    count: int


def _state_counts(counts: dict[str, int]) -> list[StateCount]:
    return [StateCount(value, str(label), counts.get(value, 0)) for value, label in MATCH_STATES]


def tournaments_for(user: User) -> QuerySet[Tournament]:
    """The tournaments ``user`` may direct: the ones they direct, or all of them for staff."""
    return tournaments_directed_by(user)


def tournament_for(user: User, slug: str) -> Tournament:
    """The tournament ``slug`` if ``user`` directs it; 404 otherwise (its existence is not told)."""
    return get_object_or_404(tournaments_for(user), slug=slug)


def director_of(tournament: Tournament, user_id: int) -> User:
    """Director ``user_id`` of ``tournament`` (404 when they do not direct it)."""
    return get_object_or_404(tournament_directors(tournament), pk=user_id)


def event_of(tournament: Tournament, event_slug: str) -> Event:
    """The event ``event_slug`` of ``tournament`` (404 when it has none of that name)."""
    return get_object_or_404(
        Event.objects.select_related("tournament", "feeds_from", "champion__player"),
        tournament=tournament,
        slug=event_slug,
    )


def match_of(tournament: Tournament, match_id: int) -> Match:
    """Match ``match_id`` if it belongs to ``tournament`` (404 otherwise)."""
    return get_object_or_404(
        Match.objects.select_related(
            "event__tournament",
            "round",
            "entry1__player",
            "entry2__player",
            "winner__player",
            "reported_by__player",
        ),
        pk=match_id,
        event__tournament=tournament,
    )


def entry_of(event: Event, entry_id: int) -> Entry:
    """Entry ``entry_id`` of ``event`` (404 otherwise)."""
    return get_object_or_404(
        Entry.objects.select_related("player", "event"), pk=entry_id, event=event
    )


def event_entries(event: Event) -> list[Entry]:
    """The event's entries with their players, seeded ones first, then by name; sign-ups
    awaiting approval and the waiting list (in its order) last. Each carries its
    ``number`` in the event (see ``entry_number``)."""
    entries = list(
        event.entries.select_related("player").order_by(
            F("seed").asc(nulls_last=True), "player__name", "id"
        )
    )
    for number, entry in enumerate(sorted(entries, key=lambda e: e.pk), start=1):
        entry.number = number  # type: ignore[attr-defined]
    off = (Entry.Status.PENDING, Entry.Status.WAITING)  # below the field, in waiting order
    return [e for e in entries if e.status not in off] + sorted(
        (e for e in entries if e.status in off),
        key=lambda e: (e.status, e.waiting_since is None, e.waiting_since, e.pk),
    )


def entry_number(entry: Entry) -> int:
    """The entry's number in its event: 1 for the first registered, and so on. It never
    changes once given (a withdrawn entry keeps its number) and is what the manual draw
    is typed with, rather than the player's id, which counts every player of the site."""
    return Entry.objects.filter(event_id=entry.event_id, pk__lte=entry.pk).count()


def check_in_open(event: Event) -> str:
    """Which check-in buttons the entries show: ``"both"`` (check in and undo) before the
    draw, ``"in"`` in a running Swiss event (late arrivals), ``""`` otherwise."""
    if event.status == Event.Status.REGISTRATION:
        return "both"
    if event.is_swiss and event.status != Event.Status.FINISHED:
        return "in"
    return ""


def event_rounds(event: Event) -> list[Round]:
    """The event's rounds in playing order (main bracket, losers bracket, grand final)."""
    order: dict[str, int] = {Round.Bracket.MAIN: 0, Round.Bracket.LOSERS: 1, Round.Bracket.FINAL: 2}
    return sorted(event.rounds.all(), key=lambda r: (order.get(r.bracket, 9), r.number))


def register_candidates(event: Event) -> QuerySet[Player]:
    """Players of the event's tournament (any event) not yet entered in ``event``."""
    return (
        Player.objects.filter(entries__event__tournament_id=event.tournament_id)
        .exclude(entries__event=event)
        .distinct()
        .order_by("name", "id")
    )


def forbidden_choices(entries: Sequence[Entry]) -> list[tuple[int, str]]:
    """The forbidden-pairing menus' players (player pk, name) by name, namesakes told
    apart as the entries table shows them (club, country, seed or No.)."""
    names = names_told_apart(entries)
    choices = [(e.player_id, names.get(e.pk, e.player.name)) for e in entries]
    return sorted(choices, key=lambda item: item[1].casefold())


@dataclass
class RoundRow:
    """One round of the match grid with the matches shown for it."""

    round: Round
    matches: list[Match] = field(default_factory=list)
    byes: int = 0


@dataclass
class MatchGrid:
    """Every match of an event grouped by round, with a count per state."""

    rounds: list[RoundRow]
    counts: list[StateCount]
    total: int


def match_grid(
    event: Event, *, status: str = "", round_id: int | None = None, show_byes: bool = False
) -> MatchGrid:
    """The event's matches by round, filtered by state and round; byes folded into a count."""
    matches = (
        Match.objects.filter(event=event)
        .select_related("entry1__player", "entry2__player", "winner__player", "reported_by__player")
        .order_by("round_id", "slot")
    )
    counts = Counter(
        dict(
            Match.objects.filter(event=event, is_bye=False)
            .values("status")
            .annotate(n=Count("id"))
            .values_list("status", "n")
        )
    )
    rows = {r.pk: RoundRow(round=r) for r in event_rounds(event)}
    every = list(matches)
    # Namesakes told apart by club, country or seed: the grid shows name1 and name2.
    names = names_told_apart(e for m in every for e in (m.entry1, m.entry2) if e is not None)
    phones = device_syncs(match_ids=[m.pk for m in every if not m.is_bye])
    for match in every:
        match.phones = phones.get(match.pk, [])  # type: ignore[attr-defined]
        match.name1 = names.get(match.entry1_id or 0, "")  # type: ignore[attr-defined]
        match.name2 = names.get(match.entry2_id or 0, "")  # type: ignore[attr-defined]
        row = rows.get(match.round_id)
        if row is None or (round_id is not None and match.round_id != round_id):
            continue
        if match.is_bye and not show_byes:
            row.byes += 1
            continue
        if status and match.status != status:
            continue
        row.matches.append(match)
    shown = [
        row
        for row in rows.values()
        if (round_id is None or row.round.pk == round_id) and (row.matches or not status)
    ]
    return MatchGrid(
        rounds=shown,
        counts=_state_counts(counts),
        total=sum(counts.values()),
    )


@dataclass
class EventSummary:
    """One line of the tournament overview."""

    event: Event
    entries: int
    checked_in: int
    counts: list[StateCount]
    waiting: int = 0


def tournament_overview(tournament: Tournament) -> list[EventSummary]:
    """Each event of the tournament with its entry counts and its matches per state."""
    events = list(
        tournament.events.select_related("feeds_from", "champion__player").order_by(
            "position", "id"
        )
    )
    entry_counts: dict[tuple[int, str], int] = {
        (event_id, status): n
        for event_id, status, n in Entry.objects.filter(event__tournament=tournament)
        .values("event_id", "status")
        .annotate(n=Count("id"))
        .values_list("event_id", "status", "n")
    }
    match_counts: dict[tuple[int, str], int] = {
        (event_id, status): n
        for event_id, status, n in Match.objects.filter(event__tournament=tournament, is_bye=False)
        .values("event_id", "status")
        .annotate(n=Count("id"))
        .values_list("event_id", "status", "n")
    }
    # The field, as every page and the API count it (``selectors.in_field``).
    fields = dict(
        Event.objects.filter(tournament=tournament).annotate(n=field_count()).values_list("pk", "n")
    )
    summaries = []
    for event in events:
        summaries.append(
            EventSummary(
                event=event,
                entries=fields.get(event.pk, 0),
                checked_in=entry_counts.get((event.pk, str(Entry.Status.CHECKED_IN)), 0),
                counts=_state_counts(
                    {value: match_counts.get((event.pk, value), 0) for value, _ in MATCH_STATES}
                ),
                waiting=entry_counts.get((event.pk, str(Entry.Status.WAITING)), 0),
            )
        )
    return summaries


def round_of(event: Event, round_id: int) -> Round:
    """Round ``round_id`` of ``event`` (404 otherwise)."""
    return get_object_or_404(Round, pk=round_id, event=event)


def registering_events(tournament: Tournament) -> QuerySet[Event]:
    """The tournament's events that take entries now: before their draw, or Swiss ones
    still running (never those fed by another event's losers)."""
    return (
        tournament.events.filter(feeds_from__isnull=True)
        .filter(
            Q(status=Event.Status.REGISTRATION)
            | Q(
                format__in=[Event.Format.SWISS, Event.Format.SWISS_ELIMINATION],
                status__in=[Event.Status.DRAWN, Event.Status.RUNNING],
            )
        )
        .order_by("position", "id")
    )


def pairs_rounds(event: Event) -> bool:
    """Whether the event pairs round by round (Swiss, round robin) rather than drawing a bracket."""
    return event.format in (
        Event.Format.SWISS,
        Event.Format.SWISS_ELIMINATION,
        Event.Format.ROUND_ROBIN,
    )


def accepts_entries(event: Event) -> bool:
    """Whether the console offers to register players: before the draw, or any time in Swiss.

    The service has the last word (a Swiss event refuses late entries while a round runs).
    """
    if event.feeds_from_id is not None:
        return False
    if event.status == Event.Status.REGISTRATION:
        return True
    return event.is_swiss and event.status != Event.Status.FINISHED


def round_progress(event: Event) -> dict[int, tuple[int, int]]:
    """For each round id: (complete matches, matches), byes left out."""
    rows = (
        Match.objects.filter(event=event, is_bye=False)
        .values("round_id", "status")
        .annotate(n=Count("id"))
        .values_list("round_id", "status", "n")
    )
    progress: dict[int, tuple[int, int]] = {}
    for round_id, status, n in rows:
        done, total = progress.get(round_id, (0, 0))
        progress[round_id] = (done + (n if status == Match.Status.COMPLETE else 0), total + n)
    return progress


def round_waiting(event: Event) -> dict[int, int]:
    """For each round not started: how many of its matches already have both players
    (they wait for the director's Start: Consolation rounds fill as losers arrive)."""
    rows = (
        Match.objects.filter(
            event=event,
            is_bye=False,
            status=Match.Status.PENDING,
            round__status=Round.Status.PENDING,
            entry1__isnull=False,
            entry2__isnull=False,
        )
        .values("round_id")
        .annotate(n=Count("id"))
        .values_list("round_id", "n")
    )
    return dict(rows)


def manual_order_text(entries: list[Entry]) -> str:
    """The manual-draw box's starting text: the players the draw takes (the checked-in
    ones once anyone has checked in), by seed then rating, one ``number · name`` a line
    (``number``: the entry's in the event, from ``event_entries``)."""
    active = [e for e in entries if e.status in (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)]
    if any(e.status == Entry.Status.CHECKED_IN for e in active):
        active = [e for e in active if e.status == Entry.Status.CHECKED_IN]
    ranked = sorted(
        active, key=lambda e: (e.seed is None, e.seed or 0, -e.player.rating, e.player.name)
    )
    return "\n".join(f"{e.number} · {e.player.name}" for e in ranked)  # type: ignore[attr-defined]


def feeding_events(tournament: Tournament) -> QuerySet[Event]:
    """Events that may feed a Consolation: single-elimination ones not fed themselves."""
    return tournament.events.filter(
        format=Event.Format.SINGLE_ELIMINATION, feeds_from__isnull=True
    ).order_by("position", "id")


def player_links(tournament: Tournament) -> list[PlayerLink]:
    """Every player of the tournament with their private link and the names of the events
    they are in (``event_names``), by name."""
    links = list(
        PlayerLink.objects.filter(tournament=tournament)
        .select_related("player", "regenerated_by")
        .order_by("player__name", "player_id")
    )
    events: dict[int, list[str]] = {}
    for player_id, name in (
        Entry.objects.filter(event__tournament=tournament)
        .order_by("event__position", "event_id")
        .values_list("player_id", "event__name")
    ):
        events.setdefault(player_id, []).append(name)
    for link in links:
        link.event_names = events.get(link.player_id, [])  # type: ignore[attr-defined]
    return links


def player_link_of(tournament: Tournament, player_id: int) -> PlayerLink:
    """The player's link in ``tournament`` (404 when they are not entered in it)."""
    return get_object_or_404(
        PlayerLink.objects.select_related("player", "tournament"),
        tournament=tournament,
        player_id=player_id,
    )


def entry_open_matches(entry: Entry) -> list[Match]:
    """The entry's undecided matches, with both players, for the withdrawal's confirmation."""
    return list(
        Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
        .exclude(status=Match.Status.COMPLETE)
        .select_related("round", "entry1__player", "entry2__player")
        .order_by("round__number", "slot")
    )


def player_contact(tournament: Tournament, player: Player) -> str:
    """Where the tournament's notices to ``player`` go (its contact, else their email)."""
    own = (
        PlayerLink.objects.filter(tournament=tournament, player=player)
        .values_list("email", flat=True)
        .first()
    )
    return own or player.email


def player_of(tournament: Tournament, player_id: int) -> Player:
    """Player ``player_id`` if they have an entry (any status) in ``tournament``; 404 otherwise."""
    entered = Player.objects.filter(entries__event__tournament=tournament).distinct()
    return get_object_or_404(entered, pk=player_id)


def player_entry_in(event: Event, player_id: int) -> Entry:
    """The entry of player ``player_id`` in ``event`` (404 when they are not entered)."""
    return get_object_or_404(Entry.objects.only("pk", "event_id"), event=event, player_id=player_id)


def event_field_size(event: Event) -> int:
    """How many players the event has: its field as every page and the API count it."""
    return in_field(event.entries.all()).count()


def tournament_players(tournament: Tournament) -> list[Player]:
    """Every player entered in ``tournament`` (any status), by name."""
    return list(
        Player.objects.filter(entries__event__tournament=tournament)
        .distinct()
        .order_by("name", "pk")
    )


def player_entries_in(tournament: Tournament, player: Player) -> QuerySet[Entry]:
    """``player``'s entries in ``tournament``, event by event."""
    return (
        Entry.objects.filter(event__tournament=tournament, player=player)
        .select_related("event")
        .order_by("event__position", "event_id")
    )
