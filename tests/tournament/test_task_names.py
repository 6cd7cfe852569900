"""Tasks are named for where they live, ``tournament.tasks.<function>`` (the outbox's own
three ``tournament.outbox.*``); for one release the former names still run what was
queued under them (``tournament.tasks.renamed``), and migration 0016 renames the outbox
rows waiting under them."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.utils import timezone

from matches.models import Match
from tournament import outbox
from tournament.celery import app
from tournament.models import Event, OutboxTask
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.results import match_result_enter
from tournament.services.rounds import event_next_round
from tournament.tasks.outbox import run_outbox
from tournament.tasks.renamed import RENAMED

from .conftest import winning_games

TASKS = Path(__file__).resolve().parent.parent.parent / "tournament" / "tasks"

#: The outbox's own tasks, named for ``tournament/outbox.py``, which runs them by name.
OUTBOX_OWN = {
    "run_outbox": outbox.RUN_TASK,
    "run_batch": outbox.BATCH_TASK,
    "drain_outbox": "tournament.outbox.drain",
}

#: What makes a task: Celery's decorator, or its typed wrappers (``tournament.tasks.typed``).
DECORATORS = {"shared_task", "task", "bound_task"}


def _named_tasks() -> dict[str, str]:
    """Each task function of ``tournament/tasks/`` -> the name its decorator gives it."""
    names = {}
    for path in sorted(TASKS.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) in DECORATORS:
                    (name,) = [k.value for k in decorator.keywords if k.arg == "name"]
                    assert isinstance(name, ast.Constant), f"{path.name}: {node.name}"
                    names[node.name] = name.value
    return names


def test_each_task_is_named_tournament_tasks_and_its_function() -> None:
    named = _named_tasks()
    assert len(named) >= 20
    for function, name in named.items():
        assert name == OUTBOX_OWN.get(function, f"tournament.tasks.{function}"), function


def test_each_former_name_forwards_to_a_task_of_today() -> None:
    current = set(_named_tasks().values())
    assert len(RENAMED) == 12
    for old, new in RENAMED.items():
        assert old not in current
        assert new in current
        assert old in app.tasks
        assert new in app.tasks


def _reported_match(tournament: object, enter: object) -> Match:
    """A Swiss round-1 match, reported: complete, its advance waiting in the outbox."""
    event = event_create(
        tournament=tournament, name="Swiss", format=Event.Format.SWISS, match_lengths=[1]
    )
    enter(event, 4)  # type: ignore[operator]
    draw_make(event=event, method="rating")
    first = event_next_round(event=event).matches.order_by("slot").first()
    assert first is not None
    match_result_enter(match=first, games=winning_games(1, (0, 0), 1))
    first.refresh_from_db()
    assert first.status == Match.Status.COMPLETE
    assert first.advanced_at is None
    return first


@pytest.mark.django_db
def test_an_outbox_row_under_a_former_name_runs_its_task(tournament, enter) -> None:
    """A web node still on the old code writes the row under the former name; the outbox
    runs it through the alias, in its own process, and deletes it."""
    match = _reported_match(tournament, enter)
    OutboxTask.objects.filter(task=outbox.ADVANCE_TASK).update(
        task="tournament.tasks.match_completed"
    )
    row = OutboxTask.objects.get(task="tournament.tasks.match_completed", args__0=match.pk)
    assert run_outbox(row.pk) == "ran"
    match.refresh_from_db()
    assert match.advanced_at is not None
    assert not OutboxTask.objects.filter(pk=row.pk).exists()


def test_a_message_under_a_former_name_is_sent_on_under_the_new_one(monkeypatch) -> None:
    """A message already in the broker (or a beat on the old schedule): the alias sends it
    on under the new name, so the task's own options (retries, queue) apply."""
    sent: list[tuple[str, object, object]] = []
    for new in ("tournament.tasks.notify_signup", "tournament.tasks.apply_deadlines"):
        task = app.tasks[new]
        monkeypatch.setattr(
            task, "apply_async", lambda args, kwargs, name=new: sent.append((name, args, kwargs))
        )
    app.tasks["tournament.notifications.notify_signup"].apply(args=(7, "entered", None))
    app.tasks["tournament.tasks_scheduled.apply_deadlines"].apply()
    assert sent == [
        ("tournament.tasks.notify_signup", (7, "entered", None), {}),
        ("tournament.tasks.apply_deadlines", (), {}),
    ]


@pytest.mark.django_db
def test_the_migration_renames_the_waiting_rows_and_back() -> None:
    migration = importlib.import_module("tournament.migrations.0016_outbox_task_names")
    assert migration.RENAMED == RENAMED  # its frozen copy, while the aliases live
    now = timezone.now()
    untouched = "tournament.tasks.assign_opened_tables"
    for name in [*RENAMED, untouched]:
        OutboxTask.objects.create(task=name, args=[1], available_at=now)

    def names() -> list[str]:
        return sorted(OutboxTask.objects.values_list("task", flat=True))

    migration.rename(django_apps, None)
    assert names() == sorted([*RENAMED.values(), untouched])
    migration.rename_back(django_apps, None)
    assert names() == sorted([*RENAMED, untouched])
