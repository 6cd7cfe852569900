"""A player's choice of receiving email notifications."""

from __future__ import annotations

from django.db import transaction

from tournament.models import Player


def player_notify_set(*, player: Player, notify: bool) -> Player:
    """Turn ``player``'s email notifications on or off."""
    with transaction.atomic():
        player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        if player.notify != notify:
            player.notify = notify
            player.save(update_fields=["notify"])
    return player
