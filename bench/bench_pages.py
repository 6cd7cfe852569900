"""The event page of a 1,024-player Main, cached and uncached, against a trivial Django view.

All three are served by the same gunicorn (3 sync workers, PostgreSQL with persistent
connections, Redis cache) in the same run, with the same number of concurrent
clients (one process each, a new connection per request, as sync workers close them,
sending ``Accept-Encoding: gzip`` as browsers do; sizes printed are as sent):

* trivial: ``GET /bench/trivial/`` (routed only with ``BENCH_ENDPOINTS=1``): the same
  middleware, no query, no template, a few bytes: the ceiling for any page here;
* cached: ``GET /t/bench-open/main/``, the Main's bracket (1,023 matches, its
  Consolation drawn beside it) served from the cache;
* uncached: the same page, but each client bumps the event's version in Redis before
  every request, exactly what an accepted result does, so every request rebuilds it.

The event is built through the services (draw, round start, 256 round-1 results
entered by the director, 16 matches in play). Phases alternate (trivial, cached,
uncached, twice) so drift on this shared machine hits all three. A throw-away
database is created and dropped.

    .venv/bin/python bench/bench_pages.py [--clients 8] [--seconds 6]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server as servers  # noqa: E402

PG = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
WARMUP = 1.0
PLAYERS = 1024
#: What a browser sends: the page may come gzipped (as stored in the cache).
HEADERS = {"Host": "127.0.0.1", "Accept-Encoding": "gzip, deflate, br"}

SEED = """
import json, django
django.setup()
from matches.models import Match
from matches.access import Actor
from core.http import RequestMeta
from matches.services.reporting import GameInput, game_report
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.results import match_result_enter
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create
from tournament.models import Entry, Player, Round
from tournament.services.results import GameResult

t = tournament_create(name="Bench Open", slug="bench-open", venue="Bench Hall")
main = event_create(tournament=t, name="Main", slug="main", match_lengths=[11, 11, 13, 17])
event_create(tournament=t, name="Consolation", slug="consolation", match_lengths=[9],
                      feeds_from=main, feed_rounds=[1, 2])
players = Player.objects.bulk_create(
    Player(name=f"Player {k:04d}", rating=1300 + (k * 37) % 500) for k in range(PLAYERS)
)
Entry.objects.bulk_create(Entry(event=main, player=p) for p in players)
draw_make(event=main, method="random", seed=1)
round_start(round_=main.rounds.get(bracket=Round.Bracket.MAIN, number=1))
ready = list(Match.objects.filter(event=main, status=Match.Status.READY).order_by("slot"))
for match in ready[:256]:
    match_result_enter(match=match, games=[
        GameResult(winner=1 + match.slot % 2, cube=8), GameResult(winner=1 + match.slot % 2, cube=2),
        GameResult(winner=1 + match.slot % 2),
    ])
for match in ready[256:272]:
    game_report(match_id=match.pk, actor=Actor(entry=match.entry1),
                game=GameInput(winner=match.entry1.player_id), meta=RequestMeta())
