"""The public tournament list, a tournament's page and its player search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils.translation import gettext as _

from matches.models import Match
from matches.names import names_told_apart
from tournament.models import Entry, Event, Player, Round, Tournament
from tournament.public.selectors.common import RUNNING, matches_with_players
from tournament.public.selectors.in_play import LiveMatch, live_matches
from tournament.selectors import field_count, in_field


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
        raise Http404(_("No such tournament")) from None


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
        matches_with_players()
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
            entry_count=field_count(),
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


@dataclass
class FoundPlayer:
    """A player of the tournament's field (or whose name matched), with the events they
    are in and their name as the list shows it (namesakes told apart)."""

    player: Player
    events: list[Event]
    name: str = ""

    @property
    def pk(self) -> int:  # told apart per player (``names_told_apart`` keys by ``pk``)
        return self.player.pk

    seed = None


def tournament_field(tournament: Tournament, query: str = "") -> list[FoundPlayer]:
    """Every player of the tournament's field (in some event's field: not waiting, not
    awaiting approval, not withdrawn before the draw), by name, with their events in
    the tournament's order; ``query``: only those whose name contains it (any case).
    One query, however many players."""
    entries = in_field(Entry.objects.filter(event__tournament=tournament))
    if query:
        entries = entries.filter(player__name__icontains=query)
    found: dict[int, FoundPlayer] = {}
    events: dict[int, Event] = {}  # one instance per event, shared by its players' rows
    rows = (
        entries.select_related("player", "event")
        .only(
            "player_id",
            "event_id",
            "player__name",
            "player__club",
            "player__country",
            "event__name",
            "event__slug",
            "event__position",
        )
        .order_by("player__name", "player_id", "event__position", "event_id")
    )
    for entry in rows:
        row = found.get(entry.player_id)
        if row is None:
            row = found[entry.player_id] = FoundPlayer(entry.player, [])
        row.events.append(events.setdefault(entry.event_id, entry.event))
    players = list(found.values())
    told = names_told_apart(players)
    for row in players:
        row.name = told.get(row.pk, row.player.name)
    return players
