"""A swiss-elimination event played through the API alone, round by round, timed.

gunicorn as deployed + a Celery worker + a private Redis + a throw-away PostgreSQL
database (``bench/server.py``). For each field size: create the event (out at 3 losses,
1-point matches), import the players in one request, draw, then for every round:
``POST /api/events/{id}/rounds/next/`` (pair and start it: timed), list its ready
matches, report each result with ``POST /api/matches/{id}/report/`` (timed, one client,
one after the other), and wait for the worker to close the round. Ends when the event
is finished; checks that nobody out was paired and that one champion is left (or the
playoff's winner).

    python bench/bench_elimination_api.py                  # 32 and 512 players
    python bench/bench_elimination_api.py --players 512 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server as servers  # noqa: E402

PG = os.environ.get("LOAD_PG", "postgres://postgres@127.0.0.1:5432")
ADMIN_URL = f"{PG}/postgres"
SECRET = "bench-elimination-secret-key-not-for-production"
#: A round is slow to pair and start past this (the issue's budget).
BUDGET_S = 5.0


@dataclass
class Stack:
    db_name: str
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
    db_name = f"bgdirector_elim_{os.getpid()}"
    url = servers.create_database(ADMIN_URL, db_name)
    redis_port, web_port = servers.free_port(), servers.free_port()
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    env = servers.server_env(
        database_url=url,
        redis_url=f"redis://127.0.0.1:{redis_port}/0",
        secret_key=SECRET,
        queue=f"elim-{os.getpid()}",
        cache_prefix=f"elim-{os.getpid()}",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        GUNICORN_BIND=f"127.0.0.1:{web_port}",
        WEB_CONCURRENCY=str(workers),
        LOG_LEVEL="ERROR",
    )
    stack = Stack(db_name, f"http://127.0.0.1:{web_port}", env)
    stack.procs.append(servers.start_redis(redis_port))
    servers.migrate(env)
    web_log, worker_log = (out / "elim-web.log").open("wb"), (out / "elim-worker.log").open("wb")
    stack.logs += [web_log, worker_log]
    stack.procs.append(servers.start_deployed_gunicorn(env, stdout=web_log, stderr=web_log))
    stack.procs.append(
        servers.start_celery_worker(
            env,
            queue=env["CELERY_QUEUE"],
            node=f"elim-{os.getpid()}",
            loglevel="WARNING",
            stdout=worker_log,
            stderr=worker_log,
        )
    )
    servers.wait_port(web_port)
    return stack


def director_token(env: dict[str, str]) -> str:
    """A director account made in the database (accounts are not made through the API)."""
    os.environ.update(
        {k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "CACHE_KEY_PREFIX")}
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from tournament.models import User

    director, _ = User.objects.get_or_create(username="elim-director")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    token, _ = Token.objects.get_or_create(user=director)
    return str(token.key)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if values else 0.0


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.client = httpx.Client(
            base_url=base, headers={"Authorization": f"Token {token}"}, timeout=120
        )

    def call(self, method: str, url: str, body: Any = None, ok: tuple[int, ...] = (200, 201)):
        response = self.client.request(method, url, json=body)
        if response.status_code not in ok:
            raise RuntimeError(f"{method} {url}: {response.status_code} {response.text[:400]}")
        return response

    def pages(self, url: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        next_url: str | None = url
        while next_url:
            body = self.call("GET", next_url).json()
            items += body["results"]
            next_url = body.get("next")
        return items


def csv_of(count: int, offset: int) -> str:
    lines = ["name,email,rating,club"]
    lines += [
        f"Bench Player {offset + k:04d},b{offset + k}@example.org,{1400 + (k * 53) % 500},"
        f"Club {k % 16}"
        for k in range(count)
    ]
    return "\n".join(lines) + "\n"


def games_for(match: dict[str, Any], side: int) -> list[dict[str, Any]]:
    """One-point matches: one game, won single by ``side``."""
    winner = match["player1"] if side == 1 else match["player2"]
    return [{"winner": winner, "cube": 1, "result": "single"}] * match["length"]


def run(api: Api, players: int, seed: int, offset: int) -> dict[str, Any]:
    rng = random.Random(seed)
    slug = f"elim-{players}-{offset}"
    api.call("POST", "/api/tournaments/", {"name": f"Elimination {players}", "slug": slug})
    event = api.call(
        "POST",
        f"/api/tournaments/{slug}/events/",
        {
            "name": "Main",
            "format": "swiss-elimination",
            "match_lengths": [1],
            "losses_to_eliminate": 3,
            "places_paid": 8,
        },
    ).json()
    eid = event["id"]
    started = time.perf_counter()
    api.call("POST", "/api/players/import/", {"csv": csv_of(players, offset), "event": eid})
    imported = time.perf_counter() - started
    started = time.perf_counter()
    api.call("POST", f"/api/events/{eid}/draw/", {"method": "random", "seed": seed})
    drawn = time.perf_counter() - started
    rounds: list[dict[str, Any]] = []
    problems: list[str] = []
    while True:
        before = {
            row["player"]: row
            for row in api.call("GET", f"/api/events/{eid}/standings/").json()["rows"]
        }
        t0 = time.perf_counter()
        answer = api.client.post(f"/api/events/{eid}/rounds/next/", json={})
        start_s = time.perf_counter() - t0
        if answer.status_code == 400:
            code = answer.json().get("code")
            if code in ("event-finished", "no-more-rounds"):
                break
            raise RuntimeError(f"next round: {answer.text[:400]}")
        if answer.status_code != 201:
            raise RuntimeError(f"next round: {answer.status_code} {answer.text[:400]}")
        started_round = answer.json()
        number = started_round["round"]["number"]
        bracket = started_round["round"]["bracket"]
        for match in started_round["matches"]:
            for player in (match["player1"], match["player2"]):
                if player is not None and before[player]["status"] != "alive":
                    problems.append(f"round {number}: player {player} is out, yet paired")
        t0 = time.perf_counter()
        ready = api.pages(f"/api/matches/?event={eid}&status=ready")
        list_s = time.perf_counter() - t0
        times: list[float] = []
        for match in ready:
            body = {"games": games_for(match, rng.choice([1, 2]))}
            t0 = time.perf_counter()
            api.call("POST", f"/api/matches/{match['id']}/report/", body)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        while True:  # the worker closes the round after the last result
            detail = api.call("GET", f"/api/events/{eid}/").json()
            statuses = {r["number"]: r["status"] for r in detail["round_list"]}
            if statuses.get(number) == "complete":
                break
            if time.perf_counter() - t0 > 120:
                raise RuntimeError(f"round {number} was not closed within 120 s")
            time.sleep(0.05)
        closed_s = time.perf_counter() - t0
        alive = sum(row["status"] == "alive" for row in before.values())
        rounds.append(
            {
                "round": number,
                "bracket": bracket,
                "alive": alive,
                "matches": len(started_round["matches"]),
                "pair_and_start_s": round(start_s, 2),
                "list_ready_s": round(list_s, 2),
                "reports": len(times),
                "reports_s": round(sum(times), 2),
                "report_p50_ms": round(statistics.median(times) * 1000, 1) if times else 0,
                "report_p95_ms": round(percentile(times, 95) * 1000, 1),
                "worker_closes_round_s": round(closed_s, 2),
                "load": round(os.getloadavg()[0], 1),
            }
        )
        print(json.dumps(rounds[-1]), flush=True)
    detail = api.call("GET", f"/api/events/{eid}/").json()
    rows = api.call("GET", f"/api/events/{eid}/standings/").json()["rows"]
    alive = [row for row in rows if row["status"] == "alive"]
    expected = len(detail["playoff"]["seeds"]) if detail["playoff"] else 1
    if detail["status"] != "finished":
        problems.append(f"the event is {detail['status']}, not finished")
    if len(alive) != expected:
        problems.append(f"{len(alive)} alive at the end, {expected} expected")
    if detail["champion"] is None or rows[0]["entry"] != detail["champion"]["entry"]:
        problems.append("the champion is not first in the standings")
    slowest = max(rounds, key=lambda r: r["pair_and_start_s"])
    return {
        "players": players,
        "import_s": round(imported, 2),
        "draw_s": round(drawn, 2),
        "rounds": len(rounds),
        "playoff": detail["playoff"],
        "slowest_pair_and_start": {
            k: slowest[k] for k in ("round", "alive", "pair_and_start_s", "load")
        },
        "over_budget": [r["round"] for r in rounds if r["pair_and_start_s"] > BUDGET_S],
        "all_reports": sum(r["reports"] for r in rounds),
        "all_reports_s": round(sum(r["reports_s"] for r in rounds), 1),
        "per_round": rounds,
        "problems": problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="32,512", help="field sizes, comma separated")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--json", type=Path, default=ROOT / "bench" / "out" / "elimination-api.json"
    )
    args = parser.parse_args(argv)
    stack = start_stack(args.workers)
    results: list[dict[str, Any]] = []
    try:
        api = Api(stack.base, director_token(stack.env))
        offset = 0
        for players in (int(p) for p in args.players.split(",")):
            results.append(run(api, players, args.seed, offset))
            offset += players
    finally:
        from django.db import connections

        connections.close_all()
        stack.stop()
        servers.drop_database(ADMIN_URL, stack.db_name)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1))
    for result in results:
        summary = {k: v for k, v in result.items() if k != "per_round"}
        print(json.dumps(summary, indent=1))
    bad = [r for r in results if r["problems"] or r["over_budget"]]
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
