"""Spectators at scale: how many live-page pollers one web node holds while game reports
keep their p99 under 100 ms, and how many views a second the cached bracket serves.

The deployed topology of ``bench/cluster.py`` (PgBouncer in transaction pooling, Redis,
two workers, beat), measured on ONE gunicorn node (``web1``, ``NODE_WORKERS`` sync
workers) directly, so that the figure is per node:

* reports: an open loop of ``--reports`` game reports a second (each on its own ready
  match, the match's private key, the next game number), their latency measured;
* pollers: N spectators each asking the event's live fragment every 5 s
  (``…/live/?v=<version>``) as the page's htmx does, answered 204 while the version
  holds, the new fragment when a report moved it (the poller then keeps the new version);
* steps of N (``--steps``), ``--seconds`` each; the last step whose report p99 stays
  under 100 ms is the node's capacity at that report rate;
* then page views: ``--clients`` closed loops on the cached bracket page.

The client runs on the same two shared cores as the servers (asyncio, one process):
the figures are a floor for a node with cores of its own. Absolute rates move with the
other sessions' load; the step where p99 crosses 100 ms is read in the same run.

    .venv/bin/python bench/bench_cluster_pollers.py [--steps 0,100,200,400,800] [--seconds 8] [--reports 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cluster import NODE_WORKERS, Cluster  # noqa: E402

POLL_EVERY = 5.0
VERSION = re.compile(r'data-version="([^"]+)"')


def build(cluster: Cluster) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "tests.stress.cluster_world", "build", "64", "25"],
        cwd=ROOT,
        env={**cluster.env, "DATABASE_URL": cluster.direct_url, "DATABASE_POOL_MODE": "session"},
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


class Reports:
    """Game reports spread over the ready matches: player 1 wins each next game."""

    def __init__(self, matches: list[dict], tokens: dict[int, str]) -> None:
        self.queue = [
            (m["id"], m["player1"], tokens[m["player1"]], n) for n in range(1, 25) for m in matches
        ]
        self.latencies: list[float] = []
        self.failed = 0

    async def one(self, http: httpx.AsyncClient) -> None:
        if not self.queue:
            return
        match_id, winner, token, number = self.queue.pop(0)
        started = time.perf_counter()
        answer = await http.post(
            f"/api/matches/{match_id}/games/",
            json={"winner": winner, "game_number": number},
            headers={"Authorization": f"Token {token}"},
        )
        self.latencies.append(time.perf_counter() - started)
        self.failed += answer.status_code != 201


async def poller(
    http: httpx.AsyncClient, url: str, version: str, until: float, tally: dict
) -> None:
    await asyncio.sleep(random.uniform(0, POLL_EVERY))
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            answer = await http.get(url, params={"v": version})
        except httpx.HTTPError:
            tally["error"] += 1
        else:
            tally[answer.status_code] = tally.get(answer.status_code, 0) + 1
            if answer.status_code == 200:
                found = VERSION.search(answer.text)
                version = found.group(1) if found else version
        await asyncio.sleep(max(0.0, POLL_EVERY - (time.monotonic() - started)))


async def step(base: str, pollers: int, rate: float, seconds: float, reports: Reports,
               live: str, version: str) -> dict:  # fmt: skip
    limits = httpx.Limits(max_connections=pollers + 32, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        until = time.monotonic() + seconds
        tally: dict = {"error": 0}
        tasks = [
            asyncio.create_task(poller(http, live, version, until, tally)) for _ in range(pollers)
        ]
        reports.latencies.clear()
        sent = []
        next_at = time.monotonic()
        while time.monotonic() < until:
            sent.append(asyncio.create_task(reports.one(http)))
            next_at += 1.0 / rate
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        await asyncio.gather(*sent, *tasks)
    lat = sorted(reports.latencies)
    p99 = statistics.quantiles(lat, n=100)[98] if len(lat) >= 2 else float("nan")
    polls = sum(v for k, v in tally.items() if k != "error")
    return {
        "pollers": pollers,
        "polls_per_s": polls / seconds,
        "share_204": tally.get(204, 0) / polls if polls else 0.0,
        "poll_errors": tally["error"]
        + sum(v for k, v in tally.items() if k not in ("error", 200, 204)),
        "reports": len(lat),
        "report_p50_ms": statistics.median(lat) * 1000 if lat else float("nan"),
        "report_p99_ms": p99 * 1000,
        "report_failed": reports.failed,
    }


async def closed_loops(
    base: str, path: str, clients: int, seconds: float, expect: int = 200
) -> float:
    """Answers ``expect`` a second to ``clients`` closed loops asking ``path``."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        until = time.monotonic() + seconds
        done = 0

        async def loop() -> None:
            nonlocal done
            while time.monotonic() < until:
                answer = await http.get(path, headers={"Accept-Encoding": "gzip"})
                done += answer.status_code == expect

        await asyncio.gather(*(loop() for _ in range(clients)))
    return done / seconds


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", default="0,100,200,400,800")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--reports", type=float, default=1.0, help="game reports a second")
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    cluster = Cluster().start()
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
        html = httpx.get(node + page).text
        version = VERSION.search(html)
        live = page + "live/"
        current = version.group(1) if version else ""
        # The node alone, no reports: what one poll costs answered 204 (the version
        # holds) and answered with the fragment (it moved), and the cached page.
        solo = {
            "poll_204_per_s": asyncio.run(
                closed_loops(node, f"{live}?v={current}", args.clients, args.seconds, 204)
            ),
            "poll_fragment_per_s": asyncio.run(
                closed_loops(node, f"{live}?v=stale", args.clients, args.seconds)
            ),
            "page_views_per_s": asyncio.run(closed_loops(node, page, args.clients, args.seconds)),
        }
        print(json.dumps({k: round(v, 1) for k, v in solo.items()}), flush=True)
        rows = []
        for pollers in [int(n) for n in args.steps.split(",")]:
            row = asyncio.run(
                step(node, pollers, args.reports, args.seconds, reports, live,
                     version.group(1) if version else "")
            )  # fmt: skip
            rows.append(row)
            print(
                json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}),
                flush=True,
            )
    finally:
        cluster.stop()
    held = [r["pollers"] for r in rows if r["report_p99_ms"] < 100 and not r["poll_errors"]]
    print(f"node: gunicorn {NODE_WORKERS} sync workers; reports {args.reports:g}/s open loop")
    print(f"pollers held with report p99 < 100 ms: {max(held) if held else 0} "
          f"(= {max(held) / POLL_EVERY if held else 0:.0f} polls/s)")  # fmt: skip
    print(
        f"alone, {args.clients} closed loops: {solo['poll_204_per_s']:.0f} polls/s answered 204, "
        f"{solo['poll_fragment_per_s']:.0f} fragments/s, {solo['page_views_per_s']:.0f} cached "
        "bracket views/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
