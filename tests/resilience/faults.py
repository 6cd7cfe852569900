"""Services that the fault tests stop, kill and restart: a private Redis, Celery workers."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test import override_settings

from bench.server import (
    ROOT,
    free_port,
    server_env,
    start_celery_worker,
    start_deployed_gunicorn,
    start_redis,
    terminate,
    wait_port,
)
from tests.conftest import is_this_runs_node, this_runs_node


def _test_database_url() -> str:
    """The URL of the database this test run uses (for the servers it starts)."""
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _run_env(redis_url: str, **extra: str) -> dict[str, str]:
    """The environment of a server of this run: its database, queue, cache prefix, secret."""
    from tournament.celery import app

    return server_env(
        database_url=_test_database_url(),
        redis_url=redis_url,
        secret_key=settings.SECRET_KEY,
        queue=app.conf.task_default_queue,
        cache_prefix=settings.CACHES["default"]["KEY_PREFIX"],
        **extra,
    )


@dataclass
class PrivateRedis:
    """A redis-server of the test's own, on a free port, that it may stop and start again."""

    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = start_redis(self.port, timeout=10.0)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


@contextmanager
def broker_and_cache(url: str) -> Iterator[None]:
    """Point this process's Celery producer and Django cache at ``url`` for the block."""
    from tournament.celery import app

    def reset_pools() -> None:
        from kombu import pools

        pools.reset()  # close every broker connection pool and forget them (kombu's registry)
        app._after_fork()  # and the app's references to them

    old = app.conf.broker_url
    caches = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": settings.CACHES["default"].get("KEY_PREFIX", ""),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    reset_pools()
    app.conf.broker_url = url
    try:
        with override_settings(CACHES=caches, CELERY_BROKER_URL=url):
            yield
    finally:
        reset_pools()
        app.conf.broker_url = old


@dataclass
class Worker:
    """A ``celery worker`` (prefork, one child) on this run's queue of ``broker``."""

    broker: str
    name: str
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    def start(self) -> Worker:
        from tournament.celery import app

        self.log = ROOT / f".pytest-worker-{self.name}-{os.getpid()}.log"
        with self.log.open("wb") as out:
            self.proc = start_celery_worker(
                _run_env(self.broker),
                queue=app.conf.task_default_queue,
                node=this_runs_node(self.name),
                loglevel="INFO",
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        return self

    def children(self) -> list[int]:
        """The pool's child processes (the ones that run tasks)."""
        assert self.proc is not None
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def stop(self) -> None:
        terminate(self.proc, timeout=15)
        for child in self.children() if self.proc and self.proc.poll() is None else []:
            os.kill(child, 9)
        if self.log is not None:
            self.log.unlink(missing_ok=True)


def backends_waiting_for_a_lock() -> int:
    """PostgreSQL sessions of this database blocked on a row lock right now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


@dataclass
class WebServer:
    """gunicorn serving the site against the test database (and this run's Redis)."""

    workers: int = 2
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> WebServer:
        env = _run_env(
            settings.REDIS_URL,
            ALLOWED_HOSTS="127.0.0.1",
            GUNICORN_BIND=f"127.0.0.1:{self.port}",
            WEB_CONCURRENCY=str(self.workers),
            LOG_LEVEL="ERROR",
        )
        self.proc = start_deployed_gunicorn(
            env,
            *("--access-logfile", "/dev/null"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port, timeout=30)
        return self

    def stop(self) -> None:
        terminate(self.proc, timeout=20)


def wait_until_worker_idle(timeout: float = 30.0, *, live_only: bool = False) -> None:
    """Wait until this run's queue is empty and no worker runs a task of ours
    (``live_only``: the live worker of ``celery_worker_process``, when it is the only one).

    A test's tasks (advances, ratings, emails) may still run after its last assertion;
    flushing the database under them deadlocks (TRUNCATE against their row locks).
    """
    from tournament.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app.connection_for_write() as conn:
            waiting = 0
            for queue in (app.conf.task_default_queue, f"{app.conf.task_default_queue}.analysis"):
                with contextlib.suppress(Exception):  # Redis has no such list: nothing waits
                    waiting += conn.default_channel.queue_declare(queue, passive=True).message_count
        # Every worker on the broker answers (other runs', other xdist workers'): ours only.
        # Tasks a worker has taken but not started are "reserved", not "active".
        if live_only:
            # Asked by name, the live worker answers at once; a solo worker busy with a
            # task cannot answer at all, so no answer means busy, not idle.
            live = f"{this_runs_node('live')}@{os.uname().nodename}"
            inspect = app.control.inspect(destination=[live], limit=1, timeout=1.0)
            active, reserved = inspect.active(), inspect.reserved()
            idle = bool(active and reserved) and not (active.get(live) or reserved.get(live))
            if not waiting and idle:
                return
        else:
            inspect = app.control.inspect(timeout=0.5)
            tasks = {**(inspect.active() or {})}
            for node, reserved_tasks in (inspect.reserved() or {}).items():
                tasks[node] = [*tasks.get(node, []), *reserved_tasks]
            busy = [t for node, t in tasks.items() if is_this_runs_node(node)]
            if not waiting and not any(busy):
                return
        time.sleep(0.2)
