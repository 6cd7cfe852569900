"""Lost services on PostgreSQL: Redis stopped during a burst of reports, a Celery worker
killed while it advances a bracket. Nothing accepted is lost, and the bracket ends
as a run without faults leaves it.

Each test runs its own redis-server (broker and cache of this process and of its
workers), so stopping it disturbs nobody else. Recovery is the system's own: the
worker reconnects, a task lost with its worker process is redelivered (late
acknowledgement), and the beat's sweep re-queues complete matches whose bracket
never moved on (run here with the clock moved past its grace period).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.db import connections, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match
from tests.resilience.faults import (
    PrivateRedis,
    Worker,
    backends_waiting_for_a_lock,
    broker_and_cache,
)
from tests.resilience.invariants import assert_invariants, bracket_by_place
from tests.resilience.world import World, build_world
from tournament.models import Event
from tournament.tasks.advance import SWEEP_GRACE, sweep_completed_matches

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


def _ping(wait_for: Any) -> None:
    from tournament.celery import app

    wait_for(lambda: app.control.ping(timeout=0.5), timeout=30)


def play_api(match: Match, winner_side: int = 1) -> list[int]:
    """The winner reports the games through the API with their link; the loser confirms."""
    match = Match.objects.select_related("entry1", "entry2").get(pk=match.pk)
    winner = match.entry1 if winner_side == 1 else match.entry2
    loser = match.entry2 if winner_side == 1 else match.entry1
    assert winner is not None
    assert loser is not None
    codes = []
    for number in range(1, match.length + 1):
        response = APIClient().post(
            f"/api/matches/{match.pk}/games/",
            {"winner": winner.player_id, "game_number": number},
            format="json",
            HTTP_X_REPORT_KEY=winner.report_key,
        )
        codes.append(response.status_code)
    response = APIClient().post(
        f"/api/matches/{match.pk}/confirm/", {}, format="json", HTTP_X_REPORT_KEY=loser.report_key
    )
    codes.append(response.status_code)
    return codes


def _advanced(*matches: Match) -> bool:
    return not Match.objects.filter(
        pk__in=[m.pk for m in matches], advanced_at__isnull=True
    ).exists()


def _sweep_later() -> int:
    """The beat's sweep, run as it would be once the grace period has passed."""
    with time_machine.travel(timezone.now() + 2 * SWEEP_GRACE, tick=True):
        return sweep_completed_matches()


def _reference(wait_for: Any, size: int, winners: dict[int, int]) -> World:
    """The same event played without a fault (winner side by round-1 slot)."""
    world = build_world(size=size, lengths=(1,))
    first = world.matches(1)
    for slot, side in winners.items():
        play_api(first[slot], side)
    wait_for(lambda: _advanced(*first), timeout=60)
    return world


def _by_place(world: World) -> list[tuple[object, ...]]:
    return bracket_by_place(world.event.pk, [p.pk for p in world.players])


def test_redis_stopped_in_the_middle_of_a_burst_of_reports(redis: PrivateRedis, wait_for) -> None:
    worker = Worker(redis.url, "burst")
    with broker_and_cache(redis.url):
        try:
            worker.start()
            _ping(wait_for)
            world = build_world(size=8, lengths=(1,))
            first = world.matches(1)
            winners = {0: 1, 1: 2, 2: 1, 3: 2}
            codes = play_api(first[0], 1) + play_api(first[1], 2)
            wait_for(lambda: _advanced(first[0], first[1]), timeout=60)

            redis.stop()  # broker and cache gone mid-burst
            started = time.monotonic()
            codes += play_api(first[2], 1) + play_api(first[3], 2)
            outage_seconds = time.monotonic() - started
            assert codes == [201, 200] * 4, codes
            assert outage_seconds < 30
            for match in first[2:]:
                stored = Match.objects.get(pk=match.pk)
                assert stored.status == Match.Status.COMPLETE
                assert stored.advanced_at is None  # its follow-up task could not be queued

            redis.start()  # back, empty: whatever was queued during the outage is gone
            assert _sweep_later() == 2
            wait_for(lambda: _advanced(*first), timeout=60)
            seated = [(m.entry1_id, m.entry2_id) for m in world.matches(2)]
            assert seated == [
                (first[0].entry1_id, first[1].entry2_id),
                (first[2].entry1_id, first[3].entry2_id),
            ]
            assert_invariants(event_ids=[world.event.pk], submissions={m.pk: 2 for m in first})
            assert _by_place(world) == _by_place(_reference(wait_for, 8, winners))
        finally:
            worker.stop()
            connections.close_all()


class EventLock(threading.Thread):
    """Holds an event's row lock in its own connection until released."""

    def __init__(self, event_id: int) -> None:
        super().__init__(daemon=True)
        self.event_id = event_id
        self.held = threading.Event()
        self.release = threading.Event()

    def run(self) -> None:
        try:
            with transaction.atomic():
                Event.objects.select_for_update().get(pk=self.event_id)
                self.held.set()
                self.release.wait(60)
        finally:
            connections.close_all()


@pytest.mark.parametrize("victim", ["pool-child", "whole-worker"])
def test_a_worker_killed_while_advancing_a_bracket(
    victim: str, redis: PrivateRedis, wait_for
) -> None:
    worker = Worker(redis.url, f"kill-{victim}")
    replacement: Worker | None = None
    with broker_and_cache(redis.url):
        try:
            worker.start()
            _ping(wait_for)
            world = build_world(size=4, lengths=(1,))
            first, second = world.matches(1)
            play_api(second, 2)
            wait_for(lambda: _advanced(second), timeout=60)

            lock = EventLock(world.event.pk)
            lock.start()
            assert lock.held.wait(10)
            assert play_api(first, 1) == [201, 200]
            # The worker took the task and now waits for the event row inside match_advance.
            wait_for(lambda: backends_waiting_for_a_lock() >= 1, timeout=30)
            children = worker.children()
            assert children
            if victim == "pool-child":
                os.kill(children[0], signal.SIGKILL)  # the pool re-queues the unacked task
            else:
                for pid in [worker.proc.pid, *children]:  # type: ignore[union-attr]
                    os.kill(pid, signal.SIGKILL)
            lock.release.set()
            lock.join(10)
            if victim == "whole-worker":
                time.sleep(1)
                assert not _advanced(first)  # the dead worker's transaction was rolled back
                replacement = Worker(redis.url, "replacement").start()
                _ping(wait_for)
                assert _sweep_later() == 1
            wait_for(lambda: _advanced(first), timeout=90)
            final = world.matches(2)[0]
            assert (final.entry1_id, final.entry2_id) == (first.entry1_id, second.entry2_id)
            assert_invariants(event_ids=[world.event.pk], submissions={first.pk: 2, second.pk: 2})
            assert _by_place(world) == _by_place(_reference(wait_for, 4, {0: 1, 1: 2}))
        finally:
            worker.stop()
            if replacement is not None:
                replacement.stop()
            connections.close_all()
