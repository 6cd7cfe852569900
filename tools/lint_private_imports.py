"""Fail on ``from x import _name``: a module's ``_private`` names are its own.

ruff's PLC2701 (``import-private-name``) passes over imports inside one top-level package,
which is where they happen here (``tournament.console.base._refusal`` in
``tournament.console.entries``). A helper that two modules share gets a public name where
it lives. ``__future__`` and dunder names (``__version__``) are left alone.

    python tools/lint_private_imports.py [PATH ...]   # exit 1 and one line per import
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOTS = ("matches", "tournament", "tests", "bench", "tools")
SKIP_PARTS = {".venv", "migrations", "node_modules", "__pycache__"}


def private_imports(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, module, name) for each private name ``path`` imports from another module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not name.startswith("__"):
                    yield node.lineno, module, name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(p.startswith("_") and not p.startswith("__") for p in alias.name.split(".")):
                    yield node.lineno, alias.name, alias.name


def python_files(args: list[str]) -> Iterator[Path]:
    for arg in args or ROOTS:
        root = Path(arg)
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for path in files:
            if not SKIP_PARTS.intersection(path.parts):
                yield path


def main(args: list[str]) -> int:
    found = 0
    for path in python_files(args):
        for line, module, name in private_imports(path):
            print(f"{path}:{line}: imports the private name {name} from {module}")
            found += 1
    if found:
        print(f"{found} import(s) of another module's private name: give the name a public one")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
