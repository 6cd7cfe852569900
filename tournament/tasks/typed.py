"""Celery's ``shared_task`` with types: Celery ships none, so its decorator left each task
untyped for mypy.

``task`` and ``bound_task`` call ``shared_task`` with the same options and return the very
task it makes; only mypy sees more: a task called or ``delay``-ed takes its function's
arguments, and a bound task's first argument is a ``Bound`` (``self.retry``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Protocol, cast

from celery import shared_task


class Task[**P, R](Protocol):
    """What the apps use of a task: its name, a call in this process, a queued run."""

    name: str

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R: ...

    def delay(self, *args: P.args, **kwargs: P.kwargs) -> Any: ...

    def apply_async(
        self,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
        **options: Any,
    ) -> Any: ...


class Bound(Protocol):
    """What a bound task's body uses of itself."""

    def retry(self, *, countdown: float | None = None, **options: Any) -> Exception:
        """Celery's ``Retry`` to raise: the task runs again after ``countdown`` seconds."""
        ...


def task[**P, R](**options: Any) -> Callable[[Callable[P, R]], Task[P, R]]:
    """``@shared_task(**options)``, typed."""
    return cast("Callable[[Callable[P, R]], Task[P, R]]", shared_task(**options))


def bound_task[**P, R](
    **options: Any,
) -> Callable[[Callable[Concatenate[Bound, P], R]], Task[P, R]]:
    """``@shared_task(bind=True, **options)``, typed: the function's first argument is the
    task itself, which callers do not pass."""
    return cast(
        "Callable[[Callable[Concatenate[Bound, P], R]], Task[P, R]]",
        shared_task(**{**options, "bind": True}),
    )
