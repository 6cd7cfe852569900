"""Game reports per second through the API against a minimal transactional write endpoint.

Both are served by the same gunicorn (3 sync workers, PostgreSQL with persistent
connections, Redis cache and broker) in the same run, with 16 concurrent clients
(closed loops on one asyncio event loop, a new connection per request as sync
workers close them):

* the floor, ``POST /api/bench/floor/<match>/`` (routed only with ``BENCH_ENDPOINTS=1``):
  lock one parent row with ``select_for_update``, insert one child row, return it
  with DRF; no authentication;
* game reports, ``POST /api/matches/<id>/games/`` as a phone sends them: the private
  report key in ``X-Report-Key``, a new ``Idempotency-Key``, the next ``game_number``,
  sometimes a double;
  the answer is the whole match as ``GET /api/matches/<id>/`` shows it.

Reports are spread over many ready 25-point matches (each client owns its own), the
floor over as many parents. Phases alternate (floor, reports, floor, reports) so
that drift on this shared machine hits both. Target: reports at least half the
floor's rate, p99 under 100 ms. A throw-away database is created and dropped.

The machine is shared, so requests per second move with other sessions' load. Each
phase therefore also reads the CPU time the gunicorn workers (and, separately, their
PostgreSQL backends) spent, from ``/proc/<pid>/stat`` before and after: CPU per
request, and the floor's CPU per request over the reports', hardly move with load.
Both ratios are printed.

    .venv/bin/python bench/bench_reports.py [--clients 16] [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server as servers  # noqa: E402

PG = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
RATIO_TARGET = 0.5
P99_TARGET_MS = 100.0
WARMUP = 1.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process ``pid`` so far (``None`` if it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "; field 3 is fields[0]
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (gunicorn's workers)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        text = ""
    if text.strip():
        return [int(x) for x in text.split()]
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                found.append(int(entry.name))
    return found


class CpuMeter:
    """CPU time of the gunicorn workers and of the database's backends for the bench database."""

    def __init__(self, master: int, database: str) -> None:
        self.master = master
        self.database = database

    def pids(self) -> tuple[list[int], list[int]]:
        import psycopg

        with psycopg.connect(PG.replace("postgres://", "postgresql://"), autocommit=True) as c:
            rows = c.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s "
                "AND backend_type = 'client backend'",
                [self.database],
            ).fetchall()
        return children(self.master), [int(r[0]) for r in rows]

    def snapshot(self) -> dict[str, dict[int, float]]:
        workers, backends = self.pids()
        return {
            group: {p: t for p in pids if (t := cpu_seconds(p)) is not None}
            for group, pids in (("app", workers), ("db", backends))
        }

    @staticmethod
    def spent(before: dict[str, dict[int, float]]) -> dict[str, float]:
        """CPU seconds spent since ``before`` by the processes it saw.

        A worker that exits mid-phase would take its CPU time with it: that is an error.
        A backend that exits was not a worker's persistent connection (those stay).
        """
        spent: dict[str, float] = {}
        for group, times in before.items():
            total = 0.0
            for pid, start in times.items():
                now = cpu_seconds(pid)
                if now is None and group == "app":
                    raise RuntimeError(f"gunicorn worker {pid} exited during a phase")
                total += 0.0 if now is None else now - start
            spent[group] = total
        return spent


