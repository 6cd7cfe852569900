"""Servers for the benchmarks and the fault tests: a throw-away PostgreSQL database,
a private redis-server, gunicorn and a Celery worker, on loopback, and waiting for them.

Imported as ``bench.server`` (a bench script puts the repository root on ``sys.path``;
pytest's ``pythonpath = ["."]`` does it for the tests). No Django import here: the
callers build the environment the servers read their settings from.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

Output = int | IO[bytes] | None  # what subprocess.Popen takes for stdout and stderr


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def reachable(url: str, default_port: int) -> bool:
    """Whether the host and port of ``url`` accept a TCP connection within 2 s."""
    parts = urlparse(url)
    try:
        socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), 2
        ).close()
    except OSError:
        return False
    return True


def services_reachable(database_url: str, redis_url: str) -> bool:
    """Whether PostgreSQL and Redis both answer at these URLs."""
    return reachable(database_url, 5432) and reachable(redis_url, 6379)


def wait_port(port: int, timeout: float = 30.0) -> None:
    """Return once something listens on 127.0.0.1:``port``; raise after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Return once ``GET /healthz`` on ``port`` answers 200; raise if ``proc`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer /healthz within {timeout:g} s")


def database_url(admin_url: str, name: str) -> str:
    """``admin_url`` (a URL of any database on the server) pointed at database ``name``."""
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


def _admin(admin_url: str, *statements: str) -> None:
    import psycopg

    with psycopg.connect(admin_url.replace("postgres://", "postgresql://"), autocommit=True) as c:
        for sql in statements:
            c.execute(sql)


def create_database(admin_url: str, name: str) -> str:
    """An empty database ``name`` (replacing any left by a crashed run); its URL."""
    _admin(admin_url, f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"')
    return database_url(admin_url, name)


def drop_database(admin_url: str, name: str) -> None:
    """Drop database ``name``, closing whatever sessions are still connected to it."""
    _admin(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(env: Mapping[str, str]) -> None:
    """``manage.py migrate`` against the database that ``env`` names."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def server_env(
    *,
    database_url: str,
    redis_url: str,
    secret_key: str,
    queue: str,
    cache_prefix: str,
    **extra: str,
) -> dict[str, str]:
    """This process's environment plus the settings of one run's servers, ``DEBUG`` removed.

    ``queue`` and ``cache_prefix`` keep the run's Celery tasks and cache keys apart
    from other runs on the same Redis; ``extra`` adds or overrides variables.
    """
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": secret_key,
        "CELERY_QUEUE": queue,
        "CACHE_KEY_PREFIX": cache_prefix,
        # A few links report as fast as the machine allows: the per-link limit is still
        # counted (its cost measured) but set out of reach.
        "REPORT_LINK_RATE": "1000000/min",
        **extra,
    }
    env.pop("DEBUG", None)
    return env


def start_redis(port: int, timeout: float = 30.0) -> subprocess.Popen[bytes]:
    """A redis-server on 127.0.0.1:``port`` that saves nothing, once it listens."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_port(port, timeout)
    except RuntimeError:
        proc.kill()
        proc.wait()
        raise
    return proc


def start_gunicorn(port: int, workers: int, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """gunicorn with ``workers`` sync workers on 127.0.0.1:``port``, backlog 2048, no
    deployment configuration, warnings only (stderr discarded). Not waited for."""
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tournament.wsgi:application",
         "--workers", str(workers), "--worker-class", "sync",
         "--bind", f"127.0.0.1:{port}", "--backlog", "2048", "--log-level", "warning"],
        cwd=ROOT, env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def start_deployed_gunicorn(
    env: Mapping[str, str], *args: str, stdout: Output = None, stderr: Output = None
) -> subprocess.Popen[bytes]:
    """gunicorn as deployed (``deploy/gunicorn.conf.py``; ``GUNICORN_BIND`` and
    ``WEB_CONCURRENCY`` in ``env`` say where and how many), plus ``args``. Not waited for."""
    return subprocess.Popen(
        [str(BIN / "gunicorn"), "tournament.wsgi", "-c", "deploy/gunicorn.conf.py", *args],
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stderr=stderr,
    )


def start_celery_worker(
    env: Mapping[str, str],
    *,
    queue: str,
    node: str,
    loglevel: str,
    stdout: Output = None,
    stderr: Output = None,
) -> subprocess.Popen[bytes]:
    """A Celery worker (prefork, one child) named ``node`` consuming only ``queue``."""
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "tournament", "worker"),
            *("--pool=prefork", "--concurrency=1", f"--loglevel={loglevel}"),
            *("-Q", queue, "-n", f"{node}@%h"),
        ],
        cwd=ROOT,
        env=env,
        stdout=stdout,
        stderr=stderr,
    )


def terminate(proc: subprocess.Popen[bytes] | None, timeout: float = 20.0) -> None:
    """Terminate ``proc`` if it runs and wait for it; kill it after ``timeout`` s."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


#: Where compose mounts the edge cache's location directives (deploy/nginx.conf includes it).
EDGE_LOCATION_MOUNT = "/etc/nginx/snippets/bgd-edge-location.conf"


def edge_cache_conf(directory: Path) -> str:
    """The shipped edge cache (deploy/nginx-edge-*.conf) for an nginx run in ``directory``:
    writes the location snippet there and returns the http-context text, its cache
    under ``directory``. A site's text then includes the snippet by
    :func:`edge_site_text`."""
    deploy = ROOT / "deploy"
    (directory / "edge-cache").mkdir(exist_ok=True)
    (directory / "bgd-edge-location.conf").write_text(
        (deploy / "nginx-edge-location.conf").read_text()
    )
    http = (deploy / "nginx-edge-cache.conf").read_text()
    return http.replace("/var/cache/nginx/bgd", str(directory / "edge-cache"))


def edge_site_text(site: str, directory: Path) -> str:
    """``site`` (deploy/nginx.conf's text) including the snippet :func:`edge_cache_conf` wrote."""
    return site.replace(EDGE_LOCATION_MOUNT, str(directory / "bgd-edge-location.conf"))
