"""Services that the fault tests stop, kill and restart: a private Redis, Celery workers."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"redis-server did not listen on {port}")


@dataclass
class PrivateRedis:
    """A redis-server of the test's own, on a free port, that it may stop and start again."""

    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        _wait_port(self.port)

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
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
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

        db = settings.DATABASES["default"]
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "REDIS_URL": self.broker,
            "CELERY_QUEUE": app.conf.task_default_queue,
            "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
            "SECRET_KEY": settings.SECRET_KEY,
        }
        self.log = ROOT / f".pytest-worker-{self.name}-{os.getpid()}.log"
        out = self.log.open("wb")
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "tournament", "worker"),
                *("--pool=prefork", "--concurrency=1", "--loglevel=INFO"),
                *("-Q", app.conf.task_default_queue, "-n", f"{self.name}-{os.getpid()}@%h"),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()
        return self

    def children(self) -> list[int]:
        """The pool's child processes (the ones that run tasks)."""
        assert self.proc is not None
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
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
        from tournament.celery import app

        db = settings.DATABASES["default"]
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "REDIS_URL": settings.REDIS_URL,
            "CELERY_QUEUE": app.conf.task_default_queue,
            "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
            "SECRET_KEY": settings.SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1",
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(self.workers),
            "LOG_LEVEL": "ERROR",
        }
        env.pop("DEBUG", None)
        self.proc = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                *(
                    "tournament.wsgi",
                    "-c",
                    "deploy/gunicorn.conf.py",
                    "--access-logfile",
                    "/dev/null",
                ),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_port(self.port, timeout=30)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def wait_until_worker_idle(timeout: float = 30.0) -> None:
    """Wait until this run's queue is empty and no worker runs a task of ours.

    A test's tasks (advances, ratings, emails) may still run after its last assertion;
    flushing the database under them deadlocks (TRUNCATE against their row locks).
    """
    from tournament.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with app.connection_for_write() as conn:
            try:
                waiting = conn.default_channel.queue_declare(
                    app.conf.task_default_queue, passive=True
                ).message_count
            except Exception:  # Redis has no such list: nothing waits
                waiting = 0
        busy = app.control.inspect(timeout=0.5).active() or {}
        if not waiting and not any(busy.values()):
            return
        time.sleep(0.2)
