"""The console's tests run the bracket's follow-up work in the request's own process.

On the PostgreSQL + Redis run Celery would queue ``advance_match`` for a worker;
these tests are about the console, so tasks run eagerly there too (the pipeline
through a live worker is tested with the ``services`` marker elsewhere).

``browser_page`` is a Chromium page for the console's browser tests; their
screenshots go to test-artifacts/console/ (not committed) for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tournament.pages.caching import clear_caches

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"


@pytest.fixture
def browser_page(chromium: Any) -> Iterator[tuple[Any, list[str]]]:
    """A 1366x768 page and the console errors and uncaught exceptions it records."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    clear_caches()  # each test's database reuses ids: no page cached by an earlier test
    page = chromium.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(f"{m.text} {m.location.get('url', '')}")
            if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico")
            else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page, errors
    finally:
        # Playwright runs the test in a greenlet with its own context, so the test's
        # queries opened their own connection: close it there, or PostgreSQL refuses
        # to drop the test database at the end of the run.
        connections.close_all()
        page.close()
        clear_caches()


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Every console test runs its tasks in-process (tests/conftest.py's eager_tasks)."""
