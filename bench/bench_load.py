"""Load test: a 256-player single-elimination event played to the end through the API.

Starts, on loopback only, a private redis-server, gunicorn (3 sync workers) and a
real Celery worker against a fresh PostgreSQL database; a director creates the
players, the tournament, the event and its entries through the API, draws and
starts every round; then concurrent clients (threads with httpx keep-alive
connections) play each match as it becomes ready: game reports by both players'
private links, then the opponent's confirmation. The bracket moves on in the
worker. Measured: requests per second, p50/p99 latency by kind, and the time
from an accepted report to the public match page showing its score (sampled).
The run ends by checking the invariants of ``tests/resilience/invariants.py``.

    python bench/bench_load.py [--players 256] [--clients 16] [--length 3]
                               [--deadline 900] [--json bench/out/load.json]

Exits 0 when the event finished within the deadline with no server error and the
invariants hold.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server as servers  # noqa: E402

PG = os.environ.get("LOAD_PG", "postgres://postgres@127.0.0.1:5432")
ADMIN_URL = f"{PG}/postgres"
SECRET = "load-test-secret-key-not-for-production"


@dataclass
class Stack:
    """The servers of one run and how to stop them."""

    db_name: str
    redis_url: str
    base: str
    env: dict[str, str]
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in self.logs:
            log.close()


def start_stack(workers: int) -> Stack:
    db_name = f"bgdirector_load_{os.getpid()}"
    url = servers.create_database(ADMIN_URL, db_name)
    redis_port, web_port = servers.free_port(), servers.free_port()
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    env = servers.server_env(
        database_url=url,
        redis_url=f"redis://127.0.0.1:{redis_port}/0",
        secret_key=SECRET,
        queue=f"load-{os.getpid()}",
        cache_prefix=f"load-{os.getpid()}",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        GUNICORN_BIND=f"127.0.0.1:{web_port}",
        WEB_CONCURRENCY=str(workers),
        LOG_LEVEL="ERROR",
    )
    stack = Stack(db_name, env["REDIS_URL"], f"http://127.0.0.1:{web_port}", env)
    stack.procs.append(servers.start_redis(redis_port))
    servers.migrate(env)
    web_log, worker_log = (out / "load-web.log").open("wb"), (out / "load-worker.log").open("wb")
    stack.logs += [web_log, worker_log]
    stack.procs.append(servers.start_deployed_gunicorn(env, stdout=web_log, stderr=web_log))
    stack.procs.append(
        servers.start_celery_worker(
            env,
            queue=env["CELERY_QUEUE"],
            node=f"load-{os.getpid()}",
            loglevel="WARNING",
            stdout=worker_log,
            stderr=worker_log,
        )
    )
    servers.wait_port(web_port)
    return stack


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children so far, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


# ---- measuring ------------------------------------------------------------------------


@dataclass
class Tally:
    """Every request's kind, status and time; sampled report-to-page delays."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    page_delays: list[float] = field(default_factory=list)
    stored_expected: Counter[int] = field(default_factory=Counter)

    def record(self, kind: str, response: httpx.Response, seconds: float) -> None:
        with self.lock:
            self.samples[kind].append(seconds)
            self.statuses[(kind, response.status_code)] += 1
            if response.status_code >= 500:
                self.failures.append(f"{kind} {response.request.url}: {response.status_code}")


def timed(
    tally: Tally, client: httpx.Client, kind: str, method: str, url: str, **kw: Any
) -> httpx.Response:
    started = time.perf_counter()
    response = client.request(method, url, **kw)
    tally.record(kind, response, time.perf_counter() - started)
    return response


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# ---- the run --------------------------------------------------------------------------


SCORES = re.compile(r'<td class="big">(\d+)</td>')
#: Share of matches whose reports are followed to the public page (each poll is a request).
SAMPLED = 0.1


@dataclass
class Event:
    id: int
    keys: dict[int, str]  # player id -> private report key


