"""Two beats started by mistake: each periodic job is sent once per run (a Redis lock).

Runs against a private redis-server on a free port (no other run shares its keys).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.test import override_settings

from bench.server import free_port, start_redis, terminate
from tournament.beat import SingleRunScheduler, claim_run, run_lock_key
from tournament.celery import app

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")


@pytest.fixture
def redis_url() -> Iterator[str]:
    port = free_port()
    proc = start_redis(port)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        terminate(proc)


class Sent(SingleRunScheduler):
    """A beat that records what it would send instead of sending it."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.sent: list[str] = []
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def apply_async(self, entry, producer=None, advance=True, **kwargs):  # type: ignore[no-untyped-def]
        self.sent.append(entry.name)


def beat(tmp_path: Path, name: str) -> Sent:
    return Sent(app=app, schedule_filename=str(tmp_path / name), lazy=True)


def test_two_beats_send_each_due_job_once(tmp_path: Path, redis_url: str) -> None:
    with override_settings(REDIS_URL=redis_url, CACHE_KEY_PREFIX="beat-test"):
        first, second = beat(tmp_path, "a"), beat(tmp_path, "b")
        first.setup_schedule()
        second.setup_schedule()
        for job in ("drain-outbox", "sweep-completed-matches", "apply-deadlines"):
            first.apply_entry(first.schedule[job])
            second.apply_entry(second.schedule[job])
        assert first.sent == ["drain-outbox", "sweep-completed-matches", "apply-deadlines"]
        assert second.sent == []
        client = redis.Redis.from_url(redis_url)
        assert client.exists("beat-test:beat:drain-outbox")
        ttl = client.pttl("beat-test:beat:drain-outbox")
        assert 0 < ttl <= 1600  # 80 % of its 2 s period: the next run is free again


def test_the_lock_frees_itself_for_the_next_run(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    with override_settings(CACHE_KEY_PREFIX="beat-test"):
        assert claim_run(client, "job", 0.2, "beat-1")
        assert not claim_run(client, "job", 0.2, "beat-2")
        assert client.get(run_lock_key("job")) == b"beat-1"
        time.sleep(0.3)
        assert claim_run(client, "job", 0.2, "beat-2")


def test_with_redis_away_the_job_is_sent_anyway() -> None:
    away = redis.Redis(port=free_port(), socket_connect_timeout=0.2)
    assert claim_run(away, "job", 60, "beat-1")
