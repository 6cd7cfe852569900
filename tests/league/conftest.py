"""Fixtures of the league tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run queued tasks at once, also in the PostgreSQL + Redis run (no worker needed)."""
    from tournament.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
