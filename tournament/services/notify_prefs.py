"""A player's choice of receiving a tournament's email notices."""

from __future__ import annotations

from django.db import transaction

from tournament.models import PlayerLink


def link_notify_set(*, link: PlayerLink, notify: bool) -> PlayerLink:
    """Turn the notices of ``link``'s tournament to its player on or off; no other
    tournament's (whoever holds one tournament's link decides for that one only)."""
    with transaction.atomic():
        fresh = PlayerLink.objects.select_for_update(no_key=True).get(pk=link.pk)
        if fresh.notify != notify:
            fresh.notify = notify
            fresh.save(update_fields=["notify"])
    link.notify = fresh.notify
    return link
