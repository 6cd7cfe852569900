"""The whole tournament, modelled: ``tests/model/machine.py`` run by hypothesis.

The bounded run is part of ``make test`` (SQLite in ``make test-quick``, PostgreSQL +
Redis in the parallel stage); the long run is marked ``stress`` (``make stress``).
Every new feature joins the model: add a rule there and an invariant if it brings one.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.model.machine import TournamentModel

pytestmark = pytest.mark.django_db

CHECKS = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]


def test_a_weekend_keeps_every_invariant() -> None:
    """The bounded run: a few dozen weekends of a few dozen steps (well under a minute)."""
    run_state_machine_as_test(
        TournamentModel,
        settings=settings(
            max_examples=10,
            stateful_step_count=35,
            deadline=None,
            suppress_health_check=CHECKS,
            database=None,
        ),
    )


#: The long run's size: ``MODEL_WEEKENDS`` weekends of up to ``MODEL_STEPS`` steps. The
#: defaults are about ten times the bounded run's steps (that one took 132 s here on
#: 2026-11-28, the machine loaded), so about twenty minutes.
LONG_WEEKENDS = int(os.environ.get("MODEL_WEEKENDS", "60"))
LONG_STEPS = int(os.environ.get("MODEL_STEPS", "60"))


@pytest.mark.stress
@pytest.mark.timeout(3 * 3600)  # the suite's 300 s stop hypothesis mid-run (a Flaky error)
def test_many_long_weekends_keep_every_invariant() -> None:
    """The long run, for ``make stress``."""
    run_state_machine_as_test(
        TournamentModel,
        settings=settings(
            max_examples=LONG_WEEKENDS,
            stateful_step_count=LONG_STEPS,
            deadline=None,
            suppress_health_check=CHECKS,
            database=None,
        ),
    )
