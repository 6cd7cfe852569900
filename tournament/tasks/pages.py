"""A changed score makes the cached live pages of its event stale (no task: a cache bump)."""

from __future__ import annotations

import logging

from django.dispatch import receiver

from matches.signals import match_changed
from tournament import page_cache

log = logging.getLogger(__name__)


@receiver(match_changed)
def invalidate_pages(
    sender: object,
    *,
    match_id: int,
    event_id: int,
    tournament_id: int | None = None,
    **kwargs: object,
) -> None:
    """A score changed: live pages of its event must not be served from the cache.

    The tournament comes with the signal when the sender knew it (reports do), else
    from the event.
    """
    from tournament.models import Event

    try:
        if tournament_id is None:
            tournament_id = (
                Event.objects.filter(pk=event_id)
                .order_by()
                .values_list("tournament_id", flat=True)
                .first()
            )
        page_cache.invalidate_event(event_id, tournament_id)
    except Exception:  # cache down: pages are rebuilt when it is back
        log.warning("could not invalidate pages of event %s", event_id, exc_info=True)
