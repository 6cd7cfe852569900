"""Helpers shared by the tournament services: errors, clocks and entry states."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from matches.errors import Invalid, refuse
from tournament.formats.errors import FormatError
from tournament.models import Entry, Event

#: Entries still in an event (not withdrawn, not eliminated).
ACTIVE = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)


def format_error(err: FormatError) -> Invalid:
    """A formats error as the API shows it: its code, and the input field it is about."""
    detail: dict[str, Any] = {"field": err.field} if err.field else {}
    return Invalid(err.message, code=err.code, **detail)


@contextmanager
def formats_errors() -> Iterator[None]:
    """Turn a ``FormatError`` raised inside the block into an ``Invalid``."""
    try:
        yield
    except FormatError as err:
        raise format_error(err) from err


def event_lock(event_id: int) -> None:
    """Lock an event's row and those of the events it feeds or is fed from (the caller
    holds the transaction).

    The lock order, the one rule every service that holds more than one row lock follows
    so that no two transactions wait for each other (a deadlock):

    1. events, by ascending id: an event together with its feed family (a Main and the
       Consolations it feeds, which are always created after it), all in one statement;
    2. then rounds;
    3. then matches, by ascending id;
    4. players and entries last (ratings lock players on their own).

    Locks are ``FOR NO KEY UPDATE`` (``select_for_update(no_key=True)``): no service
    changes a primary key, and the lighter lock lets other transactions' foreign-key
    checks (``FOR KEY SHARE``, taken when a row referring to it is written, at COMMIT for
    Django's deferred constraints) through instead of queueing them behind the lock.
    The one ``FOR UPDATE`` left is ``player_link_regenerate``'s: it changes unique keys,
    which PostgreSQL's UPDATE locks that strongly anyway.

    Locking the whole family serialises a Main's bracket moves with its Consolation's:
    seating a Main loser in the Consolation and starting a Consolation round can then
    never interleave (the match that would stay ``pending`` for ever, issue 13).
    """
    family = Q(pk=event_id) | Q(feeds_from_id=event_id)
    source = Event.objects.filter(pk=event_id).values_list("feeds_from_id", flat=True).first()
    if source is not None:
        family |= Q(pk=source) | Q(feeds_from_id=source)
    list(
        Event.objects.select_for_update(no_key=True)
        .filter(family)
        .order_by("pk")  # ascending id, the lock order
        .values_list("pk", flat=True)
    )


@contextmanager
def integrity_as(message: str, *, code: str, field: str | None = None) -> Iterator[None]:
    """Turn a database constraint violation inside the block into a clear refusal."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as err:
        raise refuse(message, code=code, field=field) from err
