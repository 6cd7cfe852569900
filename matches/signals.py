"""What the matches app announces. It knows nothing of brackets: listeners do the rest."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

#: Sent inside the transaction that completes a match (confirmed result, forfeit,
#: walkover, bye or a director's correction), before it commits. Keywords: ``match_id``,
#: ``event_id``. Receivers write the follow-up work (outbox rows: the bracket's advance,
#: the rating) that must commit or roll back with it; there is no after-commit twin: the
#: outbox is the one path for required follow-ups (docs/how-it-works.md).
match_completing = Signal()

#: Sent after any accepted change of a match's score or state commits (live pages: a
#: best-effort cache bump, the one thing left to on-commit hooks).
#: Keywords: ``match_id``, ``event_id``, ``tournament_id`` (``None`` when the sender did
#: not have it at hand: listeners look it up).
match_changed = Signal()


def announce_match_completed(match_id: int, event_id: int) -> None:
    """Announce that a match is complete: ``match_completing`` now, inside the caller's
    transaction (a receiver's failure fails the transaction)."""
    match_completing.send(sender=None, match_id=match_id, event_id=event_id)


def announce_match_changed(
    match_id: int, event_id: int, *, tournament_id: int | None = None
) -> None:
    """Announce, once the current transaction commits, that a match's score or state changed.

    Senders that loaded the match's event pass its ``tournament_id``: listeners then
    need no query to find the tournament's pages.
    """
    transaction.on_commit(
        lambda: _send(
            match_changed, match_id=match_id, event_id=event_id, tournament_id=tournament_id
        ),
        robust=True,
    )


def _send(signal: Signal, **kwargs: int | None) -> None:
    for receiver, result in signal.send_robust(sender=None, **kwargs):
        if isinstance(result, Exception):
            log.error("receiver %r failed for %s: %r", receiver, kwargs, result)


#: Sent after the transaction that queued an analysis commits. Keyword: ``analysis_id``.
analysis_queued = Signal()


def announce_analysis_queued(analysis_id: int) -> None:
    """Announce, once the current transaction commits, that an analysis waits for its run."""
    transaction.on_commit(lambda: _send(analysis_queued, analysis_id=analysis_id), robust=True)
