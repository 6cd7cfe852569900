"""Heavier races for ``make stress``: 48 clients at once over the four matches of a
round, 12 waves, then the director settles each match and the bracket moves on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.resilience.faults import wait_until_worker_idle
from tests.resilience.invariants import assert_invariants
from tests.resilience.racing import CLEAN, race_matches, token_headers
from tests.resilience.world import build_world

pytestmark = [pytest.mark.stress, pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _worker_idle_at_the_end(celery_worker_process: Any) -> Iterator[None]:
    yield
    wait_until_worker_idle()


def test_48_clients_race_over_a_round_of_four_matches(wait_for) -> None:
    world = build_world(size=8, lengths=(7,))
    matches = world.matches(1)
    answers, stored = race_matches(world, matches, waves=12, clients=48, seed=48)
    assert set(answers) <= CLEAN, sorted(set(answers))
    assert answers.count(201) >= 4
    assert answers.count(409) >= 12
    director = token_headers(world, world.director)
    for match in matches:
        winner = match.entry1.player_id  # type: ignore[union-attr]
        resolved = APIClient().post(
            f"/api/matches/{match.pk}/resolve/",
            {"games": [{"winner": winner}] * match.length},
            format="json",
            **director,
        )
        assert resolved.status_code == 200, resolved.json()
        stored[match.pk] += 1
    assert_invariants(match_ids=[m.pk for m in matches], submissions=dict(stored))
    wait_for(
        lambda: (
            not Match.objects.filter(
                pk__in=[m.pk for m in matches], advanced_at__isnull=True
            ).exists()
        ),
        timeout=90,
    )
    assert_invariants(event_ids=[world.event.pk])
    print(f"heavy race: {len(answers) + len(matches)} requests, {sum(stored.values())} stored")