print(json.dumps({"event": main.pk}))
""".replace("PLAYERS", str(PLAYERS))


def client(job: dict[str, Any]) -> dict[str, Any]:
    """One closed-loop client: GETs until ``stop``; latencies of those after ``measure``."""
    import redis

    bump = redis.Redis.from_url(job["redis"]) if job["bump"] else None
    latencies: list[float] = []
    sizes: list[int] = []
    errors: dict[str, int] = {}
    while True:
        now = time.time()
        if now >= job["stop"]:
            break
        if bump is not None:
            bump.incr(job["version_key"])  # what an accepted result does
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", job["port"], timeout=60)
        try:
            conn.request("GET", job["path"], headers=HEADERS)
            response = conn.getresponse()
            body = response.read()
            status: int | str = response.status
        except OSError as exc:
            status, body = type(exc).__name__, b""
        finally:
            conn.close()
        elapsed = time.perf_counter() - started
        if status != 200:
            errors[str(status)] = errors.get(str(status), 0) + 1
        if now >= job["measure"]:
            latencies.append(elapsed)
            sizes.append(len(body))
    return {"latencies": latencies, "sizes": sizes, "errors": errors}


def phase(pool: Any, base: dict[str, Any], path: str, bump: bool, seconds: float) -> dict[str, Any]:
    start = time.time() + 0.5
    jobs = [
        {
            **base,
            "path": path,
            "bump": bump,
            "measure": start + WARMUP,
            "stop": start + WARMUP + seconds,
        }
        for _ in range(base["clients"])
    ]
    results = pool.map(client, jobs)
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    return {
        "latencies": sorted(x for r in results for x in r["latencies"]),
        "sizes": [s for r in results for s in r["sizes"]],
        "seconds": seconds,
        "errors": errors,
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    latencies = sorted(x for r in runs for x in r["latencies"])
    sizes = [s for r in runs for s in r["sizes"]]
    return {
        "rate": len(latencies) / sum(r["seconds"] for r in runs),
        "p50": 1000 * statistics.median(latencies),
        "p99": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "errors": sum(sum(r["errors"].values()) for r in runs),
        "kb": statistics.median(sizes) / 1024 if sizes else 0.0,
        "runs": [len(r["latencies"]) / r["seconds"] for r in runs],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args()
    if not servers.services_reachable(PG, REDIS):
        print("SKIPPED: PostgreSQL or Redis is not reachable (BENCH_DATABASE_URL, BENCH_REDIS_URL)")
        return 0
    name = f"bench_pages_{os.getpid()}"
    prefix = f"bench-pages-{os.getpid()}"
    env = servers.server_env(
        database_url=servers.database_url(PG, name),
        redis_url=REDIS,
        secret_key="bench-only-secret",
        queue=prefix,
        cache_prefix=prefix,
        BENCH_ENDPOINTS="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="tournament.settings",
    )
    servers.create_database(PG, name)
    server: subprocess.Popen[bytes] | None = None
    runs: dict[str, list[dict[str, Any]]] = {"trivial": [], "cached": [], "uncached": []}
    try:
        servers.migrate(env)
        started = time.perf_counter()
        seeded = subprocess.run(
            [sys.executable, "-c", SEED],
            cwd=ROOT,
            env={**env, "CELERY_EAGER": "1"},  # the bracket advances inline while seeding
            capture_output=True,
            text=True,
            check=True,
        )
        event_id = json.loads(seeded.stdout.strip().splitlines()[-1])["event"]
        print(
            f"seeded a {PLAYERS}-player Main and its Consolation in {time.perf_counter() - started:.1f} s"
        )
        port = servers.free_port()
        server = servers.start_gunicorn(port, args.workers, env)
        servers.wait_healthy(port, server)
        base = {
            "port": port,
            "clients": args.clients,
            "redis": REDIS,
            "version_key": f"{prefix}:1:v:event:{event_id}",
        }
        page = "/t/bench-open/main/"
        for label, path in (("trivial", "/bench/trivial/"), ("cached page", page)):
            single = []
            for _ in range(20):
                t0 = time.perf_counter()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", path, headers=HEADERS)
                conn.getresponse().read()
                conn.close()
                single.append(time.perf_counter() - t0)
            print(
                f"one client, one request at a time: {label} {1000 * statistics.median(single):.1f} ms"
            )
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(args.clients) as pool:
            phase(pool, base, "/bench/trivial/", False, 1.0)  # warm every worker
            phase(pool, base, page, False, 1.0)
            for _ in range(2):
                runs["trivial"].append(phase(pool, base, "/bench/trivial/", False, args.seconds))
                runs["cached"].append(phase(pool, base, page, False, args.seconds))
                runs["uncached"].append(phase(pool, base, page, True, args.seconds))
    finally:
        servers.terminate(server)
        time.sleep(0.5)
        servers.drop_database(PG, name)
    s = {kind: summary(r) for kind, r in runs.items()}
    print(
        f"gunicorn {args.workers} sync workers, PostgreSQL (persistent connections), Redis cache; "
        f"{args.clients} concurrent clients; 2 x {args.seconds:g} s per kind, alternating"
    )
    labels = {
        "trivial": "trivial view (/bench/trivial/)",
        "cached": f"event page, {PLAYERS} players, cached",
        "uncached": f"event page, {PLAYERS} players, uncached",
    }
    for kind, r in s.items():
        print(
            f"{labels[kind]:<40} {r['rate']:8.1f} req/s  p50 {r['p50']:7.1f} ms  "
            f"p99 {r['p99']:7.1f} ms  {r['kb']:6.0f} KiB  errors {r['errors']:.0f}  "
            f"(runs: {', '.join(f'{x:.0f}' for x in r['runs'])} req/s)"
        )
    trivial = s["trivial"]["rate"]
    print(
        f"ratios to the trivial view: cached {s['cached']['rate'] / trivial:.2f}, "
        f"uncached {s['uncached']['rate'] / trivial:.3f}; "
        f"cached/uncached {s['cached']['rate'] / s['uncached']['rate']:.0f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
