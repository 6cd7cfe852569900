"""The tasks' former names, kept for one release so that work queued under them still runs.

Tasks are named ``tournament.tasks.<function>`` (the outbox's own three are
``tournament.outbox.run``, ``run_batch`` and ``drain``: ``tournament/outbox.py`` runs
them by name). Twelve carried the names of modules long gone (``tournament.tasks_scheduled``,
``tournament.notifications``) or of a signal (``match_completed``). Names are persisted:
in outbox rows (``OutboxTask.task``: migration ``0016_outbox_task_names`` renames those
waiting), in the broker's messages and in a beat still running the old schedule. So each
former name stays registered here, forwarding to its task:

- a message (broker, beat, a retry an old worker scheduled) is sent on under the new
  name, with that task's options (retries, queue), and acknowledged;
- a direct call (the outbox runs a row written by a web node still on the old code) runs
  the task in this process, as the outbox runs any row.

Remove this module in the release after the one that brought it.
"""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task

#: Former name -> name now.
RENAMED = {
    "tournament.tasks.match_completed": "tournament.tasks.advance_match",
    "tournament.tasks_scheduled.rate_match": "tournament.tasks.rate_match",
    "tournament.tasks_scheduled.sweep_unrated_matches": "tournament.tasks.sweep_unrated_matches",
    "tournament.tasks_scheduled.send_deadline_reminders": (
        "tournament.tasks.send_deadline_reminders"
    ),
    "tournament.tasks_scheduled.apply_deadlines": "tournament.tasks.apply_deadlines",
    **{
        f"tournament.notifications.{notice}": f"tournament.tasks.{notice}"
        for notice in (
            "notify_match_ready",
            "notify_table_given",
            "notify_player_link",
            "notify_director_invite",
            "notify_signup",
            "notify_signup_request",
            "notify_corrections",
        )
    },
}


def _forward(task: Task, new: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    renamed = task.app.tasks[new]
    if task.request.called_directly:
        return renamed(*args, **kwargs)
    renamed.apply_async(args, kwargs)
    return None


def _alias(old: str, new: str) -> None:
    def forward(self: Task, *args: Any, **kwargs: Any) -> Any:
        return _forward(self, new, args, kwargs)

    shared_task(name=old, bind=True, ignore_result=True)(forward)


for _old, _new in RENAMED.items():
    _alias(_old, _new)
