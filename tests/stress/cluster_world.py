"""The tournament of the cluster test, built and checked in the cluster's own database.

Run as ``python -m tests.stress.cluster_world build|check <json>`` with the cluster's
environment (``DATABASE_URL`` the direct database address): the test process keeps its
own Django database, so this side runs in a subprocess and answers in JSON.

``build [players length]``: a 16-player Main (5-point matches by default, round 1 started, tables numbered) feeding
a Consolation from its rounds 1-2, both opening each match as soon as its players are
known; every player has an account and a token and an address, and is emailed. Prints
the event ids, the director's token and each player's token.

``check``: the figures the test asserts on, from the database.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def build(size: int = 16, length: int = 5) -> dict[str, Any]:
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from tournament.models import Event, Player, Round, Tournament, User
    from tournament.services.draws import draw_make
    from tournament.services.entries import entry_register
    from tournament.services.events import event_create
    from tournament.services.rounds import round_start
    from tournament.services.tables import round_tables_assign

    unusable = make_password(None)
    director = User.objects.create(username="cluster-director", password=unusable)
    tournament = Tournament.objects.create(name="Cluster Open", slug="cluster-open")
    tournament.directors.add(director)
    main = event_create(tournament=tournament, name="Main", match_lengths=[length])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[length],
        feeds_from=main,
        feed_rounds=[1, 2],
    )
    Event.objects.filter(pk__in=[main.pk, consolation.pk]).update(
        start_matches=Event.StartMatches.AUTO
    )
    tokens = {}
    players = []
    for i in range(size):
        user = User.objects.create(username=f"cluster-player-{i}", password=unusable)
        player = Player.objects.create(
            name=f"Cluster Player {i:02d}", email=f"player{i}@example.org", user=user
        )
        tokens[player.pk] = Token.objects.create(user=user).key
        players.append(player)
        entry_register(event=main, player=player)
    draw_make(event=main, method="manual", order=[p.pk for p in players])
    first = main.rounds.get(bracket=Round.Bracket.MAIN, number=1)
    if first.status == Round.Status.PENDING:
        round_start(round_=first)
    round_tables_assign(round_=first)
    return {
        "events": [main.pk, consolation.pk],
        "director": Token.objects.create(user=director).key,
        "tokens": tokens,
    }


def check(event_ids: list[int]) -> dict[str, Any]:
    from django.db import connection
    from django.db.models import Count, Q

    from matches.models import Game, Match, Submission
    from tests.resilience.invariants import assert_invariants
    from tournament.models import Event, OutboxTask

    matches = Match.objects.filter(event_id__in=event_ids)
    played = matches.filter(is_bye=False)
    games = (
        Game.objects.filter(match__in=played, voided=False)
        .values("match_id", "number")
        .annotate(n=Count("id"))
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        (deadlocks,) = cursor.fetchone()
    invariants = ""
    try:
        assert_invariants(event_ids=event_ids)
    except AssertionError as exc:
        invariants = str(exc)[:2000]
    return {
        "events_unfinished": list(
            Event.objects.filter(pk__in=event_ids)
            .exclude(status=Event.Status.FINISHED)
            .values_list("name", "status")
        ),
        "matches": played.count(),
        "not_complete": list(
            played.exclude(status=Match.Status.COMPLETE).values_list("pk", flat=True)
        ),
        "without_winner": played.filter(winner__isnull=True).count(),
        "not_advanced": matches.filter(
            status=Match.Status.COMPLETE, advanced_at__isnull=True
        ).count(),
        "games_doubled": [g for g in games if g["n"] != 1],
        "games_short": [
            m.pk
            for m in played.annotate(g=Count("games", filter=Q(games__voided=False)))
            if m.g != m.length
        ],
        "submissions": Submission.objects.filter(match__in=played).count(),
        "accepted_games": Game.objects.filter(match__in=played, voided=False).count(),
        "unseated": list(
            played.filter(table__isnull=True).values_list("pk", "round__number", "event__name")
        ),
        "outbox_left": list(OutboxTask.objects.values_list("task", "args", "attempts")),
        "deadlocks": deadlocks,
        "invariants": invariants,
        "notices_expected": [
            [m.pk, mine.player.email, theirs.player.name, m.event.name]
            for m in played.filter(entry1__isnull=False, entry2__isnull=False).select_related(
                "event", "entry1__player", "entry2__player"
            )
            for mine, theirs in ((m.entry1, m.entry2), (m.entry2, m.entry1))
        ],
    }


def main(argv: list[str]) -> int:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    django.setup()
    if argv[0] == "build":
        print(json.dumps(build(*(int(a) for a in argv[1:]))))
    else:
        print(json.dumps(check(json.loads(argv[1])), default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
