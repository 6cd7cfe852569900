"""PostgreSQL restarted while players report (``make stress`` only: it restarts the
machine's cluster, so every connection on it drops for a moment).

gunicorn serves the test database; clients keep reporting the games of four long
matches through the API while the cluster restarts. One report is made to wait on
the match's row lock (held by the test) when the restart begins, so a request is
always caught by it, whatever the timing: it gets a clean JSON error (503, or the
API's JSON 500), never a half-stored report. The next one after the restart
succeeds (persistent connections are health-checked); every accepted game is
stored once; the matches then finish and the bracket moves on.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import httpx
import psycopg
import pytest
from django.conf import settings
from django.db import connections

from matches.models import Game, Match, Submission
from tests.resilience.faults import WebServer, wait_until_worker_idle
from tests.resilience.invariants import assert_invariants
from tests.resilience.world import build_world

pytestmark = [pytest.mark.stress, pytest.mark.services, pytest.mark.django_db(transaction=True)]


def restart_postgresql() -> None:
    (version,) = os.listdir("/etc/postgresql")
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"],
        check=True,
        timeout=120,
        capture_output=True,
    )


def postgresql_answers() -> bool:
    try:
        with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", connect_timeout=1):
            return True
    except psycopg.OperationalError:
        return False


def database_dsn() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@contextmanager
def match_row_locked(match: Match) -> Iterator[None]:
    """Hold the match's row lock from outside the server, as a slow report would.

    The connection dies with the restart; that is expected and ignored on the way out.
    """
    conn = psycopg.connect(database_dsn(), autocommit=False)
    try:
        conn.execute(f"SELECT 1 FROM {Match._meta.db_table} WHERE id = %s FOR UPDATE", [match.pk])
        yield
    finally:
        with suppress(psycopg.Error):
            conn.close()


def lock_waiters() -> int:
    """Server backends of the test database waiting on a lock."""
    with psycopg.connect(database_dsn(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    assert row is not None
    return int(row[0])


class Reporter:
    """Reports the next game of each match in turn; counts what the server answered."""

    def __init__(self, client: httpx.Client, matches: list[Match]) -> None:
        self.client = client
        self.matches = matches
        self.next = {m.pk: 1 for m in matches}
        self.answers: Counter[tuple[int, str]] = Counter()
        self.answered = 0  # requests answered below 500: each is a stored submission
        self.cut_off = 0  # requests answered 5xx: stored whole or not at all
        self.turn = itertools.cycle(matches)
        self.counting = threading.Lock()  # the held-up report answers from its own thread

    def open(self) -> list[Match]:
        return [m for m in self.matches if self.next[m.pk] <= m.length]

    def report(
        self,
        match: Match | None = None,
        client: httpx.Client | None = None,
        skip: Match | None = None,
    ) -> httpx.Response:
        """Report the next game of ``match`` (default: the next open match but ``skip``)."""
        if match is None:
            match = next(m for m in self.turn if self.next[m.pk] <= m.length and m != skip)
        winner = match.entry1
        assert winner is not None
        response = (client or self.client).post(
            f"/api/matches/{match.pk}/games/",
            json={"winner": winner.player_id, "game_number": self.next[match.pk]},
            headers={"X-Report-Key": winner.report_key},
        )
        code = response.json().get("code", "") if response.status_code >= 400 else ""
        with self.counting:
            return self._count(match, response, code)

    def _count(self, match: Match, response: httpx.Response, code: str) -> httpx.Response:
        self.answers[(response.status_code, code)] += 1
        if response.status_code >= 500:
            self.cut_off += 1
            assert response.status_code in (500, 503), response.text
            assert code in ("service-unavailable", "server-error"), response.text
            return response
        self.answered += 1
        if response.status_code == 201 or code == "game-already-recorded":
            # Accepted now, or by an earlier request whose answer the restart swallowed.
            self.next[match.pk] += 1
            return response
        raise AssertionError(f"unexpected answer {response.status_code}: {response.text}")


def test_requests_during_a_postgresql_restart_fail_cleanly_and_lose_nothing(
    celery_worker_process, wait_for
) -> None:
    world = build_world(size=8, lengths=(25,))
    matches = world.matches(1)
    server = WebServer(workers=2).start()
    try:
        with httpx.Client(base_url=server.base, timeout=15) as client:
            reporter = Reporter(client, matches)
            for _ in range(4):
                assert reporter.report().status_code == 201
            held_up = matches[0]
            held: list[httpx.Response] = []
            with match_row_locked(held_up), httpx.Client(base_url=server.base, timeout=60) as own:
                waiting = threading.Thread(
                    target=lambda: held.append(reporter.report(held_up, client=own))
                )
                waiting.start()
                wait_for(lambda: lock_waiters() > 0, timeout=15)
                restart = threading.Thread(target=restart_postgresql)
                restart.start()
                succeeded_after = False
                deadline = time.monotonic() + 90
                while (restart.is_alive() or not succeeded_after) and time.monotonic() < deadline:
                    try:
                        response = reporter.report(skip=held_up if waiting.is_alive() else None)
                    except httpx.TransportError as exc:
                        pytest.fail(f"the web server stopped answering: {exc!r}")
                    if response.status_code < 500 and not restart.is_alive():
                        succeeded_after = True
                    time.sleep(0.03)
                restart.join(60)
                waiting.join(60)
            assert not restart.is_alive()
            assert not waiting.is_alive()
            assert postgresql_answers()
            assert len(held) == 1
            assert held[0].status_code in (500, 503), f"held-up report: {held[0].text}"
            assert succeeded_after, f"no report succeeded after the restart: {reporter.answers}"
            while reporter.open():  # play on to the end; each loser confirms
                assert reporter.report().status_code == 201
            for match in matches:
                assert match.entry2 is not None
                confirm = client.post(
                    f"/api/matches/{match.pk}/confirm/",
                    json={},
                    headers={"X-Report-Key": match.entry2.report_key},
                )
                assert confirm.status_code == 200, confirm.text
                reporter.answered += 1
    finally:
        server.stop()
        connections.close_all()  # this thread's connection died with the restart
    print(f"answers: {dict(reporter.answers)}")
    for match in matches:  # every accepted game once: none lost, none doubled
        assert Game.objects.filter(match=match, voided=False).count() == match.length
    stored = Submission.objects.filter(match__in=matches).count()
    assert reporter.answered <= stored <= reporter.answered + reporter.cut_off
    wait_for(
        lambda: not Match.objects.filter(pk__in=[m.pk for m in matches], advanced_at=None).exists(),
        timeout=90,
    )
    assert_invariants(event_ids=[world.event.pk])
    wait_until_worker_idle()