def set_up(base: str, players: int, length: int, tally: Tally) -> tuple[Event, str]:
    """Director account, then everything else through the API."""
    import django

    django.setup()
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from tournament.models import Entry, User

    director = User.objects.create_user("load-director", password="load-pass-123456")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    token = Token.objects.create(user=director).key
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as api:

        def post(kind: str, url: str, body: dict[str, Any]) -> dict[str, Any]:
            response = timed(tally, api, kind, "POST", url, json=body)
            if response.status_code not in (200, 201):
                raise RuntimeError(f"{url}: {response.status_code} {response.text[:300]}")
            return response.json()

        slug = post("setup", "/api/tournaments/", {"name": "Load Open", "slug": "load-open"})[
            "slug"
        ]
        event = post(
            "setup",
            f"/api/tournaments/{slug}/events/",
            {"name": "Main", "format": "single-elimination", "match_lengths": [length]},
        )
        ids = [
            post("setup", "/api/players/", {"name": f"Load Player {i:03d}"})["id"]
            for i in range(players)
        ]
        for player_id in ids:
            post("setup", f"/api/events/{event['id']}/entries/", {"player": player_id})
        post("setup", f"/api/events/{event['id']}/draw/", {"method": "random", "seed": 8})
        detail = timed(tally, api, "setup", "GET", f"/api/events/{event['id']}/").json()
        rounds = sorted(
            (r for r in detail["round_list"] if r["bracket"] == "main"),
            key=lambda r: r["number"],
        )
        for round_ in rounds:  # every round may start once the one before has
            post("setup", f"/api/rounds/{round_['id']}/start/", {})
    keys = dict(Entry.objects.filter(event_id=event["id"]).values_list("player_id", "report_key"))
    return Event(id=event["id"], keys=keys), token


def play(base: str, event: Event, clients: int, deadline: float, tally: Tally, seed: int) -> bool:
    """Clients play ready matches until the event is finished (or the deadline)."""
    ready: queue.Queue[dict[str, Any]] = queue.Queue()
    seen: set[int] = set()
    done = threading.Event()
    rng_lock = threading.Lock()
    rng = random.Random(seed)

    def scout() -> None:
        with httpx.Client(base_url=base, timeout=30) as api:
            while not done.is_set() and time.monotonic() < deadline:
                page = timed(
                    tally,
                    api,
                    "list",
                    "GET",
                    "/api/matches/",
                    params={"event": event.id, "status": "ready", "limit": 500},
                )
                for match in page.json()["results"]:
                    if match["id"] not in seen:
                        seen.add(match["id"])
                        ready.put(match)
                state = timed(tally, api, "event", "GET", f"/api/events/{event.id}/").json()
                if state["status"] == "finished":
                    done.set()
                    return
                time.sleep(0.25)

    def watch(api: httpx.Client, match_id: int, score: list[int], accepted_at: float) -> None:
        while time.monotonic() < deadline:
            html = timed(tally, api, "page", "GET", f"/matches/{match_id}/").text
            if [int(s) for s in SCORES.findall(html)[:2]] == score:
                with tally.lock:
                    tally.page_delays.append(time.perf_counter() - accepted_at)
                return
            time.sleep(0.02)

    def client(index: int) -> None:
        with httpx.Client(base_url=base, timeout=30) as api:
            while not done.is_set() and time.monotonic() < deadline:
                try:
                    match = ready.get(timeout=0.2)
                except queue.Empty:
                    continue
                with rng_lock:
                    winner_side = rng.choice((1, 2))
                    loser_first = rng.random() < 0.5
                    sample = rng.random() < SAMPLED
                play_match(api, match, winner_side, loser_first, sample)

    def play_match(
        api: httpx.Client, match: dict[str, Any], winner_side: int, loser_first: bool, sample: bool
    ) -> None:
        players = (match["player1"], match["player2"])
        winner, loser = players[winner_side - 1], players[2 - winner_side]
        wins = [winner] * match["length"]
        if loser_first and match["length"] > 1:
            wins.insert(0, loser)
        score = [0, 0]
        reporter = winner
        for number, who in enumerate(wins, start=1):
            reporter = players[number % 2]  # the two players take turns reporting
            response = timed(
                tally,
                api,
                "game",
                "POST",
                f"/api/matches/{match['id']}/games/",
                json={"winner": who, "game_number": number},
                headers={"X-Report-Key": event.keys[reporter]},
            )
            tally.stored_expected[match["id"]] += 1
            if response.status_code != 201:
                tally.failures.append(f"game {number} of {match['id']}: {response.text[:200]}")
                return
            score[players.index(who)] += 1
            if sample:
                watch(api, match["id"], list(score), time.perf_counter())
        confirmer = players[1] if reporter == players[0] else players[0]
        response = timed(
            tally,
            api,
            "confirm",
            "POST",
            f"/api/matches/{match['id']}/confirm/",
            json={},
            headers={"X-Report-Key": event.keys[confirmer]},
        )
        tally.stored_expected[match["id"]] += 1
        if response.status_code != 200:
            tally.failures.append(f"confirm {match['id']}: {response.text[:200]}")

    threads = [threading.Thread(target=scout, daemon=True)]
    threads += [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()) + 30)
    return done.is_set()


