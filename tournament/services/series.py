"""Series leaderboard (a selector): every event of the season's tournaments, scored and summed.

The points of one event come from ``tournament.formulas.series`` (pure). Here we gather what
they need in a fixed number of queries, whatever the number of players or events:

* the events counted: every event of the series' tournaments with at least one
  complete match (a running event shows its provisional points);
* each entrant's record, greater is better: the champion first, then matches won
  (byes, forfeits and walkovers included, as they move a player on), and in Swiss
  and round robin the points won minus lost over the board;
* the lengths of the matches each entrant won over the board.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from matches.models import PLAYED_DECISIONS, Match
from tournament.formulas import series as points
from tournament.models import Entry, Event, Player, Series

TABLE_FORMATS = {Event.Format.SWISS, Event.Format.SWISS_ELIMINATION, Event.Format.ROUND_ROBIN}


@dataclass(frozen=True)
class LeaderboardRow:
    """One player's line: rank (shared when tied), points, events counted, wins over the board."""

    rank: int
    player_id: int
    name: str
    club: str
    country: str
    points: float
    events: int
    wins: int


@dataclass(frozen=True)
class CountedEvent:
    """An event that counts for the series, with its field size."""

    id: int
    name: str
    slug: str
    tournament: str
    tournament_slug: str
    kind: str
    field: int
    finished: bool

    @property
    def kind_label(self) -> str:
        """The kind as people read it (Main, Consolation...)."""
        return str(Event.Kind(self.kind).label) if self.kind in Event.Kind.values else self.kind


@dataclass(frozen=True)
class Leaderboard:
    """A series' leaderboard and the events it counts."""

    series: Series
    rows: list[LeaderboardRow] = field(default_factory=list)
    events: list[CountedEvent] = field(default_factory=list)


@dataclass
class _Record:
    champion: bool = False
    wins: int = 0
    diff: int = 0
    won_lengths: list[int] = field(default_factory=list)


def series_leaderboard(*, series: Series, public_only: bool = False) -> Leaderboard:
    """The leaderboard of ``series`` (four queries); ``public_only`` leaves private
    tournaments out (the public page)."""
    counted_events = Event.objects.filter(tournament__series=series)
    if public_only:
        counted_events = counted_events.filter(tournament__is_public=True)
    events = list(
        counted_events.exclude(status=Event.Status.REGISTRATION)
        .order_by("tournament__starts_on", "tournament_id", "position", "id")
        .values(
            "id",
            "name",
            "slug",
            "kind",
            "format",
            "status",
            "match_lengths",
            "champion_id",
            "tournament__name",
            "tournament__slug",
        )
    )
    by_id = {e["id"]: e for e in events}
    matches = Match.objects.filter(event_id__in=by_id).values_list(
        "event_id",
        "entry1_id",
        "entry2_id",
        "winner_id",
        "status",
        "decision",
        "length",
        "score1",
        "score2",
        "start_score1",
        "start_score2",
    )
    records: dict[int, dict[int, _Record]] = defaultdict(dict)
    complete: set[int] = set()
    for event_id, e1, e2, winner, status, decision, length, s1, s2, st1, st2 in matches:
        table = by_id[event_id]["format"] in TABLE_FORMATS
        entrants = records[event_id]
        for entry in (e1, e2):
            if entry is not None:
                entrants.setdefault(entry, _Record())
        if status != Match.Status.COMPLETE or winner is None:
            continue
        complete.add(event_id)
        entrants[winner].wins += 1
        if decision in PLAYED_DECISIONS and e1 is not None and e2 is not None:
            entrants[winner].won_lengths.append(length)
            if table:
                entrants[e1].diff += (s1 - st1) - (s2 - st2)
                entrants[e2].diff += (s2 - st2) - (s1 - st1)
    entry_player = dict(Entry.objects.filter(event_id__in=complete).values_list("id", "player_id"))

    counted: list[CountedEvent] = []
    per_event: list[dict[int, float]] = []
    wins: dict[int, int] = defaultdict(int)
    for event in events:
        if event["id"] not in complete:
            continue
        entrants = records[event["id"]]
        for entry_id, record in entrants.items():
            record.champion = entry_id == event["champion_id"]
            wins[entry_player[entry_id]] += len(record.won_lengths)
        results = [
            points.EventResult(
                entry_player[entry_id],
                _ranking(record, table=event["format"] in TABLE_FORMATS),
                tuple(record.won_lengths),
            )
            for entry_id, record in entrants.items()
        ]
        lengths = event["match_lengths"] or [7]
        per_event.append(
            points.event_points(
                results,
                scheme=series.scheme,
                kind=event["kind"],
                first_length=int(lengths[0]),
                table=series.points_table or [],
            )
        )
        counted.append(
            CountedEvent(
                id=event["id"],
                name=event["name"],
                slug=event["slug"],
                tournament=event["tournament__name"],
                tournament_slug=event["tournament__slug"],
                kind=event["kind"],
                field=len(entrants),
                finished=event["status"] == Event.Status.FINISHED,
            )
        )

    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in={pid for scores in per_event for pid in scores}).only(
            "pk", "name", "club", "country"
        )
    }
    order = sorted(players, key=lambda pk: (players[pk].name.lower(), pk))
    rows = [
        LeaderboardRow(
            rank=standing.rank,
            player_id=standing.player,
            name=players[standing.player].name,
            club=players[standing.player].club,
            country=players[standing.player].country,
            points=round(standing.points, 2),
            events=standing.events,
            wins=wins[standing.player],
        )
        for standing in points.leaderboard(per_event, order=order)
    ]
    return Leaderboard(series=series, rows=rows, events=counted)


def _ranking(record: _Record, *, table: bool) -> tuple[float, ...]:
    if table:
        return (float(record.champion), float(record.wins), float(record.diff))
    return (float(record.champion), float(record.wins))
