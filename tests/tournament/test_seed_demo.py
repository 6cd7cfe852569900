"""``seed_demo`` builds a partly played weekend through the services, and only once."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from matches.models import Game, Match
from tournament.models import Entry, Event, Tournament

# make run seeds the demo on the SQLite default.
pytestmark = [pytest.mark.django_db, pytest.mark.embedded]


def test_seed_demo_builds_a_partly_played_weekend_once() -> None:
    out = io.StringIO()
    call_command("seed_demo", players=20, stdout=out)
    assert "Director login: director / director-demo" in out.getvalue()
    tournament = Tournament.objects.get(slug="demo-open")
    events = {e.name: e for e in tournament.events.all()}
    assert set(events) == {"Main", "Consolation", "Last Chance", "Saturday Swiss"}
    main, consolation = events["Main"], events["Consolation"]
    assert main.match_lengths == [11, 11, 13, 13, 17]  # 32 lines: 13 from the quarter-finals
    assert consolation.feeds_from == main
    assert consolation.feed_rounds == [1, 2]
    assert events["Saturday Swiss"].format == Event.Format.SWISS
    # Partly played, with real games: cubes turned, gammons, a Crawford game.
    played = Match.objects.filter(event=main, decision=Match.Decision.PLAY)
    assert played.exists()
    assert Match.objects.filter(event=main).exclude(status=Match.Status.COMPLETE).exists()
    games = Game.objects.filter(match__event__tournament=tournament)
    assert games.filter(cube__gt=1).exists()
    assert games.filter(result="gammon").exists()
    assert games.filter(crawford=True).exists()
    assert Match.objects.filter(event__tournament=tournament, status=Match.Status.PLAYING).exists()
    assert consolation.entries.exists()
    for match in played:
        assert match.advanced_at is not None
    # Money: the Main and the Last Chance take fees in euros, most paid at the desk.
    assert tournament.currency == "EUR"
    assert (main.entry_fee, main.payout_split) == (60, [50, 30, 20])
    assert events["Last Chance"].entry_fee == 20
    for event in (main, events["Last Chance"]):
        paid = list(event.entries.values_list("paid", flat=True))
        assert set(paid) <= {"cash", "transfer", ""}, event.name
        assert paid.count("cash") > len(paid) / 2, event.name
    counts = (Match.objects.count(), Entry.objects.count(), Game.objects.count())

    call_command("seed_demo", players=20, stdout=io.StringIO())
    assert (Match.objects.count(), Entry.objects.count(), Game.objects.count()) == counts
