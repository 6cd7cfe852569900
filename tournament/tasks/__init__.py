"""Celery tasks of the tournament side, each beside the signal receiver that queues it.

Importing the package registers every task (Celery's autodiscovery imports
``tournament.tasks``) and connects every receiver (``TournamentConfig.ready`` imports it).
Each task is named ``tournament.tasks.<function>`` (the outbox's own three
``tournament.outbox.*``); ``renamed`` keeps the former names registered for one release.
"""

from tournament.tasks import (  # noqa: F401
    advance,
    analysis,
    deadlines,
    notifications,
    outbox,
    pages,
    pairing,
    probe,
    ratings,
    renamed,
    report_keys,
    tables,
)
