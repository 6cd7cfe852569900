"""Helpers for rating tests: finish a match the way a confirmed report leaves it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.db import transaction

from matches.models import Match
from matches.signals import announce_match_completed

Finish = Callable[..., Match]
T0 = dt.datetime(2030, 3, 4, 18, 0, tzinfo=dt.UTC)


def finish_match(
    match: Match,
    *,
    winner: int,
    at: dt.datetime,
    decision: str = Match.Decision.PLAY,
    loser_score: int = 0,
    winner_score: int | None = None,
) -> Match:
    """Complete ``match`` as a confirmed result would (score, winner, times) and announce it."""
    full = match.length if winner_score is None else winner_score
    with transaction.atomic():
        match.score1, match.score2 = (full, loser_score) if winner == 1 else (loser_score, full)
        match.winner = match.entry1 if winner == 1 else match.entry2
        match.status = Match.Status.COMPLETE
        match.decision = decision
        match.decided_at = at
        match.confirmed_at = at if decision == Match.Decision.PLAY else None
        match.save()
        announce_match_completed(match.pk, match.event_id)
    return match


@pytest.fixture
def finish() -> Finish:
    return finish_match
