"""Every test here must be marked ``stress``: ``make test``'s stages do not even import this
folder (tests/conftest.py ``pytest_ignore_collect``), so an unmarked one would never run."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects anything
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    unmarked = [
        i.nodeid for i in items if HERE in i.path.parents and i.get_closest_marker("stress") is None
    ]
    if unmarked:
        raise pytest.UsageError(f"tests in tests/stress/ must be marked stress: {unmarked}")
