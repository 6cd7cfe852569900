"""What a player's phone says when it syncs: per match, the reports it still holds.

The private link's page keeps reports made offline on the phone and sends them when the
network is back (``static/js/report-queue.js``); each time it has talked to the server it
also says, per match of the player, how many reports it still holds unsent and how many
the server refused that the player has not yet dealt with. The director sees both, with
the time of the last sync, per match and player (``DeviceSync``); the room board marks a
match whose score may be behind a phone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from matches.access import link_by_key
from matches.models import DeviceSync, Match
from matches.signals import announce_match_changed

#: The most matches one sync speaks of (a player has a few open at most).
SYNC_MATCHES_MAX = 50


@dataclass(frozen=True, slots=True)
class Queue:
    """What the phone holds for one match."""

    unsent: int = 0
    attention: int = 0


def device_sync(
    *, key: str, queues: Mapping[int, Queue], now: dt.datetime | None = None
) -> list[DeviceSync]:
    """Record the phone's sync for each match of ``queues`` its player plays in (the
    others are left out: a phone speaks only for its own player); the rows written.

    ``key`` is the player's private link (or an entry's key): 404 for an unknown one. A
    match whose unsent count goes from none to some, or back, has its live pages (the
    room board) refreshed.
    """
    link, _ = link_by_key(key=key)
    now = now or timezone.now()
    player = link.player_id
    ids = [m for m in queues if 0 < m <= 2**63 - 1][:SYNC_MATCHES_MAX]
    written: list[DeviceSync] = []
    with transaction.atomic():
        matches = (
            Match.objects.select_related("event", "entry1", "entry2")
            .filter(pk__in=ids, event__tournament_id=link.tournament_id)
            .filter(Q(entry1__player_id=player) | Q(entry2__player_id=player))
            .order_by("pk")
        )
        for match in matches:
            entry = match.entry1 if match.entry1 and match.entry1.player_id == player else None
            entry = entry or match.entry2
            assert entry is not None
            queue = queues[match.pk]
            before = (
                DeviceSync.objects.select_for_update()
                .filter(match=match, entry=entry)
                .values_list("unsent", flat=True)
                .first()
            )
            row, _ = DeviceSync.objects.update_or_create(
                match=match,
                entry=entry,
                defaults={
                    "synced_at": now,
                    "unsent": queue.unsent,
                    "attention": queue.attention,
                },
            )
            written.append(row)
            if bool(before) != bool(queue.unsent):
                announce_match_changed(
                    match.pk, match.event_id, tournament_id=match.event.tournament_id
                )
    return written
