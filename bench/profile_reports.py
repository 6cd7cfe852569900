"""Where a game report's time goes: cProfile inside one gunicorn worker under load.

Seeds a throw-away database as ``bench_reports`` does, serves it with ONE sync worker
whose requests run under cProfile (``bench/gunicorn_profile.py``), drives it with the
same 16 closed-loop clients, then prints the profile's top functions and the SQL of
one report. Not part of ``make bench`` (its name does not start with ``bench_``).

    .venv/bin/python bench/profile_reports.py [--kind reports|floor] [--seconds 10] [--top 40]
"""

from __future__ import annotations

import argparse
import io
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_reports as bench  # noqa: E402

from bench import server as servers  # noqa: E402


def sql_of_one_report(env: dict[str, str], match: dict[str, object]) -> str:
    """The statements one report runs, through the WSGI handler in a fresh process."""
    code = f"""
import json, django
django.setup()
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
client = Client(HTTP_X_REPORT_KEY={match["key"]!r})
body = {{"winner": {match["p1"]}, "cube": 1, "result": "single", "game_number": 1}}
client.post("/api/matches/{match["id"]}/games/", body, content_type="application/json")
body = {{"winner": {match["p2"]}, "cube": 2, "result": "single", "game_number": 2,
        "doubles": [{{"by": {match["p1"]}, "turn": 3, "response": "take"}}]}}
with CaptureQueriesContext(connection) as queries:
    answer = client.post("/api/matches/{match["id"]}/games/", body,
                         content_type="application/json")
print(answer.status_code, len(queries.captured_queries), "statements")
for q in queries.captured_queries:
    print(f"  [{{q['time']}} s] {{q['sql'][:400]}}")
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=servers.ROOT,
        env={**env, "DEBUG": "1"},
        capture_output=True,
        text=True,
    )
    return done.stdout + done.stderr[-3000:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", choices=["reports", "floor"], default="reports")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--save", help="also keep the raw profile here")
    args = parser.parse_args()
    if not servers.services_reachable(bench.PG, bench.REDIS):
        print("SKIPPED: PostgreSQL or Redis is not reachable")
        return 0
    name = f"profile_reports_{os.getpid()}"
    if args.save:
        out = Path(args.save)
    else:
        with tempfile.NamedTemporaryFile(suffix=".prof", delete=False) as handle:
            out = Path(handle.name)
    env = servers.server_env(
        database_url=servers.database_url(bench.PG, name),
        redis_url=bench.REDIS,
        secret_key="bench-only-secret",
        queue=f"profile-{os.getpid()}",
        cache_prefix=f"profile-{os.getpid()}",
        BENCH_ENDPOINTS="1",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="tournament.settings",
        PROFILE_OUT=str(out),
    )
    servers.create_database(bench.PG, name)
    server = None
    try:
        servers.migrate(env)
        sets = bench.seed(env, 640)
        port = servers.free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "tournament.wsgi:application",
             "-c", str(HERE / "gunicorn_profile.py"), "--workers", "1",
             "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=servers.ROOT, env=env,
        )  # fmt: skip
        servers.wait_healthy(port, server)
        matches = sets["reports-1"] if args.kind == "reports" else sets["floor"]
        result = bench.phase(port, args.kind, matches, args.clients, args.seconds)
        served = bench.summary([{**result, "cpu": {}}])
        print(f"{args.kind}: {served['rate']:.1f} req/s under cProfile, one worker")
        server.terminate()
        server.wait(timeout=30)
        server = None
        if args.kind == "reports":
            print(sql_of_one_report(env, sets["reports-2"][0]))
    finally:
        if server is not None:
            server.kill()
        time.sleep(0.5)
        servers.drop_database(bench.PG, name)
    text = io.StringIO()
    stats = pstats.Stats(str(out), stream=text)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    print(text.getvalue())
    if not args.save:
        out.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
