"""The invariant checker itself: a bracket played to the end passes; each kind of damage
that the race, fault and load tests look for is caught."""

from __future__ import annotations

import pytest

from matches.models import Game, Match, Submission
from tests.resilience.invariants import assert_invariants, invariant_violations
from tests.resilience.world import World, build_world, play_to_end
from tournament.services.advance import match_advance

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(django_capture_on_commit_callbacks) -> World:  # type: ignore[no-untyped-def]
    """A 4-player event whose round 1 is played and confirmed (the bracket moved on)."""
    world = build_world(size=4, lengths=(3,))
    for match in world.matches(1):
        with django_capture_on_commit_callbacks(execute=True):
            play_to_end(match, winner_side=1)
        match_advance(match_id=match.pk)  # what the task does (no worker sees this transaction)
    return world


def test_a_played_round_keeps_every_invariant(played: World) -> None:
    final = played.matches(2)[0]
    assert final.entry1_id is not None
    assert final.entry2_id is not None
    assert_invariants(event_ids=[played.event.pk], submissions={m.pk: 4 for m in played.matches(1)})


def test_a_score_that_is_not_the_sum_of_its_games_is_caught(played: World) -> None:
    match = played.matches(1)[0]
    Match.objects.filter(pk=match.pk).update(score2=1)
    problems = invariant_violations(event_ids=[played.event.pk])
    assert any("score 3-1" in p for p in problems), problems


def test_a_game_lost_from_the_middle_is_caught(played: World) -> None:
    match = played.matches(1)[0]
    Game.objects.filter(match=match, number=2).update(voided=True)
    problems = invariant_violations(match_ids=[match.pk])
    assert any("numbered [1, 3]" in p for p in problems), problems
    assert any("game 3: starts at 2-0" in p for p in problems), problems


def test_an_entry_on_two_lines_of_a_round_is_caught(played: World) -> None:
    first, second = played.matches(1)
    Match.objects.filter(pk=second.pk).update(entry2=first.entry2_id)
    problems = invariant_violations(event_ids=[played.event.pk])
    assert any(f"entry {first.entry2_id} sits in matches" in p for p in problems), problems


def test_a_winner_missing_from_the_next_round_is_caught(played: World) -> None:
    final = played.matches(2)[0]
    Match.objects.filter(pk=final.pk).update(entry1=None)
    problems = invariant_violations(event_ids=[played.event.pk])
    assert any("on that line" in p for p in problems), problems


def test_a_lost_submission_is_caught(played: World) -> None:
    match = played.matches(1)[0]
    Submission.objects.filter(match=match, version=4, kind="confirm").delete()
    problems = invariant_violations(match_ids=[match.pk], submissions={match.pk: 4})
    assert any("4 report requests, 3 submissions" in p for p in problems), problems
    Submission.objects.filter(match=match, version=3).update(version=7)
    problems = invariant_violations(match_ids=[match.pk])
    assert any("versions [1, 2, 7]" in p for p in problems), problems


def test_a_winner_below_the_length_is_caught(played: World) -> None:
    """A correction that swapped the winner and kept the score (the loser with 3, the
    "winner" with 0) breaks the invariant."""
    match = played.matches(1)[0]
    Match.objects.filter(pk=match.pk).update(winner=match.entry2_id)
    problems = invariant_violations(match_ids=[match.pk])
    assert any("the winner must reach the length" in p for p in problems), problems


def test_a_score_only_result_with_both_at_the_length_is_caught(played: World) -> None:
    match = played.matches(1)[0]
    Game.objects.filter(match=match).update(voided=True)
    Match.objects.filter(pk=match.pk).update(decision=Match.Decision.SCORE, score2=3)
    problems = invariant_violations(match_ids=[match.pk])
    assert any("(score)" in p and "3-3 of 3" in p for p in problems), problems


def test_a_forfeit_may_end_below_the_length(played: World) -> None:
    match = played.matches(1)[0]
    Match.objects.filter(pk=match.pk).update(
        decision=Match.Decision.FORFEIT, winner=match.entry2_id
    )
    assert invariant_violations(match_ids=[match.pk]) == []
