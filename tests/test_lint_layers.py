"""The layers contracts inside ``matches`` and ``tournament`` (``pyproject.toml``, run by
``make lint``) refuse an import that runs up a floor: each case copies the apps to a
temporary directory, adds one such import there and runs ``lint-imports`` on the copy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).parent / "lint-imports"
APPS = ("core", "matches", "tournament")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The three packages and the contracts, as the repository has them now."""
    for app in APPS:
        shutil.copytree(
            ROOT / app,
            tmp_path / app,
            ignore=shutil.ignore_patterns("__pycache__", "static", "templates", "locale"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def _lint(project: Path, contract: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo", "--contract", contract],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
    )


def _inject(project: Path, module: str, imported: str) -> None:
    path = project / (module.replace(".", "/") + ".py")
    with path.open("a") as source:
        source.write(f"\nimport {imported}  # noqa: E402, F401  (an upward import)\n")


@pytest.mark.parametrize("contract", ["matches-layers", "tournament-layers"])
def test_the_copy_keeps_the_contract(project: Path, contract: str) -> None:
    """The control: the copy as it is keeps each contract (so a failure below is the
    injected import's)."""
    run = _lint(project, contract)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout


@pytest.mark.parametrize(
    ("contract", "module", "imported"),
    [
        ("matches-layers", "matches.models", "matches.services.reporting"),
        ("matches-layers", "matches.selectors", "matches.forms"),
        ("matches-layers", "matches.services.reporting", "matches.api.views"),
        ("tournament-layers", "tournament.models", "tournament.services.rounds"),
        ("tournament-layers", "tournament.selectors.brackets", "tournament.services.rounds"),
        ("tournament-layers", "tournament.services.rounds", "tournament.web.language"),
    ],
)
def test_an_upward_import_breaks_the_contract(
    project: Path, contract: str, module: str, imported: str
) -> None:
    _inject(project, module, imported)
    run = _lint(project, contract)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "0 kept, 1 broken" in run.stdout
    assert f"{module} -> {imported}" in run.stdout