def seed(env: dict[str, str], per_set: int) -> dict[str, list[dict[str, Any]]]:
    """Three sets of ready 25-point matches (floor, reports, reports); their ids and keys."""
    code = f"""
import json, django
django.setup()
from django.utils import timezone
from matches.models import Match
from tournament.models import Entry, Event, Player, Round, Tournament
t = Tournament.objects.create(name="Bench Open", slug="bench-open")
e = Event.objects.create(tournament=t, name="Main", slug="main", match_lengths=[25],
                         status=Event.Status.RUNNING)
r = Round.objects.create(event=e, number=1, match_length=25, status=Round.Status.STARTED,
                         started_at=timezone.now())
n = {per_set} * 3
players = Player.objects.bulk_create(Player(name=f"P{{k:05d}}") for k in range(2 * n))
entries = Entry.objects.bulk_create(Entry(event=e, player=p) for p in players)
Match.objects.bulk_create(
    Match(event=e, round=r, slot=k, entry1=entries[2 * k], entry2=entries[2 * k + 1], length=25,
          status=Match.Status.READY)
    for k in range(n)
)
rows = [
    {{"id": m.pk, "key": m.entry1.report_key, "p1": m.entry1.player_id, "p2": m.entry2.player_id}}
    for m in Match.objects.select_related("entry1", "entry2").order_by("slot")
]
print(json.dumps(rows))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    rows = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "floor": rows[:per_set],
        "reports-1": rows[per_set : 2 * per_set],
        "reports-2": rows[2 * per_set :],
    }


def request_bytes(kind: str, m: dict[str, Any], n: int) -> bytes:
    """The HTTP request for the floor or for game ``n`` of match ``m``."""
    if kind == "floor":
        path, extra, body = f"/api/bench/floor/{m['id']}/", "", b"{}"
    else:
        winner = m["p1"] if n % 2 else m["p2"]
        report: dict[str, Any] = {"winner": winner, "cube": 1, "result": "single"}
        if n % 4 == 0:
            report.update(cube=2, doubles=[{"by": winner, "turn": 3, "response": "take"}])
        report["game_number"] = n
        # Each report with its Idempotency-Key, as the private link's page sends them.
        path = f"/api/matches/{m['id']}/games/"
        extra = f"X-Report-Key: {m['key']}\r\nIdempotency-Key: {uuid.uuid4()}\r\n"
        body = json.dumps(report).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n"
    )
    return head.encode() + body


async def client(
    port: int, kind: str, matches: list[dict[str, Any]], measure: float, stop: float
) -> dict[str, Any]:
    """One closed-loop client: a request at a time until ``stop``; latencies after ``measure``.

    ``sent`` counts every request, warm-up included (the CPU meter sees them all).
    """
    games = {m["id"]: 0 for m in matches}
    latencies: list[float] = []
    errors: dict[str, int] = {}
    i = 0
    while time.perf_counter() < stop:
        m = matches[i % len(matches)]
        i += 1
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request_bytes(kind, m, games[m["id"]] + 1))
            answer = await reader.read()  # sync workers close the connection after answering
            writer.close()
            status = answer[9:12].decode() if answer.startswith(b"HTTP/1.") else "bad-answer"
        except OSError as exc:
            status = type(exc).__name__
        if status == "201":
            games[m["id"]] += 1
        else:
            errors[status] = errors.get(status, 0) + 1
        if started >= measure:
            latencies.append(time.perf_counter() - started)
    return {"latencies": latencies, "errors": errors, "sent": i}


def phase(
    port: int,
    kind: str,
    matches: list[dict[str, Any]],
    clients: int,
    seconds: float,
    meter: CpuMeter | None = None,
) -> dict[str, Any]:
    """``clients`` concurrent clients for ``seconds`` after a warm-up; their pooled results.

    With a ``meter``, also the server's CPU seconds over the whole phase and the number
    of requests they served (every request has been answered when the phase ends).
    """

    async def run() -> list[dict[str, Any]]:
        measure = time.perf_counter() + WARMUP
        stop = measure + seconds
        return await asyncio.gather(
            *(client(port, kind, matches[c::clients], measure, stop) for c in range(clients))
        )

    before = meter.snapshot() if meter is not None else None
    results = asyncio.run(run())
    cpu = CpuMeter.spent(before) if before is not None else {}
    latencies = sorted(x for r in results for x in r["latencies"])
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    return {
        "latencies": latencies,
        "seconds": seconds,
        "errors": errors,
        "sent": sum(r["sent"] for r in results),
        "cpu": cpu,
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    """Rate, latencies, errors, and the server's CPU milliseconds per request."""
    latencies = sorted(x for r in runs for x in r["latencies"])
    seconds = sum(r["seconds"] for r in runs)
    sent = sum(r["sent"] for r in runs)
    return {
        "rate": len(latencies) / seconds,
        "p50": 1000 * statistics.median(latencies),
        "p99": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "errors": sum(sum(r["errors"].values()) for r in runs),
        "app_ms": 1000 * sum(r["cpu"].get("app", 0.0) for r in runs) / sent,
        "db_ms": 1000 * sum(r["cpu"].get("db", 0.0) for r in runs) / sent,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--matches", type=int, default=640, help="matches per phase set")
    args = parser.parse_args()
    if not servers.services_reachable(PG, REDIS):
        print("SKIPPED: PostgreSQL or Redis is not reachable (BENCH_DATABASE_URL, BENCH_REDIS_URL)")
        return 0
    name = f"bench_reports_{os.getpid()}"
    env = servers.server_env(
        database_url=servers.database_url(PG, name),
        redis_url=REDIS,
        secret_key="bench-only-secret",
        queue=f"bench-{os.getpid()}",
        cache_prefix=f"bench-{os.getpid()}",
        BENCH_ENDPOINTS="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="tournament.settings",
    )
    servers.create_database(PG, name)
    server: subprocess.Popen[bytes] | None = None
    try:
        servers.migrate(env)
        sets = seed(env, args.matches)
        port = servers.free_port()
        server = servers.start_gunicorn(port, args.workers, env)
        servers.wait_healthy(port, server)
        phase(port, "floor", sets["floor"], args.clients, 1.0)  # warm every worker up
        meter = CpuMeter(server.pid, name)
        floor, reports = [], []
        for run in (1, 2):
            floor.append(phase(port, "floor", sets["floor"], args.clients, args.seconds, meter))
            reports.append(
                phase(port, "reports", sets[f"reports-{run}"], args.clients, args.seconds, meter)
            )
    finally:
        servers.terminate(server)
        time.sleep(0.5)
        servers.drop_database(PG, name)
    f, r = summary(floor), summary(reports)
    ratio = r["rate"] / f["rate"]
    cpu_ratio = f["app_ms"] / r["app_ms"]
    print(
        f"gunicorn {args.workers} sync workers, PostgreSQL (persistent connections), Redis; "
        f"{args.clients} concurrent clients; 2 x {args.seconds:g} s per endpoint, alternating"
    )
    print(
        f"floor   (lock parent, insert child, DRF): {f['rate']:7.1f} req/s  "
        f"p50 {f['p50']:5.1f} ms  p99 {f['p99']:5.1f} ms  errors {f['errors']:.0f}  "
        f"(runs: {', '.join(f'{summary([x])["rate"]:.0f}' for x in floor)} req/s)"
    )
    print(
        f"reports (POST /api/matches/{{id}}/games/): {r['rate']:7.1f} req/s  "
        f"p50 {r['p50']:5.1f} ms  p99 {r['p99']:5.1f} ms  errors {r['errors']:.0f}  "
        f"(runs: {', '.join(f'{summary([x])["rate"]:.0f}' for x in reports)} req/s)"
    )
    for label, x in (("floor  ", f), ("reports", r)):
        print(
            f"{label} server CPU per request: gunicorn workers {x['app_ms']:5.2f} ms, "
            f"their PostgreSQL backends {x['db_ms']:5.2f} ms"
        )
    errors = {k: v for run in floor + reports for k, v in run["errors"].items()}
    if errors:
        print(f"errors by status: {errors}")
    ok = ratio >= RATIO_TARGET and r["p99"] < P99_TARGET_MS and not r["errors"]
    print(
        f"ratio reports/floor {ratio:.2f} by rate, {cpu_ratio:.2f} by workers' CPU per request "
        f"(floor's / reports'; target >= {RATIO_TARGET}), reports p99 {r['p99']:.1f} ms "
        f"(target < {P99_TARGET_MS:g} ms): {'MET' if ok else 'NOT MET'} by rate"
        f"{', MET by CPU' if cpu_ratio >= RATIO_TARGET else ''}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
