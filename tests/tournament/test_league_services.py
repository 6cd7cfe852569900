"""Swiss and round robin: pairing round by round, late entries, standings; double elimination."""

from __future__ import annotations

import itertools

import pytest

from matches.errors import Invalid
from matches.models import Match
from tests.factories import PlayerFactory
from tournament.models import Entry, Event, Round
from tournament.selectors import standings
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.event_settings import event_update
from tournament.services.events import event_create
from tournament.services.rounds import event_next_round, round_length_set, round_start

from .conftest import play, playable, run_to_champion

pytestmark = pytest.mark.django_db


def _play_round(event, choose=lambda m: 1):
    for match in playable(event):
        play(match, choose(match))


def test_swiss_pairs_by_score_without_rematches_and_finishes(tournament, enter):
    swiss = event_create(
        tournament=tournament, name="Swiss", format="swiss", match_lengths=[5], rounds=4
    )
    enter(swiss, 9)
    draw_make(event=swiss, method="rating")
    for number in range(1, 5):
        round_ = event_next_round(event=swiss)
        assert round_.number == number
        assert round_.status == Round.Status.STARTED
        _play_round(swiss, choose=lambda m: 1 + (m.slot % 2))
    swiss.refresh_from_db()
    assert swiss.status == Event.Status.FINISHED
    pairs = [
        frozenset((m.entry1_id, m.entry2_id))
        for m in Match.objects.filter(event=swiss, is_bye=False)
    ]
    assert len(pairs) == len(set(pairs)) == 16
    byes = list(Match.objects.filter(event=swiss, is_bye=True).values_list("entry1_id", flat=True))
    assert len(byes) == len(set(byes)) == 4
    table = standings(swiss)
    assert swiss.champion_id == table[0].entry.pk
    assert [row.wins for row in table] == sorted((row.wins for row in table), reverse=True)
    assert sum(row.wins for row in table) == 16 + 4
    with pytest.raises(Invalid) as err:
        event_next_round(event=swiss)
    assert err.value.code == "event-finished"


def test_a_swiss_cut_to_the_rounds_it_has_played_finishes_with_the_leader(tournament, enter):
    swiss = event_create(tournament=tournament, name="Swiss", format="swiss", rounds=5)
    enter(swiss, 8)
    draw_make(event=swiss, method="rating")
    for _ in range(2):
        event_next_round(event=swiss)
        _play_round(swiss, choose=lambda m: 1 + (m.slot % 2))
    swiss.refresh_from_db()
    assert swiss.status == Event.Status.RUNNING
    with pytest.raises(Invalid) as err:  # never below the rounds already paired
        event_update(event=swiss, rounds=1)
    assert err.value.code == "invalid"
    assert err.value.detail["field"] == "rounds_planned"

    event_update(event=swiss, rounds=2)

    swiss.refresh_from_db()
    assert swiss.status == Event.Status.FINISHED
    assert swiss.champion_id == standings(swiss)[0].entry.pk
    with pytest.raises(Invalid) as err:
        event_next_round(event=swiss)
    assert err.value.code == "event-finished"


def test_swiss_takes_late_entries_until_a_round_starts(tournament, enter):
    swiss = event_create(tournament=tournament, name="Swiss", format="swiss", rounds=3)
    enter(swiss, 6)
    draw_make(event=swiss, method="rating")
    late = entry_register(event=swiss, player=PlayerFactory())  # round 1 is paired again
    first = swiss.rounds.get(number=1)
    seated = set(
        itertools.chain.from_iterable(
            Match.objects.filter(round=first).values_list("entry1_id", "entry2_id")
        )
    )
    assert late.pk in seated
    event_next_round(event=swiss)
    with pytest.raises(Invalid) as err:
        entry_register(event=swiss, player=PlayerFactory())
    assert err.value.code == "round-started"
    _play_round(swiss)
    later = entry_register(event=swiss, player=PlayerFactory())
    second = event_next_round(event=swiss)
    assert (
        Match.objects.filter(round=second).filter(entry1=later).exists()
        or Match.objects.filter(round=second, entry2=later).exists()
    )


def test_elimination_events_refuse_late_entries(tournament, enter):
    main = event_create(tournament=tournament, name="Main")
    enter(main, 4)
    draw_make(event=main, method="rating")
    with pytest.raises(Invalid) as err:
        entry_register(event=main, player=PlayerFactory())
    assert err.value.code == "event-drawn"


def test_round_robin_plays_every_pair_once(tournament, enter):
    league = event_create(tournament=tournament, name="League", format="round-robin")
    enter(league, 5)
    draw_make(event=league, method="rating")
    assert league.rounds.count() == 5
    for _ in range(5):
        event_next_round(event=league)
        _play_round(league, choose=lambda m: 2 if m.slot == 0 else 1)
    with pytest.raises(Invalid) as err:
        event_next_round(event=league)
    assert err.value.code == "event-finished"
    league.refresh_from_db()
    assert league.status == Event.Status.FINISHED
    pairs = [frozenset((m.entry1_id, m.entry2_id)) for m in Match.objects.filter(event=league)]
    assert len(pairs) == len(set(pairs)) == 10
    assert league.champion_id == standings(league)[0].entry.pk


def test_round_length_can_change_until_the_round_starts(tournament, enter):
    main = event_create(tournament=tournament, name="Main", match_lengths=[7])
    enter(main, 8)
    draw_make(event=main, method="rating")
    final = main.rounds.get(number=3)
    round_length_set(round_=final, length=13)
    assert set(Match.objects.filter(round=final).values_list("length", flat=True)) == {13}
    first = main.rounds.get(number=1)
    round_start(round_=first)
    with pytest.raises(Invalid) as err:
        round_length_set(round_=first, length=9)
    assert err.value.code == "round-started"


@pytest.mark.parametrize("field", [2, 3, 6, 8, 13])
def test_double_elimination_plays_to_one_champion(tournament, enter, field):
    event = event_create(
        tournament=tournament, name="Double", format="double-elimination", match_lengths=[3]
    )
    enter(event, field)
    draw_make(event=event, method="rating")
    brackets = set(event.rounds.values_list("bracket", flat=True))
    assert {Round.Bracket.MAIN, Round.Bracket.FINAL} <= brackets
    # Lower lines win: the losers bracket champion takes grand final 1, so the reset is played.
    run_to_champion([event], choose=lambda m: 2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert event.champion_id is not None
    active = event.entries.exclude(status=Entry.Status.ELIMINATED)
    assert list(active) == [event.champion]
    # Everyone but the champion lost exactly twice... or once in the grand final reset path.
    losses = {
        e.pk: Match.objects.filter(event=event, is_bye=False, winner__isnull=False)
        .exclude(winner=e)
        .filter(pk__in=Match.objects.filter(entry1=e).values("pk"))
        .count()
        + Match.objects.filter(event=event, is_bye=False, winner__isnull=False, entry2=e)
        .exclude(winner=e)
        .count()
        for e in event.entries.all()
    }
    assert losses[event.champion_id] <= 1
    assert all(n == 2 for pk, n in losses.items() if pk != event.champion_id)


def test_double_elimination_without_reset_when_the_winners_champion_wins(tournament, enter):
    event = event_create(
        tournament=tournament, name="Double", format="double-elimination", match_lengths=[3]
    )
    enter(event, 4)
    draw_make(event=event, method="rating")
    run_to_champion([event], choose=lambda m: 1)
    event.refresh_from_db()
    reset = Match.objects.get(event=event, round__bracket=Round.Bracket.FINAL, round__number=2)
    assert reset.is_bye
    assert reset.entry1_id is None
    assert event.champion.seed == 1
