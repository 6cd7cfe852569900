"""PgBouncer serves again within seconds of PostgreSQL coming back.

After one failed login to the server (PostgreSQL restarting), PgBouncer refuses every
client at once for ``server_login_retry`` seconds, 15 by default: in ``make stress`` a
player's report got 503 for 13 s after PostgreSQL was up again. Here PostgreSQL is
reached through a TCP relay that is down, then up, with the cluster's PgBouncer settings.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from bench.cluster import PGBOUNCER, PGBOUNCER_INI, Part
from bench.server import free_port, wait_port
from tests.conftest import ROOT

pytestmark = pytest.mark.services

POSTGRESQL = ("127.0.0.1", 5432)


class Relay:
    """A TCP relay to PostgreSQL on ``port``: nothing listens until ``up()``."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server: socket.socket | None = None

    def up(self) -> None:
        self.server = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        threading.Thread(target=self._accept, daemon=True).start()

    def down(self) -> None:
        if self.server is not None:
            self.server.close()

    def _accept(self) -> None:
        assert self.server is not None
        with contextlib.suppress(OSError):
            while True:
                near, _ = self.server.accept()
                far = socket.create_connection(POSTGRESQL)
                for a, b in ((near, far), (far, near)):
                    threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


@pytest.fixture
def bouncer_before_a_relay() -> Iterator[tuple[Relay, int]]:
    if not Path(PGBOUNCER).exists():
        pytest.skip("pgbouncer is not installed (make deploy-deps)")
    directory = Path(tempfile.mkdtemp(prefix="bgd-bouncer-"))
    os.chmod(directory, 0o755)  # PgBouncer drops to the postgres user and reads its files
    relay, port = Relay(free_port()), free_port()
    (directory / "pgbouncer.ini").write_text(
        PGBOUNCER_INI.format(name="postgres", pg_port=relay.port, port=port, dir=directory, pool=2)
    )
    (directory / "userlist.txt").write_text('"postgres" ""\n')
    bouncer = Part("pgbouncer", [PGBOUNCER, str(directory / "pgbouncer.ini")], directory / "log")
    bouncer.start(os.environ)
    try:
        wait_port(port)
        yield relay, port
    finally:
        bouncer.stop()
        relay.down()
        shutil.rmtree(directory, ignore_errors=True)


def _query(port: int) -> None:
    with psycopg.connect(
        host="127.0.0.1", port=port, user="postgres", dbname="postgres", connect_timeout=3
    ) as conn:
        conn.execute("SELECT 1")


def test_pgbouncer_serves_again_within_seconds_of_postgresql(bouncer_before_a_relay):
    relay, port = bouncer_before_a_relay
    with pytest.raises(psycopg.OperationalError):
        _query(port)  # PostgreSQL is down: PgBouncer's login to it fails
    relay.up()
    back = time.monotonic()
    while True:
        try:
            _query(port)
            break
        except psycopg.OperationalError:
            assert time.monotonic() - back < 20, "PgBouncer still refuses after 20 s"
            time.sleep(0.1)
    waited = time.monotonic() - back
    assert waited < 4.0, f"PgBouncer served again {waited:.1f} s after PostgreSQL was back"


def test_the_deployed_pgbouncer_retries_as_soon_as_the_clusters() -> None:
    deployed = configparser.ConfigParser()
    deployed.read_string((ROOT / "deploy" / "pgbouncer.ini").read_text())
    cluster = configparser.ConfigParser()
    cluster.read_string(PGBOUNCER_INI)
    retry = deployed["pgbouncer"]["server_login_retry"]
    assert retry == cluster["pgbouncer"]["server_login_retry"]
    assert float(retry) <= 1
