"""The console's tests run the bracket's follow-up work in the request's own process.

On the PostgreSQL + Redis run Celery would queue ``match_completed`` for a worker;
these tests are about the console, so tasks run eagerly there too (the pipeline
through a live worker is tested with the ``services`` marker elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tournament.celery import app


@pytest.fixture(autouse=True)
def eager_tasks() -> Iterator[None]:
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before
