"""Races on PostgreSQL: many clients at once on one match, and a director correcting a
result while the next round starts or is paired.

Each racing request runs in its own thread with its own database connection,
through the real API (row locks, on-commit hooks, a live Celery worker). After each
wave the invariants (``tests/resilience/invariants.py``) are checked, including that
every request reached the database as a stored submission.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match, Submission
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.resilience.concurrency import run_at_once
from tests.resilience.invariants import assert_invariants, bracket_by_place
from tests.resilience.racing import (
    CLEAN,
    link_headers,
    post_call,
    race_matches,
    token_headers,
)
from tests.resilience.world import World, build_world, play_to_end
from tournament.models import Event, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.results import match_winner_correct
from tournament.services.rounds import event_next_round, round_start

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _live_worker(celery_worker_process: Any) -> None:
    """Every race here runs with the live worker (tests/conftest.py waits for it to idle)."""


def _stored(match: Match) -> int:
    return Submission.objects.filter(match=match).count()


def test_many_clients_report_confirm_and_dispute_one_match_at_once(
    celery_worker_process, wait_for
) -> None:
    world = build_world(size=2, lengths=(5,))
    (match,) = world.matches(1)
    e1 = match.entry1
    assert e1 is not None
    p1 = e1.player_id
    answers, stored = race_matches(world, [match], waves=8, clients=24, seed=8)
    assert set(answers) <= CLEAN, sorted(set(answers))
    assert 201 in answers, "no game was ever accepted"
    assert 409 in answers, "the race never collided"
    callers = {"director": token_headers(world, world.director)}
    base = f"/api/matches/{match.pk}"

    # The director's decision is final: five single games for player 1.
    resolved = APIClient().post(
        f"{base}/resolve/", {"games": [{"winner": p1}] * 5}, format="json", **callers["director"]
    )
    assert resolved.status_code == 200, resolved.json()
    assert resolved.json()["status"] == "complete"
    assert_invariants(match_ids=[match.pk], submissions={match.pk: stored[match.pk] + 1})
    wait_for(lambda: Event.objects.get(pk=world.event.pk).champion_id == e1.pk)


def _play_round_one(world: World, wait_for: Any) -> list[Match]:
    for match in world.matches(1):
        play_to_end(match, winner_side=1)
    wait_for(
        lambda: (
            not Match.objects.filter(
                event=world.event, round__number=1, advanced_at__isnull=True
            ).exists()
        )
    )
    return world.matches(1)


@pytest.mark.parametrize("attempt", range(4))
def test_director_corrects_results_while_the_next_round_starts(
    attempt: int, celery_worker_process, wait_for
) -> None:
    world = build_world(size=8, lengths=(1,))
    first = _play_round_one(world, wait_for)
    second = world.round(2)
    director = token_headers(world, world.director)
    late = world.matches(2)[1]  # its players report as soon as they may
    assert late.entry1 is not None
    reporter = link_headers(late.entry1)
    calls = [
        post_call(
            director, f"/api/matches/{first[0].pk}/correct/", {"winner": first[0].entry2.player_id}
        ),
        post_call(director, f"/api/rounds/{second.pk}/start/", {}),
        post_call(
            director, f"/api/matches/{first[1].pk}/correct/", {"winner": first[1].entry2.player_id}
        ),
        post_call(reporter, f"/api/matches/{late.pk}/games/", {"winner": late.entry1.player_id}),
    ]
    order = list(range(len(calls)))
    random.Random(attempt).shuffle(order)
    outcomes = run_at_once([calls[i] for i in order])
    errors = [o.error for o in outcomes if o.error is not None]
    assert not errors, errors
    answers = {order[i]: o.value[0] for i, o in enumerate(outcomes)}
    assert answers[0] == answers[1] == answers[2] == 200, answers
    assert answers[3] in (201, 409), answers

    top, bottom = world.matches(2)
    assert (top.entry1_id, top.entry2_id) == (first[0].entry2_id, first[1].entry2_id)
    assert (bottom.entry1_id, bottom.entry2_id) == (first[2].entry1_id, first[3].entry1_id)
    assert top.status == Match.Status.READY
    assert bottom.status in (Match.Status.READY, Match.Status.REPORTED)
    assert world.round(2).status == Round.Status.STARTED
    assert_invariants(event_ids=[world.event.pk])

    # The same operations one after the other leave the same bracket.
    reference = build_world(size=8, lengths=(1,))
    ref_first = _play_round_one(reference, wait_for)
    match_winner_correct(match=ref_first[0], winner=ref_first[0].entry2)
    match_winner_correct(match=ref_first[1], winner=ref_first[1].entry2)
    round_start(round_=reference.round(2))
    if answers[3] == 201:
        play_late = reference.matches(2)[1]
        post_call(
            link_headers(play_late.entry1),
            f"/api/matches/{play_late.pk}/games/",
            {"winner": play_late.entry1.player_id},
        )()
    assert _positions(world) == _positions(reference)


def _positions(world: World) -> list[tuple[object, ...]]:
    return bracket_by_place(world.event.pk, [p.pk for p in world.players])


def test_director_corrects_a_result_while_the_next_swiss_round_is_paired(
    celery_worker_process, wait_for
) -> None:
    director = UserFactory(username="swiss-director")
    tournament = TournamentFactory(director=director, slug="swiss-race")
    event = event_create(
        tournament=tournament, name="Swiss", format="swiss", rounds=3, match_lengths=[1]
    )
    for i in range(8):
        entry_register(event=event, player=PlayerFactory(name=f"Swiss {i}"))
    draw_make(event=event, method="random", seed=8)
    event_next_round(event=event)
    matches = list(Match.objects.filter(event=event, round__number=1).order_by("slot"))
    for match in matches:
        play_to_end(match, winner_side=1)
    wait_for(lambda: event.rounds.get(number=1).status == Round.Status.COMPLETE)
    world_like = {"HTTP_AUTHORIZATION": f"Token {_token_key(director)}"}
    calls = [
        post_call(
            world_like,
            f"/api/matches/{matches[0].pk}/correct/",
            {"winner": matches[0].entry2.player_id},
        ),
        post_call(world_like, f"/api/events/{event.pk}/rounds/next/", {}),
    ]
    outcomes = run_at_once(calls)
    assert [o.error for o in outcomes] == [None, None]
    assert [o.value[0] for o in outcomes] == [200, 201]
    second = list(Match.objects.filter(event=event, round__number=2))
    seated = [e for m in second for e in (m.entry1_id, m.entry2_id) if e is not None]
    assert sorted(seated) == sorted(event.entries.values_list("pk", flat=True))
    assert Match.objects.get(pk=matches[0].pk).winner_id == matches[0].entry2_id
    assert_invariants(event_ids=[event.pk])


def _token_key(user: Any) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key
