"""Spectators from the edge: phones one web node holds with and without nginx's cache.

The deployed topology of ``bench/cluster.py`` (PgBouncer, Redis, workers, beat) with
ONE gunicorn node (``web1``, ``NODE_WORKERS`` sync workers) measured two ways:

* ``node``: the phones poll the node directly (gunicorn alone);
* ``edge``: the phones poll an nginx in front of that node alone, running the shipped
  edge cache (deploy/nginx-edge-cache.conf and nginx-edge-location.conf).

A busy event: game reports keep arriving (``--reports`` a second, open loop, each on its
own ready match, through the node) and move the event's live version, so a poll asks
``…/live/?v=<an older version>`` and gets the new fragment, as most phones' polls do at a
busy event. The phones are ``wrk``'s connections (C; each waits 5 s, jittered, after each
answer, as the page's htmx does: a Lua ``delay``), the reports come from this process,
whose latencies give the p99. A step of N phones holds when wrk got at least 90 % of
the polls those phones send answered (N x (T / 5 - 0.46) / T a second over T seconds: a
phone's first poll also waits, so T / 5 - 0.46 polls in T seconds, renewal theory), without errors, and the reports' p99 stayed within
``max(100 ms, 1.5 x`` the p99 with no phones in the same run``)``.

wrk, nginx and the client share the machine's cores with the node: the edge figure is a
floor. ``make bench`` installs wrk (``bench-deps``).

    .venv/bin/python bench/bench_edge.py [--steps 250,500,...,16000] [--seconds 15] [--reports 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_cluster_pollers import VERSION, Reports, build  # noqa: E402
from bench.cluster import NGINX, NODE_WORKERS, Cluster  # noqa: E402
from bench.server import edge_cache_conf, free_port, terminate, wait_port  # noqa: E402

POLL_EVERY = 5.0
EDGE_CONF = """\
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log error;
worker_rlimit_nofile 40000;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{edge}
    upstream bgdirector_web {{
        server 127.0.0.1:{node};
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        location / {{
            include {dir}/bgd-edge-location.conf;
            proxy_pass http://bgdirector_web;
        }}
    }}
}}
"""
#: wrk's Lua: gzip as a phone asks it; each connection (a phone) waits 2.5-7.5 s.
PACE_LUA = """\
wrk.headers["Accept-Encoding"] = "gzip"
function delay() return math.random(2500, 7500) end
"""


def start_edge(directory: Path, node_port: int) -> tuple[subprocess.Popen[bytes], int]:
    """nginx with the shipped edge cache in front of one node; its process and port."""
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = EDGE_CONF.format(dir=directory, edge=edge_cache_conf(directory), node=node_port,
                            port=port)  # fmt: skip
    (directory / "nginx.conf").write_text(conf)
    proc = subprocess.Popen(
        [NGINX, "-p", str(directory), "-c", str(directory / "nginx.conf")],
        stdout=subprocess.DEVNULL,
        stderr=open(directory / "nginx.log", "wb"),  # noqa: SIM115
    )
    wait_port(port, timeout=10)
    return proc, port


async def wrk(url: str, phones: int, seconds: float, script: Path) -> dict:
    """``phones`` connections polling ``url`` every 5 s for ``seconds``: answered a second."""
    script.write_text(PACE_LUA)
    proc = await asyncio.create_subprocess_exec(
        "wrk", "-t1", f"-c{phones}", f"-d{seconds:g}s", "--timeout", "10s", "-s", str(script),
        url, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out = (await proc.communicate())[0].decode()
    per_s = re.search(r"Requests/sec:\s+([\d.]+)", out)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    failed = int(bad.group(1)) if bad else 0
    if errors:
        failed += sum(int(errors.group(i)) for i in range(1, 5))
    return {"answered_per_s": float(per_s.group(1)) if per_s else 0.0, "failed": failed}


async def reports_for(node: str, reports: Reports, rate: float, seconds: float) -> list[float]:
    """Game reports at ``rate`` a second through the node for ``seconds``: latencies."""
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=node, timeout=30, limits=limits) as http:
        reports.latencies.clear()
        sent = []
        until = time.monotonic() + seconds
        next_at = time.monotonic()
        while time.monotonic() < until:
            sent.append(asyncio.create_task(reports.one(http)))
            next_at += 1.0 / rate
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await asyncio.gather(*sent)
    return list(reports.latencies)


def expected(phones: int, seconds: float) -> float:
    """Polls a second ``phones`` send over ``seconds`` with gaps uniform on 2.5-7.5 s,
    the first one included: t / mean + (variance - mean^2) / (2 mean^2) each."""
    mean, variance = POLL_EVERY, 5.0**2 / 12
    return phones * (seconds / mean + (variance - mean**2) / (2 * mean**2)) / seconds


def p99_ms(latencies: list[float]) -> float:
    if len(latencies) < 2:
        return float("nan")
    return statistics.quantiles(latencies, n=100)[98] * 1000


async def step(base: str, poll_url: str, node: str, reports: Reports, phones: int, args,
               script: Path) -> dict:  # fmt: skip
    polls = asyncio.create_task(wrk(base + poll_url, phones, args.seconds, script))
    latencies = await reports_for(node, reports, args.reports, args.seconds)
    answered = await polls
    return {"phones": phones, **answered, "reports": len(latencies),
            "report_p99_ms": p99_ms(latencies)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", default="50,100,200,400,800,1600,3200,6400,12800", help="phones")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--reports", type=float, default=2.0, help="game reports a second")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (make bench-deps): bench_edge skipped")
        return 0
    cluster = Cluster().start()
    edge_proc = None
    try:
        built = build(cluster)
        tokens = {int(k): v for k, v in built["tokens"].items()}
        node = f"http://127.0.0.1:{cluster.part('web1').port}"
        ready = httpx.get(
            f"{node}/api/matches/",
            params={"event": built["events"][0], "status": "ready", "limit": 100},
        ).json()["results"]
        reports = Reports(ready, tokens)
        page = "/t/cluster-open/main/"
        found = VERSION.search(httpx.get(node + page).text)
        poll_url = f"{page}live/?v={found.group(1) if found else 'stale'}"
        edge_proc, edge_port = start_edge(cluster.root / "edge", cluster.part("web1").port)
        edge = f"http://127.0.0.1:{edge_port}"
        script = cluster.root / "pace.lua"
        quiet = p99_ms(asyncio.run(reports_for(node, reports, args.reports, args.seconds)))
        limit = max(100.0, 1.5 * quiet)
        print(json.dumps({"reports_alone_p99_ms": round(quiet, 1), "p99_limit_ms": limit}))
        held: dict[str, int] = {}
        for name, base in (("node", node), ("edge", edge)):
            held[name] = 0
            for phones in [int(n) for n in args.steps.split(",")]:
                row = asyncio.run(step(base, poll_url, node, reports, phones, args, script))
                ok = (
                    row["answered_per_s"] >= 0.9 * expected(phones, args.seconds)
                    and not row["failed"]
                    and row["report_p99_ms"] <= limit
                )
                print(json.dumps({"via": name, **{k: round(v, 1) if isinstance(v, float) else v
                                                  for k, v in row.items()}, "held": ok}),
                      flush=True)  # fmt: skip
                if not ok:
                    break
                held[name] = phones
    finally:
        terminate(edge_proc)
        cluster.stop()
    print(f"one node: gunicorn {NODE_WORKERS} sync workers; reports {args.reports:g}/s, "
          f"p99 limit {limit:.0f} ms (reports alone: {quiet:.0f} ms)")  # fmt: skip
    for name in ("node", "edge"):
        print(f"{name:>5}: {held[name]} phones held ({held[name] / POLL_EVERY:.0f} polls/s)")
    if held["node"]:
        print(f"edge / node: x{held['edge'] / held['node']:.1f} phones per node (target x10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
