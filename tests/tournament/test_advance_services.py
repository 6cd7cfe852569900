"""Advancing brackets: a 37-player Main feeding a Consolation, and a Last Chance, to champions."""

from __future__ import annotations

import pytest

from matches.models import Match
from tournament.models import Entry, Event, Round
from tournament.services.advance import match_advance
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create

from .conftest import play, run_to_champion, start_due_rounds

pytestmark = pytest.mark.django_db


def _weekend(tournament, enter):
    main = event_create(tournament=tournament, name="Main", match_lengths=[11, 11, 11, 13, 13, 17])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[9],
        feeds_from=main,
        feed_rounds=[1, 2],
    )
    enter(main, 37)
    draw_make(event=main, method="random", seed=37)
    return main, consolation


def test_37_players_main_and_consolation_play_to_a_champion_each(tournament, enter):
    main, consolation = _weekend(tournament, enter)
    run_to_champion([main, consolation], choose=lambda m: 1 if m.slot % 3 else 2)
    main.refresh_from_db()
    consolation.refresh_from_db()
    assert main.status == Event.Status.FINISHED
    assert consolation.status == Event.Status.FINISHED
    assert main.champion is not None
    assert consolation.champion is not None
    assert main.champion.event_id == main.pk
    assert consolation.champion.event_id == consolation.pk
    # Every Main loser of rounds 1 and 2 went to the Consolation: 5 + 16.
    assert consolation.entries.count() == 21
    # Its 32-line bracket: 20 matches played, 11 byes, and no match with nobody in it.
    fed = Match.objects.filter(event=consolation)
    assert fed.filter(is_bye=False).count() == 20
    assert fed.filter(is_bye=True, decision=Match.Decision.BYE).count() == 11
    assert not fed.filter(entry1__isnull=True, entry2__isnull=True).exists()
    assert (
        not Match.objects.filter(event__in=[main, consolation])
        .exclude(status=Match.Status.COMPLETE)
        .exists()
    )
    assert (
        not Round.objects.filter(event__in=[main, consolation])
        .exclude(status=Round.Status.COMPLETE)
        .exists()
    )
    # Only the champion is still in the Main; everyone else was eliminated once.
    assert list(main.entries.exclude(status=Entry.Status.ELIMINATED)) == [main.champion]
    assert consolation.champion.player_id != main.champion.player_id
    # The Consolation's players are exactly the Main's round-1 and round-2 losers.
    lost_early = set(
        Match.objects.filter(event=main, round__number__in=[1, 2], is_bye=False).values_list(
            "entry1__player", "entry2__player", "winner__player"
        )
    )
    losers = {a if w == b else b for a, b, w in lost_early}
    assert set(consolation.entries.values_list("player", flat=True)) == losers


def test_last_chance_with_its_own_entries_plays_to_a_champion(tournament, enter):
    main, _consolation = _weekend(tournament, enter)
    last_chance = event_create(
        tournament=tournament, name="Last Chance", kind=Event.Kind.LAST_CHANCE, match_lengths=[7]
    )
    run_to_champion([main])
    knocked_out = list(main.entries.filter(status=Entry.Status.ELIMINATED)[:9])
    for entry in knocked_out:
        entry_register(event=last_chance, player=entry.player)
    draw_make(event=last_chance, method="rating")
    run_to_champion([last_chance], choose=lambda m: 2)
    last_chance.refresh_from_db()
    assert last_chance.status == Event.Status.FINISHED
    assert last_chance.champion.player_id in {e.player_id for e in knocked_out}
    assert last_chance.rounds.count() == 4  # 9 players: a 16-line bracket


def test_advancing_twice_changes_nothing(tournament, enter):
    main, _ = _weekend(tournament, enter)
    start_due_rounds(main)
    match = Match.objects.filter(event=main, status=Match.Status.READY).first()
    ready = play(match, 1)
    match.refresh_from_db()
    assert match.advanced_at is not None
    assert match_advance(match_id=match.pk) == []
    nxt = Match.objects.get(event=main, round__number=2, slot=match.slot // 2)
    seat = nxt.entry1_id if match.slot % 2 == 0 else nxt.entry2_id
    assert seat == match.winner_id
    assert ready == ([nxt.pk] if nxt.status == Match.Status.READY else [])


def test_the_winner_of_a_round_1_match_meets_the_bye_holder_when_round_2_started(tournament, enter):
    main, _ = _weekend(tournament, enter)
    round1, round2 = main.rounds.order_by("number")[:2]
    from tournament.services.rounds import round_start

    round_start(round_=round1)
    round_start(round_=round2)
    match = Match.objects.filter(round=round1, is_bye=False).first()
    ready = play(match, 2)
    nxt = Match.objects.get(round=round2, slot=match.slot // 2)
    assert nxt.status == Match.Status.READY
    assert ready == [nxt.pk]
