"""``DATABASE_POOL_MODE``: the database options each pool mode gives (settings read in a
fresh interpreter, since the environment is read once at import)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

URL = "postgres://app@pgbouncer:6432/bgdirector"
SHOW = (
    "import json, tournament.settings as s; d = s.DATABASES['default']; "
    "print(json.dumps({'options': d['OPTIONS'], "
    "'no_cursors': d.get('DISABLE_SERVER_SIDE_CURSORS', False), "
    "'max_age': d['CONN_MAX_AGE'], 'health': d['CONN_HEALTH_CHECKS']}))"
)


def database_settings(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    done = subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        env={**clean, "DATABASE_URL": URL, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout))


def test_session_pooling_by_default_prepares_statements_and_keeps_named_cursors() -> None:
    assert database_settings() == {
        "options": {"server_side_binding": True, "prepare_threshold": 5},
        "no_cursors": False,
        "max_age": 600,
        "health": True,
    }


def test_transaction_pooling_turns_off_prepared_statements_and_server_side_cursors() -> None:
    assert database_settings(DATABASE_POOL_MODE="transaction") == {
        "options": {"prepare_threshold": None},
        "no_cursors": True,
        "max_age": 600,
        "health": True,
    }


def test_transaction_pooling_with_a_pooler_that_tracks_prepared_statements() -> None:
    got = database_settings(DATABASE_POOL_MODE="transaction", DATABASE_PREPARED_STATEMENTS="1")
    assert got["options"] == {"server_side_binding": True, "prepare_threshold": 5}
    assert got["no_cursors"] is True


def test_prepared_statements_can_be_turned_off_without_a_pooler() -> None:
    assert database_settings(DATABASE_PREPARED_STATEMENTS="0")["options"] == {
        "prepare_threshold": None
    }


def test_an_unknown_pool_mode_is_refused_at_start() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failed:
        database_settings(DATABASE_POOL_MODE="statement")
    assert "DATABASE_POOL_MODE must be" in str(failed.value.stderr)
