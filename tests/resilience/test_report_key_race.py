"""On PostgreSQL: two copies of one report, with one ``Idempotency-Key``, at the same moment.

A report reads whether its key was used in the statement that locks the match (one
round trip fewer a report). That statement's snapshot is taken before the lock is
granted, so a copy that commits while the other waits is not seen there: the key's
unique constraint must catch it, and the copy must still be answered as a replay, with
nothing recorded twice. The first copy is held inside its transaction until the second
is seen waiting for the row lock.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import transaction

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Game, Match, ReportKey, Submission
from matches.services.reporting import GameInput, game_report
from tests.matches.test_api import make_bracket
from tests.resilience.concurrency import Outcome, run_at_once
from tests.resilience.faults import backends_waiting_for_a_lock

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _race(
    first_game: tuple[int, int], second_game: tuple[int, int]
) -> tuple[Match, Outcome, Outcome]:
    """Report ``first_game`` (cube, game number; the first player wins) and hold it inside
    its transaction until ``second_game``, sent with the same key, is seen waiting for the
    match's row lock; then commit. The match and both outcomes."""
    match = make_bracket(length=25).first
    key = str(uuid.uuid4())
    actor = Actor(key=match.entry1.report_key)
    meta = RequestMeta(ip="127.0.0.1", user_agent="test")
    recorded, waiting = threading.Event(), threading.Event()

    def report(cube: int, number: int) -> Match:
        game = GameInput(winner=match.entry1.player_id, cube=cube, game_number=number)
        return game_report(
            match_id=match.pk, actor=actor, game=game, meta=meta, idempotency_key=key
        )

    def first() -> Match:
        with transaction.atomic():
            answer = report(*first_game)
            recorded.set()
            assert waiting.wait(30), "the second copy never waited for the row lock"
        return answer

    def second() -> Match:
        assert recorded.wait(30)
        return report(*second_game)

    def watch() -> None:
        assert recorded.wait(30)
        deadline = time.monotonic() + 30
        while not backends_waiting_for_a_lock() and time.monotonic() < deadline:
            time.sleep(0.02)
        waiting.set()

    one, two, watched = run_at_once([first, second, watch])
    assert watched.error is None, watched.error
    assert one.error is None, one.error
    assert ReportKey.objects.filter(match=match, key=key).count() == 1
    return match, one, two


def test_a_copy_committed_while_the_other_waits_for_the_lock_is_answered_as_a_replay() -> None:
    match, one, two = _race((2, 1), (2, 1))
    assert two.error is None, two.error
    assert not getattr(one.value, "replayed", False)
    assert two.value.replayed is True
    assert (two.value.score1, two.value.score2) == (2, 0)
    assert Game.objects.filter(match=match).count() == 1
    assert Submission.objects.filter(match=match).count() == 1


def test_a_copy_with_the_key_of_another_report_is_refused_and_kept_without_the_key() -> None:
    """The same race, the second copy another game under the first one's key: refused as
    a reused key (and kept as a rejected report), never as a replay."""
    match, _, two = _race((1, 1), (4, 2))
    assert getattr(two.error, "code", None) == "idempotency-key-reused", two.error
    assert Game.objects.filter(match=match).count() == 1
    statuses = sorted(Submission.objects.filter(match=match).values_list("status", flat=True))
    assert statuses == ["accepted", "rejected"]