def check(event_id: int, tally: Tally) -> list[str]:
    """The invariants, and the event's end state."""
    from django.db import connections

    from matches.models import Match
    from tests.resilience.invariants import invariant_violations
    from tournament.models import Event as EventModel

    connections.close_all()
    problems = invariant_violations(event_ids=[event_id], submissions=dict(tally.stored_expected))
    event = EventModel.objects.get(pk=event_id)
    if event.status != EventModel.Status.FINISHED or event.champion_id is None:
        problems.append(f"event {event_id} is {event.status} with no champion")
    open_matches = Match.objects.filter(event_id=event_id).exclude(status="complete").count()
    if open_matches:
        problems.append(f"{open_matches} matches are not complete")
    unadvanced = Match.objects.filter(event_id=event_id, advanced_at__isnull=True).count()
    if unadvanced:
        problems.append(f"{unadvanced} complete matches never moved the bracket on")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds for the play")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "out" / "load.json")
    args = parser.parse_args(argv)

    stack = start_stack(args.workers)
    os.environ.update(
        {
            k: stack.env[k]
            for k in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "CELERY_QUEUE", "CACHE_KEY_PREFIX")
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    tally = Tally()
    report: dict[str, Any] = {}
    try:
        started = time.perf_counter()
        event, _token = set_up(stack.base, args.players, args.length, tally)
        setup_seconds = time.perf_counter() - started
        setup_requests = sum(n for (k, _), n in tally.statuses.items() if k == "setup")
        web, worker = stack.procs[1].pid, stack.procs[2].pid
        cpu_before = (cpu_seconds(web), cpu_seconds(worker))
        play_started = time.perf_counter()
        finished = play(
            stack.base, event, args.clients, time.monotonic() + args.deadline, tally, args.seed
        )
        play_seconds = time.perf_counter() - play_started
        cpu_web = cpu_seconds(web) - cpu_before[0]
        cpu_worker = cpu_seconds(worker) - cpu_before[1]
        problems = check(event.id, tally)
        play_kinds = ("game", "confirm", "list", "event", "page")
        play_requests = sum(n for (k, _), n in tally.statuses.items() if k in play_kinds)
        reports = sum(n for (k, _), n in tally.statuses.items() if k in ("game", "confirm"))
        everything = [s for k in play_kinds for s in tally.samples[k]]
        report = {
            "players": args.players,
            "clients": args.clients,
            "gunicorn_workers": args.workers,
            "match_length": args.length,
            "finished": finished,
            "setup": {"requests": setup_requests, "seconds": round(setup_seconds, 1)},
            "play": {
                "seconds": round(play_seconds, 1),
                "requests": play_requests,
                "requests_per_s": round(play_requests / play_seconds, 1),
                "reports": reports,
                "reports_per_s": round(reports / play_seconds, 1),
                "p50_ms": round(statistics.median(everything) * 1000, 1) if everything else 0,
                "p99_ms": round(percentile(everything, 99) * 1000, 1),
                "web_cpu_ms_per_request": round(cpu_web / max(play_requests, 1) * 1000, 1),
                "worker_cpu_s": round(cpu_worker, 1),
                "load_average": os.getloadavg()[0],
            },
            "latency_ms": {
                kind: {
                    "n": len(tally.samples[kind]),
                    "p50": round(percentile(tally.samples[kind], 50) * 1000, 1),
                    "p99": round(percentile(tally.samples[kind], 99) * 1000, 1),
                }
                for kind in ("setup", *play_kinds)
            },
            "report_to_public_page_ms": {
                "n": len(tally.page_delays),
                "p50": round(percentile(tally.page_delays, 50) * 1000, 1),
                "p99": round(percentile(tally.page_delays, 99) * 1000, 1),
                "max": round(max(tally.page_delays, default=0) * 1000, 1),
            },
            "statuses": {f"{k} {s}": n for (k, s), n in sorted(tally.statuses.items())},
            "server_errors": len(tally.failures),
            "failures": tally.failures[:20],
            "invariant_problems": problems[:20],
        }
    finally:
        from django.db import connections

        connections.close_all()
        stack.stop()
        servers.drop_database(ADMIN_URL, stack.db_name)
    worker_log = (ROOT / "bench" / "out" / "load-worker.log").read_text(errors="replace")
    worker_errors = [
        line for line in worker_log.splitlines() if "Traceback" in line or "ERROR" in line
    ]
    report["worker_errors"] = len(worker_errors)
    if worker_errors:
        report["invariant_problems"] = [
            *report.get("invariant_problems", []),
            f"the Celery worker logged {len(worker_errors)} errors (bench/out/load-worker.log)",
        ]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    ok = report.get("finished") and not tally.failures and not report.get("invariant_problems")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
