"""Reporting against the real services: PostgreSQL row locks, a live Celery worker, Redis lost.

These run in the PostgreSQL + Redis run (``make test-services``). The Redis-loss
story also runs on the SQLite default, with the sweep's task run eagerly once
Redis is back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections
from django.test import override_settings
from django.utils import timezone
from kombu import pools as kombu_pools

from bench.server import free_port, start_redis
from matches.models import Game, Match, Submission
from tests.conftest import this_runs_node
from tests.matches.test_api import Bracket, game, make_bracket
from tournament.celery import app
from tournament.tasks import advance as tasks

ROOT = Path(__file__).resolve().parents[2]


def _redis(port: int) -> subprocess.Popen[bytes]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    return start_redis(port, timeout=10.0)


class PrivateRedis:
    """A redis-server of the test's own that it may stop and start again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = _redis(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def start(self) -> None:
        self.proc = _redis(self.port)


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    redis = PrivateRedis()
    yield redis
    redis.stop()


def _reset_producers() -> None:
    """Drop every pooled broker connection, so the next task is sent to the broker now set.

    kombu keeps producer pools in a process-wide registry as well as on the app:
    closing only the app's leaves a closed pool there for the next test to acquire.
    """
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    kombu_pools.reset()


@contextmanager
def broker_and_cache(url: str) -> Iterator[None]:
    """Celery's broker (not eager) and Django's cache on ``url`` for the block."""
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    cache = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"t-{uuid.uuid4().hex[:8]}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    _reset_producers()
    app.conf.broker_url, app.conf.task_always_eager = url, False
    try:
        with override_settings(CACHES=cache, CELERY_BROKER_URL=url, CELERY_TASK_ALWAYS_EAGER=False):
            yield
    finally:
        _reset_producers()
        app.conf.broker_url, app.conf.task_always_eager = saved
        _reset_producers()


@contextmanager
def worker_on(broker_url: str) -> Iterator[subprocess.Popen[bytes]]:
    """A ``celery worker`` process consuming ``broker_url``, using the test database."""
    db = settings.DATABASES["default"]
    name = this_runs_node(f"reporting-{uuid.uuid4().hex[:6]}")
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": broker_url,
        "CELERY_QUEUE": app.conf.task_default_queue,
        "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        "SECRET_KEY": settings.SECRET_KEY,
    }
    log = ROOT / f".pytest-worker-{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tournament", "worker", "--pool=solo",
             "-Q", app.conf.task_default_queue, "-n", f"{name}@%h", "--loglevel=INFO"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    log.unlink(missing_ok=True)


def play_to_reported(b: Bracket) -> Match:
    """Player 1 reports an 8-0 win in two games (reported, awaiting confirmation)."""
    match = b.first
    client = b.link_client(match, 1)
    for number in (1, 2):
        answer = game(client, match, winner=match.entry1.player_id, cube=4, game_number=number)
        assert answer.status_code == 201, answer.json()
    return Match.objects.get(pk=match.pk)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_fifty_threads_reporting_the_same_game_leave_exactly_one() -> None:
    b = make_bracket()
    match = b.first
    clients = [
        b.link_client(match, 1),
        b.link_client(match, 2),
        b.client_for(b.director),
    ]
    barrier = threading.Barrier(50)
    answers: list[int] = []
    lock = threading.Lock()

    def report(i: int) -> None:
        try:
            client = clients[i % len(clients)]
            barrier.wait(timeout=30)
            answer = game(client, match, winner=match.entry1.player_id, cube=2, game_number=1)
            with lock:
                answers.append(answer.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=report, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(answers) == [201] + [409] * 49
    assert Game.objects.filter(match=match, voided=False).count() == 1
    match.refresh_from_db()
    assert (match.score1, match.score2) == (2, 0)
    submissions = Submission.objects.filter(match=match)
    assert submissions.count() == 50
    assert submissions.filter(status="accepted").count() == 1
    assert sorted(submissions.values_list("version", flat=True)) == list(range(1, 51))
    assert set(submissions.filter(status="rejected").values_list("error_code", flat=True)) == {
        "game-already-recorded"
    }


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_confirmed_match_moves_the_bracket_on_in_the_live_worker(
    celery_worker_process, wait_for
) -> None:
    b = make_bracket()
    match = play_to_reported(b)
    confirmed = b.link_client(match, 2).post(f"/api/matches/{match.pk}/confirm/")
    assert confirmed.json()["status"] == "complete"
    final = wait_for(lambda: Match.objects.filter(pk=b.final.pk, entry1=match.entry1_id).first())
    assert final.entry1_id == match.entry1_id
    assert Match.objects.get(pk=match.pk).advanced_at is not None


def _report_while_redis_is_down(b: Bracket, redis: PrivateRedis) -> Match:
    match = play_to_reported(b)
    redis.stop()
    confirmed = b.link_client(match, 2).post(f"/api/matches/{match.pk}/confirm/")
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["status"] == "complete"
    match.refresh_from_db()
    assert (match.status, match.winner_id, match.advanced_at) == (
        "complete",
        match.entry1_id,
        None,
    )
    assert Match.objects.get(pk=b.final.pk).entry1_id is None
    redis.start()
    # The sweep leaves a just-completed match to its own task for a grace period.
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - tasks.SWEEP_GRACE * 2)
    return match


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_redis_stopped_during_a_report_loses_nothing_and_the_sweep_finishes_the_work(
    private_redis: PrivateRedis, wait_for
) -> None:
    with broker_and_cache(private_redis.url):
        b = make_bracket()
        match = _report_while_redis_is_down(b, private_redis)
        with worker_on(private_redis.url):
            assert tasks.sweep_completed_matches() >= 1
            final = wait_for(
                lambda: Match.objects.filter(pk=b.final.pk, entry1=match.entry1_id).first(),
                timeout=40,
            )
    assert final.entry1_id == match.entry1_id
    assert Match.objects.get(pk=match.pk).advanced_at is not None
    assert Game.objects.filter(match=match, voided=False).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.embedded
def test_redis_stopped_during_a_report_on_the_sqlite_default(private_redis: PrivateRedis) -> None:
    if settings.DATABASE_URL:
        pytest.skip("the PostgreSQL run has the live-worker version of this test")
    with broker_and_cache(private_redis.url):
        b = make_bracket()
        match = _report_while_redis_is_down(b, private_redis)
        app.conf.task_always_eager = True  # no worker can reach an in-memory SQLite database
        assert tasks.sweep_completed_matches() >= 1
    final = Match.objects.get(pk=b.final.pk)
    assert final.entry1_id == match.entry1_id
    assert Match.objects.get(pk=match.pk).advanced_at is not None
