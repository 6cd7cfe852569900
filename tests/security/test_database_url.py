"""``DATABASE_URL=sqlite:///...`` starts, and keeps the embedded default's options
(a lock timeout and IMMEDIATE transactions); PostgreSQL's options go to PostgreSQL only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("select 1")
    one = cursor.fetchone()[0]
db = settings.DATABASES["default"]
print(json.dumps({"engine": db["ENGINE"], "name": str(db["NAME"]), "options": db["OPTIONS"],
                  "one": one, "vendor": connection.vendor}))
"""


def _settings_in_subprocess(url: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "PYTHONPATH"}}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={
            **base,
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            "DEBUG": "1",
            "DATABASE_URL": url,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_sqlite_url_connects_with_the_embedded_defaults_options(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    found = _settings_in_subprocess(f"sqlite:///{path}")
    assert found["vendor"] == "sqlite"
    assert found["one"] == 1
    assert found["name"] == str(path)
    assert found["options"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}


def test_a_postgresql_url_keeps_server_side_binding() -> None:
    probe = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default']['OPTIONS']))"
    )
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "PYTHONPATH"}}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={
            **base,
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            "DEBUG": "1",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/bgdirector",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["server_side_binding"] is True
