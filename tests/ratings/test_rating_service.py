"""Rating played matches: once each, never forfeits or byes, and the same numbers from scratch."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.management import call_command

from matches.models import Match
from tests.factories import EntryFactory, EventFactory, MatchFactory, PlayerFactory, RoundFactory
from tournament.formulas import ratings
from tournament.models import Player, RatingChange
from tournament.services.ratings import (
    Outcome,
    match_rate,
    ratings_recompute,
    unrated_match_ids,
)

from .conftest import T0, Finish

pytestmark = pytest.mark.django_db


def snapshot() -> dict[int, tuple[float, int]]:
    rows = Player.objects.values_list("pk", "rating", "experience")
    return {pk: (rating, experience) for pk, rating, experience in rows}


def history() -> list[tuple[int, int, float, float, int, dt.datetime]]:
    return list(
        RatingChange.objects.order_by("player_id", "created_at", "match_id").values_list(
            "player_id",
            "match_id",
            "rating_before",
            "rating_after",
            "experience_before",
            "created_at",
        )
    )


def test_a_played_match_moves_both_ratings_by_the_fibs_formula(finish: Finish) -> None:
    match = MatchFactory(
        length=7,
        entry1__player__rating=1600.0,
        entry1__player__experience=120,
        entry2__player__rating=1480.0,
    )
    finish(match, winner=2, at=T0, loser_score=5)

    assert match_rate(match_id=match.pk) is Outcome.RATED

    one, two = ratings.rate(1600.0, 1480.0, 7, winner=2, experience1=120, experience2=0)
    p1 = Player.objects.get(pk=match.entry1.player_id)
    p2 = Player.objects.get(pk=match.entry2.player_id)
    assert (p1.rating, p1.experience) == (one.rating_after, 127)
    assert (p2.rating, p2.experience) == (two.rating_after, 7)
    assert p2.rating > 1480.0 > p1.rating - 120
    change = RatingChange.objects.get(player=p2)
    assert (change.match_id, change.rating_before, change.experience_before, change.created_at) == (
        match.pk,
        1480.0,
        0,
        T0,
    )


def test_rating_twice_changes_nothing(finish: Finish) -> None:
    match = finish(MatchFactory(), winner=1, at=T0)
    assert match_rate(match_id=match.pk) is Outcome.RATED
    after_first = snapshot()
    assert match_rate(match_id=match.pk) is Outcome.ALREADY_RATED
    assert snapshot() == after_first
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.parametrize(
    "decision", [Match.Decision.FORFEIT, Match.Decision.WALKOVER], ids=["forfeit", "walkover"]
)
def test_forfeits_and_walkovers_are_not_rated(finish: Finish, decision: str) -> None:
    match = finish(MatchFactory(), winner=1, at=T0, decision=decision)
    before = snapshot()
    assert match_rate(match_id=match.pk) is Outcome.NOT_RATED
    assert snapshot() == before
    assert not RatingChange.objects.exists()


def test_byes_and_unfinished_matches_are_not_rated(finish: Finish) -> None:
    bye = MatchFactory(entry2=None, is_bye=True, status=Match.Status.COMPLETE, decision="bye")
    bye.winner = bye.entry1
    bye.save()
    # A director settled it before anyone reached the length: not a finished match.
    short = finish(MatchFactory(length=9), winner=1, at=T0, winner_score=6, loser_score=2)
    playing = MatchFactory(status=Match.Status.PLAYING, score1=3)
    before = snapshot()
    for match in (bye, short, playing):
        assert match_rate(match_id=match.pk) is Outcome.NOT_RATED
    assert snapshot() == before


@pytest.mark.usefixtures("eager_tasks")
def test_confirmation_queues_the_rating_through_the_signal(
    finish: Finish, django_capture_on_commit_callbacks
) -> None:
    match = MatchFactory()
    with django_capture_on_commit_callbacks(execute=True):
        finish(match, winner=1, at=T0)
    assert RatingChange.objects.filter(match=match).count() == 2
    assert Player.objects.get(pk=match.entry1.player_id).experience == match.length


def test_a_corrected_result_is_re_rated_from_scratch(finish: Finish) -> None:
    first = finish(MatchFactory(length=5), winner=1, at=T0)
    second = MatchFactory(length=5, event=first.event, round=first.round, entry1=first.entry1)
    finish(second, winner=2, at=T0 + dt.timedelta(hours=1))
    match_rate(match_id=first.pk)
    match_rate(match_id=second.pk)

    # The director turns the first match into a forfeit: it no longer counts.
    first.decision = Match.Decision.FORFEIT
    first.save()
    assert match_rate(match_id=first.pk) is Outcome.RECOMPUTED
    assert not RatingChange.objects.filter(match=first).exists()
    first_winner = Player.objects.get(pk=first.entry2.player_id)
    assert first_winner.experience == 0
    # ... and the other way round: a winner changed after rating.
    second.winner, second.score1, second.score2 = second.entry1, 5, 0
    second.save()
    assert match_rate(match_id=second.pk) is Outcome.RECOMPUTED
    corrected = RatingChange.objects.get(match=second, player_id=second.entry1.player_id)
    assert corrected.rating_after > corrected.rating_before


def _league(finish: Finish, rng: random.Random, players: int, matches: int) -> list[Match]:
    event = EventFactory(match_lengths=[1, 3, 5, 7, 9, 11])
    entries = [
        EntryFactory(event=event, player=PlayerFactory(rating=1500.0, experience=0))
        for _ in range(players)
    ]
    played = []
    for number in range(1, matches + 1):
        a, b = rng.sample(entries, 2)
        round_ = RoundFactory(event=event, number=number)
        match = MatchFactory(event=event, round=round_, slot=0, entry1=a, entry2=b)
        # Several matches settle at the same instant: the id breaks the tie.
        at = T0 + dt.timedelta(minutes=rng.randrange(0, matches // 2))
        played.append(finish(match, winner=rng.choice([1, 2]), at=at))
    return played


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_live_ratings_in_any_order_equal_a_recomputation(finish: Finish, seed: int) -> None:
    rng = random.Random(seed)
    played = _league(finish, rng, players=6, matches=24)
    rng.shuffle(played)  # tasks may run in any order; the result must not depend on it
    outcomes = {match_rate(match_id=m.pk) for m in played}
    assert {Outcome.RATED, Outcome.RECOMPUTED} <= outcomes
    live, live_history = snapshot(), history()
    assert len(live_history) == 2 * len(played)

    assert ratings_recompute() == len(played)
    assert snapshot() == live
    assert history() == live_history
    assert ratings_recompute(reset=True) == len(played)  # everybody started at 1500 anyway
    assert snapshot() == live


def test_recompute_keeps_each_players_starting_rating(finish: Finish) -> None:
    match = finish(MatchFactory(entry1__player__rating=1812.5), winner=2, at=T0)
    match_rate(match_id=match.pk)
    rated = snapshot()
    call_command("recompute_ratings")
    assert snapshot() == rated
    call_command("recompute_ratings", "--reset")
    assert RatingChange.objects.get(player_id=match.entry1.player_id).rating_before == 1500.0


def test_the_sweep_finds_matches_whose_task_was_lost(finish: Finish) -> None:
    lost = finish(MatchFactory(), winner=1, at=T0)
    finish(MatchFactory(), winner=1, at=T0, decision=Match.Decision.FORFEIT)
    recent = finish(MatchFactory(), winner=1, at=T0 + dt.timedelta(minutes=10))
    assert unrated_match_ids(settled_before=T0 + dt.timedelta(minutes=1)) == [lost.pk]
    match_rate(match_id=lost.pk)
    assert unrated_match_ids(settled_before=T0 + dt.timedelta(hours=1)) == [recent.pk]
