"""Helpers shared by the tournament services: errors, clocks and entry states."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction

from tournament.api_errors import DomainError
from tournament.formats.errors import FormatError
from tournament.models import Entry, Event

#: Entries still in an event (not withdrawn, not eliminated).
ACTIVE = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)


def format_error(err: FormatError) -> DomainError:
    """A formats error as the API shows it: its code, and the input field it is about."""
    detail: dict[str, Any] = {"field": err.field} if err.field else {}
    return DomainError(err.message, code=err.code, **detail)


@contextmanager
def formats_errors() -> Iterator[None]:
    """Turn a ``FormatError`` raised inside the block into a ``DomainError``."""
    try:
        yield
    except FormatError as err:
        raise format_error(err) from err


def event_lock(event_id: int) -> None:
    """Lock an event's row (the caller holds the transaction).

    Every service that moves a bracket locks the event before any of its matches or
    rounds, so two of them never hold a row the other waits for (a deadlock).
    """
    list(
        Event.objects.select_for_update()
        .filter(pk=event_id)
        .order_by()  # no join for the default ordering: lock this row only
        .values_list("pk", flat=True)
    )


def refuse(message: str, *, code: str, field: str | None = None, **detail: Any) -> DomainError:
    """A business-rule refusal (HTTP 400) naming the field it is about, when there is one."""
    if field is not None:
        detail["field"] = field
    return DomainError(message, code=code, **detail)


@contextmanager
def integrity_as(message: str, *, code: str, field: str | None = None) -> Iterator[None]:
    """Turn a database constraint violation inside the block into a clear refusal."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as err:
        raise refuse(message, code=code, field=field) from err
