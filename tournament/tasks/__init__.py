"""Celery tasks of the tournament side, each beside the signal receiver that queues it.

Importing the package registers every task (Celery's autodiscovery imports
``tournament.tasks``) and connects every receiver (``TournamentConfig.ready`` imports it).
Each task keeps the name it was queued under before the tasks moved here
(``tournament.tasks.*``, ``tournament.tasks_scheduled.*`` and
``tournament.notifications.*``): messages waiting in the
broker and the beat schedule in ``tournament.settings`` carry those names.
"""

from tournament.tasks import (  # noqa: F401
    advance,
    analysis,
    deadlines,
    notifications,
    outbox,
    pages,
    probe,
    ratings,
    tables,
)
