"""The public tournament list, a tournament's page and its player search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404

from matches.models import Match
from tournament.models import Entry, Event, Player, Round, Tournament
from tournament.public.selectors.common import RUNNING, matches_with_players
from tournament.public.selectors.in_play import LiveMatch, live_matches
from tournament.selectors import in_field


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
            entry_count=_count_of(in_field(Entry.objects.filter(event=OuterRef("pk")))),
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
