"""Draws: seeds, byes decided at once, every round laid out, the Consolation with it."""

from __future__ import annotations

import pytest

from matches.errors import Invalid
from matches.models import Match
from tests.factories import PlayerFactory
from tournament.formats.draw import rerun, verify
from tournament.models import Entry, Event, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create

pytestmark = pytest.mark.django_db


def test_37_player_draw_gives_byes_to_the_top_seeds_and_seats_them_in_round_2(tournament, enter):
    main = event_create(tournament=tournament, name="Main", match_lengths=[11, 11, 11, 13, 13, 17])
    entries = enter(main, 37)
    draw = draw_make(event=main, method="rating")
    assert draw.method == "rating"
    rounds = list(main.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]
    assert [r.match_length for r in rounds] == [11, 11, 11, 13, 13, 17]
    assert rounds[-1].name == "Final"
    first = list(Match.objects.filter(round=rounds[0]).order_by("slot"))
    assert len(first) == 32
    byes = [m for m in first if m.is_bye]
    assert len(byes) == 27
    assert all(m.status == Match.Status.COMPLETE and m.winner_id == m.entry1_id for m in byes)
    best = sorted(entries, key=lambda e: -e.player.rating)
    seeds = {e.pk: e.seed for e in Entry.objects.filter(event=main)}
    assert sorted(seeds[m.winner_id] for m in byes) == list(range(1, 28))
    assert {seeds[best[0].pk]} == {1}
    second = Match.objects.filter(round=rounds[1])
    seated = sum((m.entry1_id is not None) + (m.entry2_id is not None) for m in second)
    assert seated == 27
    assert Match.objects.filter(event=main).count() == 63


def test_random_draw_keeps_its_seed_and_rerunning_it_gives_the_same_bracket(tournament, enter):
    main = event_create(tournament=tournament, name="Main", match_lengths=[7])
    enter(main, 12)
    first = draw_make(event=main, method="random", seed=20260514)
    order1 = list(Entry.objects.filter(event=main).order_by("seed").values_list("pk", flat=True))
    second = draw_make(event=main, method="random", seed=20260514)
    order2 = list(Entry.objects.filter(event=main).order_by("seed").values_list("pk", flat=True))
    assert first.seed == second.seed == 20260514
    assert order1 == order2
    assert first.log == second.log
    assert "seed: 20260514" in first.log
    # Anyone can re-run the public log and get the same order.
    assert verify(first.log)
    assert list(rerun(first.log).order) == order1
    third = draw_make(event=main, method="random")
    assert third.seed is not None


def test_consolation_is_laid_out_with_its_main(tournament, enter):
    main = event_create(tournament=tournament, name="Main", match_lengths=[11])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[9],
        feeds_from=main,
        feed_rounds=[1, 2],
    )
    enter(main, 37)
    draw_make(event=main, method="rating")
    consolation.refresh_from_db()
    assert consolation.kind == Event.Kind.CONSOLATION
    assert consolation.status == Event.Status.DRAWN
    counts = [Match.objects.filter(round=r).count() for r in consolation.rounds.order_by("number")]
    # 21 players fall into it (5 Main-1 losers, 16 Main-2 losers): a 32-line bracket, and
    # no match with nobody in it; 11 Main-2 losers have a bye in round 1.
    assert counts == [16, 8, 4, 2, 1]
    byes = Match.objects.filter(event=consolation, is_bye=True)
    assert byes.count() == 11
    assert set(byes.values_list("round__number", "status")) == {(1, Match.Status.PENDING)}
    assert set(Round.objects.filter(event=consolation).values_list("match_length", flat=True)) == {
        9
    }


def test_manual_order_must_name_every_player_once(tournament, enter):
    main = event_create(tournament=tournament, name="Main")
    entries = enter(main, 4)
    players = [e.player_id for e in entries]
    with pytest.raises(Invalid) as err:
        draw_make(event=main, method="manual", order=players[:3] + players[:1])
    assert err.value.code == "bad-order"
    draw_make(event=main, method="manual", order=list(reversed(players)))
    assert Entry.objects.get(pk=entries[3].pk).seed == 1


def test_a_consolation_cannot_be_drawn_or_entered_directly(tournament, enter):
    main = event_create(tournament=tournament, name="Main")
    consolation = event_create(
        tournament=tournament, name="Consolation", feeds_from=main, feed_rounds=[1]
    )
    with pytest.raises(Invalid) as err:
        entry_register(event=consolation, player=PlayerFactory())
    assert err.value.code == "fed-event"
    with pytest.raises(Invalid) as err:
        draw_make(event=consolation)
    assert err.value.code == "fed-event"
