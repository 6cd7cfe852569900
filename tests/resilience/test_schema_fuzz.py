"""Schemathesis on every API operation, quick budget (the stress run sends 2,000+)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.resilience import schema_fuzz
from tests.resilience.world import World

#: Examples per operation and role here (36 operations x 2 roles).
BUDGET = 5


@pytest.fixture
def world(db: None) -> Iterator[World]:
    with schema_fuzz.connection_kept():
        yield schema_fuzz.fuzz_world()


schema = schema_fuzz.load_schema(coverage=False)
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
