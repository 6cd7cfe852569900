"""Issue 13's target for ``make stress``: 20 runs of a 16-player Main and its fed
Consolation, eight matches at once, with no deadlock, no stuck match and no 5xx
(the same run as tests/resilience/test_fed_consolation_races.py, 3 times there)."""

from __future__ import annotations

import pytest

from tests.resilience.fed_consolation import run_repetitions, second_worker

__all__ = ["second_worker"]

pytestmark = [pytest.mark.stress, pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.timeout(1800)  # 20 tournaments: 5 minutes alone, more under load
@pytest.mark.usefixtures("second_worker")
def test_twenty_runs_of_a_fed_consolation_without_deadlock_or_stuck_match() -> None:
    run_repetitions(20)
