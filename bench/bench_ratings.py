"""Ratings and series at season scale: recompute every rating, build a series leaderboard.

A season of ``--matches`` played matches among ``--players`` players (one Swiss-like
event per 500 matches) is written in bulk; then ``ratings_recompute`` (every rating
and rating history from scratch) and ``series_leaderboard`` are timed, each against
the pure formula alone over the same matches in the same run, to show what the
database adds. Runs on a throw-away SQLite file unless ``DATABASE_URL`` points at
PostgreSQL (then a throw-away database is created).

    .venv/bin/python bench/bench_ratings.py [--players 512] [--matches 5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(tmp: Path) -> object:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("SQLITE_PATH", str(tmp / "bench.sqlite3"))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.test.utils import setup_databases

    settings.DEBUG = False
    return setup_databases(verbosity=0, interactive=False)


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        databases = setup_django(Path(tmp))
        try:
            return run(args)
        finally:
            from django.test.utils import teardown_databases

            teardown_databases(databases, verbosity=0)


def run(args: argparse.Namespace) -> int:
    from matches.models import Match
    from tournament.formulas import ratings
    from tournament.models import Entry, Event, Player, Round, Series, Tournament
    from tournament.services.ratings import ratings_recompute
    from tournament.services.series import series_leaderboard

    rng = random.Random(7)
    series = Series.objects.create(name="Bench season", slug="bench-season")
    players = Player.objects.bulk_create(
        Player(name=f"P{i:05d}", rating=1500.0) for i in range(args.players)
    )
    start = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    plan: list[tuple[int, int, int, int]] = []  # (p1, p2, winner, length)
    events = (args.matches + 499) // 500
    for e in range(events):
        t = Tournament.objects.create(name=f"Week {e}", slug=f"week-{e}", series=series)
        event = Event.objects.create(
            tournament=t, name="League", slug="league", format="swiss", status="finished"
        )
        entries = Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
        todo = min(500, args.matches - e * 500)
        per_round = max(1, len(entries) // 2)
        for r in range((todo + per_round - 1) // per_round):
            rnd = Round.objects.create(event=event, number=r + 1, match_length=7)
            rows = []
            for slot in range(min(per_round, todo - r * per_round)):
                a, b = rng.sample(entries, 2)
                length = rng.choice([3, 5, 7, 9, 11])
                winner = rng.choice([a, b])
                at = start + dt.timedelta(minutes=len(plan) + len(rows))
                rows.append(
                    Match(
                        event=event,
                        round=rnd,
                        slot=slot,
                        entry1=a,
                        entry2=b,
                        length=length,
                        score1=length if winner is a else 0,
                        score2=length if winner is b else 0,
                        winner=winner,
                        status="complete",
                        decision="play",
                        decided_at=at,
                        confirmed_at=at,
                    )
                )
            Match.objects.bulk_create(rows)
            plan += [
                (
                    m.entry1.player_id,
                    m.entry2.player_id,
                    1 if m.winner is m.entry1 else 2,
                    m.length,
                )
                for m in rows
            ]

    def pure() -> None:
        state = {p.pk: (1500.0, 0) for p in players}
        for p1, p2, winner, length in plan:
            (r1, e1), (r2, e2) = state[p1], state[p2]
            one, two = ratings.rate(r1, r2, length, winner=winner, experience1=e1, experience2=e2)
            state[p1] = (one.rating_after, one.experience_after)
            state[p2] = (two.rating_after, two.experience_after)

    formula = timed(pure, args.repeat)
    recompute = timed(lambda: ratings_recompute(reset=True), args.repeat)
    board = timed(lambda: series_leaderboard(series=series), args.repeat)
    n = len(plan)
    print(f"season: {n} matches, {args.players} players, {events} events")
    print(f"FIBS formula alone:            {formula * 1000:8.1f} ms ({n / formula:,.0f} matches/s)")
    print(
        f"ratings_recompute (database):  {recompute * 1000:8.1f} ms "
        f"({n / recompute:,.0f} matches/s, {recompute / formula:.0f}x the formula)"
    )
    print(f"series_leaderboard:            {board * 1000:8.1f} ms (4 queries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
