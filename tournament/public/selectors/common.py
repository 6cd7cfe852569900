"""What the public page selectors share: the running statuses and the match query."""

from __future__ import annotations

from django.db.models import QuerySet

from matches.models import Match

RUNNING = (Match.Status.PLAYING, Match.Status.REPORTED, Match.Status.DISPUTED)


def matches_with_players() -> QuerySet[Match]:
    """Matches with both entries' players joined."""
    return Match.objects.select_related("entry1__player", "entry2__player")
