"""Run callables at the same instant in threads, each with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections


@dataclass
class Outcome:
    """What one racing call gave: its value, or the exception it raised."""

    value: Any = None
    error: BaseException | None = None


def run_at_once(calls: Sequence[Callable[[], Any]], *, timeout: float = 60.0) -> list[Outcome]:
    """Start every call behind one barrier; each thread closes its connections when done."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout)
            outcomes[index].value = call()
        except BaseException as exc:  # recorded and asserted on by the caller
            outcomes[index].error = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    stuck = [i for i, t in enumerate(threads) if t.is_alive()]
    assert not stuck, f"calls {stuck} still running after {timeout} s (a deadlock?)"
    return outcomes
