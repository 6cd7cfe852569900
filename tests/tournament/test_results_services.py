"""Forfeits, walkovers, penalty points and corrections of a decided winner."""

from __future__ import annotations

import pytest

from matches.errors import Invalid
from matches.models import Game, Match, Submission
from tournament.models import Entry, Event
from tournament.services.advance import match_advance
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.results import (
    match_award,
    match_penalty_add,
    match_winner_correct,
)
from tournament.services.rounds import round_start
from tournament.services.withdrawals import entry_withdraw

from .conftest import play, start_due_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def eight(tournament, enter):
    """An 8-player Main (5-point matches) feeding a Consolation from round 1, rounds 1-2 started."""
    main = event_create(tournament=tournament, name="Main", match_lengths=[5])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[3],
        feeds_from=main,
        feed_rounds=[1],
    )
    enter(main, 8)
    draw_make(event=main, method="rating")
    for r in main.rounds.order_by("number"):
        round_start(round_=r)
    for r in consolation.rounds.order_by("number"):
        round_start(round_=r)
    return main, consolation


def _m(event, number, slot):
    return Match.objects.get(event=event, round__number=number, slot=slot)


def _entry(match, side):
    return Entry.objects.get(pk=match.entry1_id if side == 1 else match.entry2_id)


def test_forfeit_completes_the_match_and_the_winner_moves_on(eight):
    main, consolation = eight
    match = _m(main, 1, 0)
    match_award(decision="forfeit", match=match, winner=_entry(match, 2), reason="no show")
    match.refresh_from_db()
    assert (match.status, match.decision, match.winner_id) == (
        "complete",
        "forfeit",
        match.entry2_id,
    )
    assert Submission.objects.filter(match=match, kind="forfeit", as_director=True).exists()
    match_advance(match_id=match.pk)
    assert _m(main, 2, 0).entry1_id == match.entry2_id
    fed = _m(consolation, 1, 0)
    assert Entry.objects.get(pk=fed.entry1_id).player_id == _entry(match, 1).player_id
    with pytest.raises(Invalid) as err:
        match_award(decision="walkover", match=match, winner=_entry(match, 1))
    assert err.value.code == "match-decided"


def test_penalty_points_raise_the_opponents_start_and_past_half_forfeit(eight):
    main, _ = eight
    match = _m(main, 1, 1)
    late = _entry(match, 1)
    match_penalty_add(match=match, against=late, points=2)
    match.refresh_from_db()
    assert (match.start_score2, match.score2, match.status) == (2, 2, Match.Status.READY)
    match_penalty_add(match=match, against=late, points=1)  # 3 of 5: past half
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    assert match.decision == Match.Decision.FORFEIT
    assert match.winner_id == match.entry2_id


def test_penalty_points_start_the_match_at_that_score(eight):
    main, _ = eight
    match = _m(main, 1, 2)
    match_penalty_add(match=match, against=_entry(match, 2), points=1)
    play(match, 2)
    match.refresh_from_db()
    assert match.start_score1 == 1
    first = Game.objects.filter(match=match).order_by("number").first()
    assert (first.score_before1, first.score_before2) == (1, 0)
    with pytest.raises(Invalid) as err:
        match_penalty_add(match=match, against=_entry(match, 1), points=1)
    assert err.value.code == "match-started"


def test_correction_reseats_the_next_round_while_it_has_not_started(eight):
    main, consolation = eight
    match = _m(main, 1, 0)
    play(match, 1)
    old_winner, old_loser = _entry(match, 1), _entry(match, 2)
    match_winner_correct(match=match, winner=old_loser, reason="score sheet misread")
    match.refresh_from_db()
    assert match.winner_id == old_loser.pk
    assert _m(main, 2, 0).entry1_id == old_loser.pk
    fed = _m(consolation, 1, 0)
    assert Entry.objects.get(pk=fed.entry1_id).player_id == old_winner.player_id
    assert Entry.objects.get(pk=old_winner.pk).status == Entry.Status.ELIMINATED
    assert Entry.objects.get(pk=old_loser.pk).status == Entry.Status.REGISTERED
    # The wrongly fed player is out of the Consolation again, without a trace: no
    # "withdrawn" entry counted in it or listed among their results.
    assert not consolation.entries.filter(player=old_loser.player).exists()
    assert consolation.entries.count() == 1
    assert consolation.entries.get().player_id == old_winner.player_id
    assert Submission.objects.filter(match=match, kind="resolve").exists()


