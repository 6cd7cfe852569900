"""How long a 512-player Swiss round takes to close after its last result, through the API.

Starts gunicorn (3 sync workers) and a real Celery worker (prefork, one child) on a
throw-away PostgreSQL database, the shared Redis (a queue and key prefix of its own).
A director creates the tournament, a 512-player Swiss event (1-point matches), draws
and starts round 1 through the API; then ``--clients`` concurrent clients report all
256 results (``POST /api/matches/{id}/report/``) as fast as the server answers. From
the answer to the last report on, one client polls ``GET /api/rounds/{id}/`` until the
round shows ``complete`` and then ``POST /api/events/{id}/rounds/next/`` until it is
accepted. Measured after the last result (target: within 2 s): the round complete, and
the next round startable (when the first accepted start request was sent; the time its
answer took, pairing 512 players and opening 256 matches, is printed beside it); the
reporting rate; the load average at the start.

    .venv/bin/python bench/bench_round_close.py [--players 512] [--clients 8] [--runs 1]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server as servers  # noqa: E402

PG = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
TARGET_S = 2.0
GIVE_UP_S = 120.0


def director_token(env: dict[str, str]) -> str:
    code = """
import django
django.setup()
from django.contrib.auth.models import Permission
from rest_framework.authtoken.models import Token
from tournament.models import User
u = User.objects.create_user("bench-director", password="bench-pass-123456")
u.user_permissions.add(Permission.objects.get(codename="add_tournament"))
print(Token.objects.create(user=u).key)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def ok(response: httpx.Response, *codes: int) -> Any:
    if response.status_code not in (codes or (200, 201)):
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text[:300]}")
    return response.json()


def enter(env: dict[str, str], event_id: int, count: int) -> None:
    """``count`` rated players entered in event ``event_id`` (rows: the sign-up is not measured)."""
    code = f"""
import django
django.setup()
from tournament.models import Entry, Player
players = Player.objects.bulk_create(
    Player(name=f"Bench {{k:04d}}", rating=1400 + (k * 53) % 500) for k in range({count})
)
Entry.objects.bulk_create(Entry(event_id={event_id}, player=p) for p in players)
"""
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)


def one_round(
    env: dict[str, str], base: str, token: str, players: int, clients: int, run: int
) -> dict[str, float]:
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=60) as api:
        slug = f"swiss-{run}"
        ok(api.post("/api/tournaments/", json={"name": f"Swiss {run}", "slug": slug}))
        event = ok(
            api.post(
                f"/api/tournaments/{slug}/events/",
                json={"name": "Main", "format": "swiss", "match_lengths": [1], "rounds": 5},
            )
        )
        enter(env, event["id"], players)
        ok(api.post(f"/api/events/{event['id']}/draw/", json={"method": "rating"}))
        started = ok(api.post(f"/api/events/{event['id']}/rounds/next/"))
        round_id = started["round"]["id"]
        todo = [m for m in started["matches"] if m["status"] == "ready"]

    lock = threading.Lock()
    last_answer = [0.0]
    errors: list[str] = []

    def reporter(share: list[dict[str, Any]]) -> None:
        with httpx.Client(base_url=base, headers=headers, timeout=60) as api:
            for match in share:
                winner = match["player1"] if match["id"] % 2 else match["player2"]
                body = {"games": [{"winner": winner, "cube": 1, "result": "single"}]}
                r = api.post(f"/api/matches/{match['id']}/report/", json=body)
                with lock:
                    last_answer[0] = max(last_answer[0], time.perf_counter())
                    if r.status_code != 201:
                        errors.append(f"{match['id']}: {r.status_code} {r.text[:200]}")

    began = time.perf_counter()
    threads = [threading.Thread(target=reporter, args=(todo[c::clients],)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    last = last_answer[0]
    if errors:
        raise RuntimeError(f"{len(errors)} reports refused, first: {errors[0]}")
    complete_after = next_after = float("nan")
    with httpx.Client(base_url=base, headers=headers, timeout=60) as api:
        while time.perf_counter() - last < GIVE_UP_S:
            if ok(api.get(f"/api/rounds/{round_id}/"))["status"] == "complete":
                complete_after = time.perf_counter() - last
                break
            time.sleep(0.05)
        next_answered = float("nan")
        while time.perf_counter() - last < GIVE_UP_S:
            sent = time.perf_counter()
            r = api.post(f"/api/events/{event['id']}/rounds/next/")
            if r.status_code == 201:  # accepted: it was startable when the request left
                next_after = sent - last
                next_answered = time.perf_counter() - last
                break
            time.sleep(0.05)
    return {
        "matches": len(todo),
        "report_s": last - began,
        "complete_s": complete_after,
        "next_s": next_after,
        "next_answered_s": next_answered,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    if not servers.services_reachable(PG, REDIS):
        print("SKIPPED: PostgreSQL or Redis is not reachable (BENCH_DATABASE_URL, BENCH_REDIS_URL)")
        return 0
    name = f"bench_round_close_{os.getpid()}"
    env = servers.server_env(
        database_url=servers.database_url(PG, name),
        redis_url=REDIS,
        secret_key="bench-only-secret",
        queue=f"bench-rc-{os.getpid()}",
        cache_prefix=f"bench-rc-{os.getpid()}",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="tournament.settings",
    )
    load = os.getloadavg()
    servers.create_database(PG, name)
    server = worker = None
    results = []
    (ROOT / "bench" / "out").mkdir(exist_ok=True)
    log = (ROOT / "bench" / "out" / "round-close-worker.log").open("wb")
    try:
        servers.migrate(env)
        token = director_token(env)
        port = servers.free_port()
        server = servers.start_gunicorn(port, 3, env)
        worker = servers.start_celery_worker(
            env,
            queue=env["CELERY_QUEUE"],
            node=f"bench-rc-{os.getpid()}",
            loglevel="WARNING",
            stdout=log,
            stderr=log,
        )
        servers.wait_healthy(port, server)
        for run in range(args.runs):
            results.append(
                one_round(env, f"http://127.0.0.1:{port}", token, args.players, args.clients, run)
            )
    finally:
        servers.terminate(worker)
        servers.terminate(server)
        log.close()
        time.sleep(0.5)
        servers.drop_database(PG, name)
    print(
        f"{args.players}-player Swiss round 1 through the API: gunicorn 3 sync workers, "
        f"1 Celery worker, {args.clients} reporting clients; load average at start "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    for r in results:
        met = r["complete_s"] <= TARGET_S and r["next_s"] <= TARGET_S
        print(
            f"{r['matches']:.0f} results reported in {r['report_s']:.1f} s; after the last: "
            f"round complete {r['complete_s']:.2f} s, next round startable {r['next_s']:.2f} s "
            f"(target <= {TARGET_S:g} s: {'MET' if met else 'NOT MET'}; pairing and starting "
            f"it answered at {r['next_answered_s']:.2f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
