"""The multi-node topology on loopback: nginx in front of two gunicorn nodes, PgBouncer
(transaction pooling) in front of PostgreSQL, two Celery workers, one beat, a private Redis.

``make cluster`` starts it for a person to look at (``python bench/cluster.py``: it
prints the addresses and runs until Ctrl-C); ``tests/stress/test_cluster.py`` starts it
to kill its parts during play. Every part listens on a free port of 127.0.0.1, keeps its
files under one temporary directory, and gets its own database
(``bgdirector_cluster_<pid>`` on the PostgreSQL of ``ADMIN_DATABASE_URL``), Redis key
prefix and queue. The app runs as deployed: ``deploy/gunicorn.conf.py``,
``DATABASE_POOL_MODE=transaction``, ``NUM_PROXIES=1``.

Each process is started in its own session (process group), so that ``kill`` takes a
node whole, as a machine dying would: the gunicorn master and its workers, the Celery
worker and its pool child.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.server import (
    BIN,
    ROOT,
    create_database,
    drop_database,
    edge_cache_conf,
    free_port,
    migrate,
    server_env,
    wait_healthy,
    wait_port,
)

ADMIN_DATABASE_URL = os.environ.get(
    "ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: Web processes per node and server connections PgBouncer keeps to PostgreSQL.
NODE_WORKERS = 2
POOL_SIZE = 10

NGINX_CONF = """\
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log error;
events {{ worker_connections 4096; }}
http {{
    log_format cluster '$msec $status $request_method "$request_uri" $upstream_addr '
                       '$upstream_status $request_time';
    access_log {dir}/nginx-access.log cluster;
    client_body_temp_path {dir}/nginx-body;
    proxy_temp_path {dir}/nginx-proxy;
    fastcgi_temp_path {dir}/nginx-fastcgi;
    uwsgi_temp_path {dir}/nginx-uwsgi;
    scgi_temp_path {dir}/nginx-scgi;
{edge}
    upstream bgdirector_web {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 3m;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 30s;
        location / {{
            include {dir}/bgd-edge-location.conf;
            proxy_pass http://bgdirector_web;
        }}
    }}
}}
"""

PGBOUNCER_INI = """\
[databases]
{name} = host=127.0.0.1 port={pg_port} dbname={name}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {dir}/userlist.txt
pool_mode = transaction
default_pool_size = {pool}
max_client_conn = 1000
server_reset_query =
ignore_startup_parameters = extra_float_digits
server_login_retry = 1
user = postgres
"""


@dataclass
class Part:
    """One started process group: how to start it again, and its log."""

    name: str
    argv: list[str]
    log: Path
    port: int | None = None
    proc: subprocess.Popen[bytes] | None = None

    def start(self, env: Mapping[str, str]) -> Part:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            self.argv, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        out.close()
        return self

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the whole process group and wait for its leader."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        self.kill(signal.SIGTERM)


@dataclass
class Cluster:
    """The topology; ``start()`` brings it up, ``stop()`` takes it down and drops its database."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bgd-cluster-")))
    name: str = field(default_factory=lambda: f"bgdirector_cluster_{os.getpid()}")
    parts: dict[str, Part] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    direct_url: str = ""
    nginx_port: int = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}"

    @property
    def queue(self) -> str:
        return f"cluster-{os.getpid()}"

    def part(self, name: str) -> Part:
        return self.parts[name]

    # ---- the parts ----------------------------------------------------------------

    def _define(self) -> None:
        d = self.root
        os.chmod(d, 0o755)  # PgBouncer drops to the postgres user and reads its files here
        redis_port, bouncer_port = free_port(), free_port()
        self.nginx_port = free_port()
        self.parts["redis"] = Part(
            "redis",
            [shutil.which("redis-server") or "redis-server", "--port", str(redis_port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            d / "redis.log", redis_port,
        )  # fmt: skip
        pg_port = int(ADMIN_DATABASE_URL.rsplit(":", 1)[1].split("/")[0])
        (d / "pgbouncer.ini").write_text(
            PGBOUNCER_INI.format(
                name=self.name, pg_port=pg_port, port=bouncer_port, dir=d, pool=POOL_SIZE
            )
        )
        (d / "userlist.txt").write_text('"postgres" ""\n')
        self.parts["pgbouncer"] = Part(
            "pgbouncer", [PGBOUNCER, str(d / "pgbouncer.ini")], d / "pgbouncer.log", bouncer_port
        )
        for n in (1, 2):
            port = free_port()
            self.parts[f"web{n}"] = Part(
                f"web{n}",
                [str(BIN / "gunicorn"), "tournament.wsgi", "-c", "deploy/gunicorn.conf.py",
                 "--bind", f"127.0.0.1:{port}", "--workers", str(NODE_WORKERS)],
                d / f"web{n}.log", port,
            )  # fmt: skip
            self.parts[f"worker{n}"] = Part(
                f"worker{n}",
                [sys.executable, "-m", "celery", "-A", "tournament", "worker",
                 "--pool=prefork", "--concurrency=1", "--loglevel=INFO",
                 "-Q", self.queue, "-n", f"cluster{n}-{os.getpid()}@%h"],
                d / f"worker{n}.log",
            )  # fmt: skip
        self.parts["beat"] = Part(
            "beat",
            [sys.executable, "-m", "celery", "-A", "tournament", "beat", "--loglevel=INFO",
             f"--schedule={d / 'celerybeat-schedule'}"],
            d / "beat.log",
        )  # fmt: skip
        servers = "\n".join(
            f"        server 127.0.0.1:{self.parts[f'web{n}'].port} max_fails=1 fail_timeout=2s;"
            for n in (1, 2)
        )
        (d / "nginx.conf").write_text(
            NGINX_CONF.format(dir=d, port=self.nginx_port, servers=servers, edge=edge_cache_conf(d))
        )
        self.parts["nginx"] = Part(
            "nginx", [NGINX, "-p", str(d), "-c", str(d / "nginx.conf")], d / "nginx.log",
            self.nginx_port,
        )  # fmt: skip

    def start(self) -> Cluster:
        self._define()
        self.direct_url = create_database(ADMIN_DATABASE_URL, self.name)
        _admin_sql(f"ALTER DATABASE \"{self.name}\" SET timezone TO 'UTC'")
        bouncer = self.parts["pgbouncer"]
        redis = self.parts["redis"]
        self.env = server_env(
            database_url=f"postgres://postgres@127.0.0.1:{bouncer.port}/{self.name}",
            redis_url=f"redis://127.0.0.1:{redis.port}/0",
            secret_key=secrets.token_urlsafe(50),
            queue=self.queue,
            cache_prefix=f"cluster-{os.getpid()}",
            DATABASE_POOL_MODE="transaction",
            NUM_PROXIES="1",
            SECURE_COOKIES="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        self.env.pop("DATABASE_PREPARED_STATEMENTS", None)
        migrate({**self.env, "DATABASE_URL": self.direct_url, "DATABASE_POOL_MODE": "session"})
        try:
            for name in ("redis", "pgbouncer"):
                self.restart(name)
            for name in ("web1", "web2", "worker1", "worker2", "beat", "nginx"):
                self.restart(name)
        except BaseException:
            self.stop()
            raise
        return self

    def restart(self, name: str) -> float:
        """Stop part ``name`` if it runs (SIGTERM), start it again and wait until it
        serves; return the seconds it took."""
        started = time.monotonic()
        part = self.parts[name]
        part.stop()
        part.start(self.env)
        self.wait_ready(name)
        return time.monotonic() - started

    def wait_ready(self, name: str, timeout: float = 60.0) -> None:
        part = self.parts[name]
        assert part.proc is not None
        if name.startswith("web"):
            assert part.port is not None
            wait_healthy(part.port, part.proc, timeout)
        elif part.port is not None:
            wait_port(part.port, timeout)
        elif name.startswith("worker"):
            deadline = time.monotonic() + timeout
            while "ready." not in part.log.read_text(errors="replace"):
                if time.monotonic() > deadline or part.proc.poll() is not None:
                    raise RuntimeError(f"{name} did not start: see {part.log}")
                time.sleep(0.2)

    def stop(self) -> None:
        for part in reversed(list(self.parts.values())):
            part.stop()
        drop_database(ADMIN_DATABASE_URL, self.name)

    def logs(self) -> dict[str, str]:
        return {
            n: p.log.read_text(errors="replace") for n, p in self.parts.items() if p.log.exists()
        }


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(
        ADMIN_DATABASE_URL.replace("postgres://", "postgresql://"), autocommit=True
    ) as c:
        c.execute(sql)


def main() -> int:
    cluster = Cluster().start()
    print(f"cluster up under {cluster.root}")
    print(f"  nginx      {cluster.base}/  (two gunicorn nodes behind it)")
    for name, part in cluster.parts.items():
        where = f"127.0.0.1:{part.port}" if part.port else "-"
        print(f"  {name:10} {where:22} pid {part.proc.pid if part.proc else '-'}  log {part.log}")
    print(f"  database   {cluster.name} through PgBouncer (transaction pooling)")
    print("Ctrl-C stops everything and drops the database.")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
