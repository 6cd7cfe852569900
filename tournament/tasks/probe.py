"""The diagnostics task: proof that a worker runs and reaches the database and the cache."""

from __future__ import annotations

import os

from django.core.cache import cache

from tournament.models import Player
from tournament.tasks.typed import task


@task(name="tournament.tasks.health_probe")
def health_probe(key: str) -> dict[str, int]:
    """Write the worker's pid and the number of players it sees under ``key`` (diagnostics)."""
    seen = {"pid": os.getpid(), "players": Player.objects.count()}
    cache.set(key, seen, 60)
    return seen
