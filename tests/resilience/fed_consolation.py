"""A 16-player Main feeding a Consolation, played through the API as the outside client of
issue 13 played it: up to eight matches at once, rounds started by the director while
the worker seats the Main's losers in the Consolation, ratings computed alongside.

Each phase releases at once (``run_at_once``: one thread and connection per request)
every ready match, played to its end by its players' links, and the start of every
round that may start next, a little later than the reports so that it meets the
worker's advances. Then the worker finishes, and no match may be stuck: both players
seated in a started round yet still ``pending``.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Q
from rest_framework.test import APIClient

from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.resilience.concurrency import run_at_once
from tests.resilience.faults import Worker, wait_until_worker_idle
from tests.resilience.invariants import assert_invariants
from tests.resilience.racing import token_headers
from tests.resilience.world import World
from tournament.models import Event, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import round_start

_names = itertools.count(1)
#: Phases are far more than a 16-player Main and its Consolation need.
MAX_PHASES = 30


@dataclass
class Tally:
    """Every answer of a run: status codes, and any 5xx with its body."""

    codes: list[int] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)

    def add(self, path: str, response: Any) -> int:
        self.codes.append(response.status_code)
        if response.status_code >= 500:
            self.server_errors.append(f"{path}: {response.status_code} {response.content[:300]!r}")
        return int(response.status_code)


#: PostgreSQL (15+) publishes a session's pending statistics within 10 s of it going idle.
STATS_DELAY = 11.0


def deadlocks_settled() -> int:
    """Deadlocks PostgreSQL has detected in this database so far, once every session's
    statistics have been published (the worker's connections stay open and idle)."""
    time.sleep(STATS_DELAY)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def build_main_and_consolation(size: int = 16) -> tuple[World, Event]:
    """A drawn ``size``-player Main (round 1 started) feeding a Consolation from rounds 1-2."""
    n = next(_names)
    director = UserFactory(username=f"fed-director-{n}")
    tournament = TournamentFactory(director=director, name=f"Fed Open {n}", slug=f"fed-{n}")
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1, 2],
    )
    accounts = [UserFactory(username=f"fed{n}-player-{i}") for i in range(size)]
    players = [PlayerFactory(name=f"Fed {n}-{i:02d}", user=a) for i, a in enumerate(accounts)]
    for player in players:
        entry_register(event=main, player=player)
    draw_make(event=main, method="manual", order=[p.pk for p in players])
    round_start(round_=main.rounds.get(bracket=Round.Bracket.MAIN, number=1))
    main.refresh_from_db()
    world = World(
        tournament=tournament,
        event=main,
        director=director,
        other_director=director,
        other_tournament=tournament,
        players=players,
        accounts=accounts,
    )
    return world, consolation


def _post(tally: Tally, path: str, headers: dict[str, str]) -> Callable[..., int]:
    def post(body: dict[str, Any]) -> int:
        return tally.add(path, APIClient().post(path, body, format="json", **headers))

    return post


def match_play(match: Match, tally: Tally) -> Callable[[], None]:
    """Entry 1 reports the games it wins by its link; entry 2 confirms."""
    e1, e2 = match.entry1, match.entry2
    assert e1 is not None
    assert e2 is not None
    base = f"/api/matches/{match.pk}"

    def play() -> None:
        report = _post(tally, f"{base}/games/", {"HTTP_X_REPORT_KEY": e1.report_key})
        for number in range(1, match.length + 1):
            report({"winner": e1.player_id, "game_number": number})
        _post(tally, f"{base}/confirm/", {"HTTP_X_REPORT_KEY": e2.report_key})({})

    return play


def _start(
    round_id: int, headers: dict[str, str], delay: float, tally: Tally
) -> Callable[[], None]:
    def start() -> None:
        time.sleep(delay)  # meet the worker's advances of the matches just played
        _post(tally, f"/api/rounds/{round_id}/start/", headers)({})

    return start


def startable_rounds(event_ids: list[int]) -> list[Round]:
    """Each bracket's first pending round whose previous round has started."""
    found = []
    rounds = list(
        Round.objects.filter(event_id__in=event_ids).order_by("event_id", "bracket", "number")
    )
    for (_, _), group in itertools.groupby(rounds, key=lambda r: (r.event_id, r.bracket)):
        previous: Round | None = None
        for round_ in group:
            if round_.status == Round.Status.PENDING:
                if previous is None or previous.status != Round.Status.PENDING:
                    found.append(round_)
                break
            previous = round_
    return found


def stuck_matches(event_ids: list[int]) -> list[Match]:
    """Matches with both players in a started round that are still ``pending``."""
    return list(
        Match.objects.filter(
            event_id__in=event_ids,
            status=Match.Status.PENDING,
            is_bye=False,
            entry1__isnull=False,
            entry2__isnull=False,
        )
        .exclude(round__status=Round.Status.PENDING)
        .order_by("pk")
    )


def play_main_and_consolation(
    world: World, consolation: Event, *, seed: int, at_once: int = 8
) -> Tally:
    """Play both events to their champions through the API; fail on a stuck match."""
    rng = random.Random(seed)
    tally = Tally()
    director = token_headers(world, world.director)
    events = [world.event.pk, consolation.pk]
    for _phase in range(MAX_PHASES):
        ready = list(
            Match.objects.filter(event_id__in=events, status=Match.Status.READY)
            .select_related("entry1", "entry2")
            .order_by("pk")[:at_once]
        )
        starts = startable_rounds(events)
        if not ready and not starts:
            break
        calls: list[Callable[[], None]] = [match_play(m, tally) for m in ready]
        calls += [_start(r.pk, director, rng.uniform(0.0, 0.6), tally) for r in starts]
        outcomes = run_at_once(calls)
        errors = [o.error for o in outcomes if o.error is not None]
        assert not errors, errors
        wait_until_worker_idle(timeout=60)
        stuck = stuck_matches(events)
        assert not stuck, f"stuck matches (both players, round started, pending): {stuck}"
    assert not tally.server_errors, tally.server_errors
    unfinished = Event.objects.filter(pk__in=events).exclude(status=Event.Status.FINISHED)
    assert not unfinished.exists(), [
        (
            e.name,
            e.status,
            list(e.matches.exclude(status=Match.Status.COMPLETE).values_list("pk", "status")),
        )
        for e in unfinished
    ]
    assert not Match.objects.filter(
        Q(event_id__in=events), status=Match.Status.COMPLETE, advanced_at__isnull=True
    ).exists()
    assert_invariants(event_ids=events)
    return tally


@pytest.fixture
def second_worker(celery_worker_process: Any) -> Iterator[Worker]:
    """A second worker process beside the session's: a deployment's worker runs more than
    one task at a time (advances and ratings together)."""
    worker = Worker(broker=settings.REDIS_URL, name="fed").start()
    yield worker
    worker.stop()


def run_repetitions(repetitions: int) -> None:
    """Play ``repetitions`` Main + Consolation pairs; PostgreSQL detects no deadlock."""
    before = deadlocks_settled()
    requests = 0
    for repetition in range(repetitions):
        world, consolation = build_main_and_consolation()
        tally = play_main_and_consolation(world, consolation, seed=repetition)
        assert 201 in tally.codes
        requests += len(tally.codes)
    found = deadlocks_settled() - before
    print(f"fed consolation: {repetitions} runs, {requests} requests, {found} deadlocks")
    assert found == 0, f"PostgreSQL detected {found} deadlock(s): see its server log"
