"""Every formats module's doctests (the test paths do not collect ``tournament/`` itself)."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import tournament.formats

MODULES = sorted(
    f"tournament.formats.{info.name}" for info in pkgutil.iter_modules(tournament.formats.__path__)
)


def test_every_module_is_listed() -> None:
    assert "tournament.formats.swiss" in MODULES
    assert len(MODULES) >= 11


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_no_django_import() -> None:
    """The formats import nothing from Django (the parent package's Celery app aside)."""
    for path in Path(tournament.formats.__path__[0]).glob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                assert not words[1].startswith("django"), f"{path.name}: {line}"


def test_works_without_django_settings() -> None:
    """Importable and usable with no settings module configured."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = (
        "from tournament.formats import first_round, swiss_pairings; "
        "assert first_round([1, 2, 3]) == [(1, None), (2, 3)]; "
        "assert swiss_pairings([1, 2]).pairings == ((1, 2),)"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root, env=env)
