"""A worker knows every task the site queues.

A prefork worker's main process accepts a message only for a task registered when
the app loaded; a task defined in a module nothing imports at start-up is dropped
as "unregistered" (the load test found the next-match emails lost that way).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
#: What makes a task: Celery's decorator, or its typed wrappers (``tournament.tasks.typed``).
DECORATORS = {"shared_task", "task", "bound_task"}


def _defined_tasks() -> set[str]:
    names = set()
    for path in [*ROOT.glob("tournament/**/*.py"), *ROOT.glob("matches/**/*.py")]:
        tree = ast.parse(path.read_text())
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for d in node.decorator_list:
                called = d.func if isinstance(d, ast.Call) else d
                if ast.unparse(called) in DECORATORS:  # an explicit name= wins over the path
                    named = [k.value for k in getattr(d, "keywords", []) if k.arg == "name"]
                    given = named[0].value if named and isinstance(named[0], ast.Constant) else None
                    names.add(given or f"{module}.{node.name}")
    return names


def test_every_task_is_registered_when_a_worker_starts() -> None:
    defined = _defined_tasks()
    assert "tournament.tasks.notify_match_ready" in defined
    script = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'tournament.settings');"
        "from tournament.celery import app; django.setup(); app.loader.import_default_modules();"
        "print('\\n'.join(sorted(app.tasks)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    registered = set(done.stdout.split())
    assert defined <= registered, f"unknown to a worker: {sorted(defined - registered)}"
