"""Matches in play with each side's chances: the tournament page's 'live now' and the scoreboard."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Match
from matches.selectors import crawford_annotations, match_crawford_played
from tournament.models import Event, Tournament
from tournament.public import equity
from tournament.public.selectors.common import RUNNING, matches_with_players


@dataclass(frozen=True)
class LiveMatch:
    """A running match as the tournament page and the scoreboard show it."""

    match: Match
    event: Event
    chances: equity.MatchChances


def live_matches(tournament: Tournament) -> list[LiveMatch]:
    """Matches in play in ``tournament``, with each side's chance of winning at the score."""
    matches = (
        matches_with_players()
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


def scoreboard(tournament: Tournament) -> list[LiveMatch]:
    """The running matches of ``tournament`` for the room's screen (same as 'live now')."""
    return live_matches(tournament)
