"""Schemathesis, full run (``make stress``): coverage phase plus random fuzzing of every
operation as a director and as a player; at least 2,000 requests in all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.resilience import schema_fuzz
from tests.resilience.world import World

pytestmark = pytest.mark.stress

#: Random examples per operation and role, on top of the coverage phase's cases.
BUDGET = 25
MINIMUM_REQUESTS = 2_000


@pytest.fixture
def world(db: None) -> Iterator[World]:
    with schema_fuzz.connection_kept():
        yield schema_fuzz.fuzz_world()


schema = schema_fuzz.load_schema(coverage=True)
FUZZ = settings(
    max_examples=BUDGET,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@schema.parametrize()
@FUZZ
def test_api_as_director(case: Any, world: World) -> None:
    schema_fuzz.run_case(case, world, "director")


@schema.parametrize()
@FUZZ
def test_api_as_player(case: Any, world: World) -> None:
    schema_fuzz.run_case(case, world, "player")


def test_zz_the_run_sent_enough_requests() -> None:
    """Runs last in this module: the budget above really sent 2,000+ requests."""
    sent = schema_fuzz.total_sent()
    by_status: dict[int, int] = {}
    for (_role, status), count in schema_fuzz.SENT.items():
        by_status[status] = by_status.get(status, 0) + count
    print(f"schemathesis sent {sent} requests; by status: {dict(sorted(by_status.items()))}")
    assert sent >= MINIMUM_REQUESTS
    assert not [s for s in by_status if s >= 500]
