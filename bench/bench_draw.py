"""The draw of a 1,024-player Main feeding a Consolation (rounds 1 and 2): target under 1 s.

``draw_make`` end to end: ordering and the public log (``formats.draw``), every
round and match of the Main (byes decided, their players seated in round 2) and
of the Consolation, written in bulk. Timed several times (a draw may be made
again until a round starts); the pure formats part is timed alone in the same run
to show what the database adds. Runs on a throw-away SQLite file unless
``DATABASE_URL`` points at PostgreSQL (then a throw-away database is created).

    .venv/bin/python bench/bench_draw.py [--players 1024] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET = 1.0


def setup_django(tmp: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("SQLITE_PATH", str(tmp / "bench.sqlite3"))
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.test.utils import setup_databases

    settings.DEBUG = False
    setup_databases(verbosity=0, interactive=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp))
        from django.db import connection

        from matches.models import Match
        from tournament.formats.consolation import consolation_bracket
        from tournament.formats.draw import DrawEntrant, make_draw
        from tournament.formats.single_elimination import SingleEliminationBracket
        from tournament.models import Entry, Player, Tournament
        from tournament.services.draws import draw_make
        from tournament.services.events import event_create

        tournament = Tournament.objects.create(name="Bench Open", slug="bench-open")
        main_event = event_create(tournament=tournament, name="Main", match_lengths=[11, 13, 17])
        event_create(
            tournament=tournament, name="Consolation", feeds_from=main_event, feed_rounds=[1, 2]
        )
        players = Player.objects.bulk_create(
            Player(name=f"Player {k:04d}", rating=1300 + (k * 37) % 700)
            for k in range(args.players)
        )
        Entry.objects.bulk_create(Entry(event=main_event, player=p) for p in players)
        entrants = [
            DrawEntrant(e.pk, e.player.name, e.player.rating)
            for e in Entry.objects.select_related("player")
        ]

        service, pure = [], []
        for attempt in range(args.repeat):
            started = time.perf_counter()
            draw_make(event=main_event, method="random", seed=attempt)
            service.append(time.perf_counter() - started)
            started = time.perf_counter()
            drawn = make_draw(entrants, method="random", seed=attempt)
            SingleEliminationBracket.build(list(drawn.order))
            consolation_bracket(main_entrants=len(entrants), fed_rounds=[1, 2])
            pure.append(time.perf_counter() - started)
        matches = Match.objects.count()
        best, median = min(service), statistics.median(service)
        print(
            f"database: {connection.vendor}, players: {args.players}, matches laid out: {matches}"
        )
        print(f"draw_make (service, end to end): best {best:.3f} s, median {median:.3f} s")
        print(f"formats only (order, log, brackets): median {statistics.median(pure):.3f} s")
        print(f"target < {TARGET:.1f} s: {'met' if median < TARGET else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