def test_correction_is_refused_once_the_next_match_started_unless_cascaded(eight):
    main, _ = eight
    a, b = _m(main, 1, 0), _m(main, 1, 1)
    play(a, 1)
    play(b, 1)
    semi = _m(main, 2, 0)
    assert semi.status == Match.Status.READY
    play(semi, 1)
    semi.refresh_from_db()
    final = _m(main, 3, 0)
    assert final.entry1_id == semi.winner_id
    with pytest.raises(Invalid) as err:
        match_winner_correct(match=a, winner=_entry(a, 2))
    assert err.value.code == "next-match-started"
    assert "has already started" in err.value.message
    a.refresh_from_db()
    assert a.winner_id == a.entry1_id  # nothing changed

    games_before = Game.objects.filter(match=semi).count()
    match_winner_correct(match=a, winner=_entry(a, 2), cascade=True)
    semi.refresh_from_db()
    final.refresh_from_db()
    assert semi.entry1_id == a.entry2_id
    assert semi.status == Match.Status.READY
    assert (semi.score1, semi.score2, semi.winner_id) == (0, 0, None)
    # The semi-final's games are voided, never deleted.
    assert Game.objects.filter(match=semi).count() == games_before
    assert not Game.objects.filter(match=semi, voided=False).exists()
    assert final.entry1_id is None
    # The semi-final can be played again, with the corrected player.
    play(semi, 1)
    assert _m(main, 3, 0).entry1_id == a.entry2_id


def test_correcting_the_final_changes_the_champion(eight):
    main, _ = eight
    for number in (1, 2, 3):
        for match in Match.objects.filter(event=main, round__number=number):
            play(match, 1)
    main.refresh_from_db()
    final = _m(main, 3, 0)
    assert main.champion_id == final.entry1_id
    match_winner_correct(match=final, winner=_entry(final, 2))
    main.refresh_from_db()
    assert main.champion_id == final.entry2_id
    assert main.status == Event.Status.FINISHED
    assert Entry.objects.get(pk=final.entry1_id).status == Entry.Status.ELIMINATED


def test_withdrawal_after_the_draw_gives_a_walkover(eight):
    main, _ = eight
    match = _m(main, 1, 3)
    entry_withdraw(entry=_entry(match, 1))
    match.refresh_from_db()
    assert match.decision == Match.Decision.WALKOVER
    assert match.winner_id == match.entry2_id


def test_a_withdrawn_player_waiting_for_an_opponent_gives_a_walkover_when_one_arrives(eight):
    main, _ = eight
    a, b = _m(main, 1, 0), _m(main, 1, 1)
    play(a, 1)
    entry_withdraw(entry=_entry(a, 1))
    play(b, 2)
    semi = _m(main, 2, 0)
    assert semi.status == Match.Status.COMPLETE
    assert semi.decision == Match.Decision.WALKOVER
    assert semi.winner_id == b.entry2_id


def test_a_match_without_both_players_cannot_be_forfeited(tournament, enter):
    main = event_create(tournament=tournament, name="Main")
    enter(main, 4)
    draw_make(event=main, method="rating")
    start_due_rounds(main)
    final = _m(main, 2, 0)
    with pytest.raises(Invalid) as err:
        match_award(
            decision="forfeit", match=final, winner=Entry.objects.filter(event=main).first()
        )
    assert err.value.code in {"match-not-ready", "not-in-match"}
