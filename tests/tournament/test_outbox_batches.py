"""The outbox is the one path for a result's follow-ups: each done once, a round's together.

On SQLite (and in these ``django_db`` tests on PostgreSQL) the on-commit hooks never
run, so the outbox rows a transaction wrote stay in the table for the test to read and
to run by hand, as a worker would.
"""

from __future__ import annotations

import pytest
from django.test import TestCase

from matches.models import Match
from tournament import outbox, page_cache
from tournament.models import Event, OutboxTask, Round
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.results import match_result_enter
from tournament.services.rounds import event_next_round, round_start
from tournament.services.withdrawals import entry_withdraw
from tournament.tasks.advance import advance_match
from tournament.tasks.outbox import run_batch

from .conftest import play, winning_games

pytestmark = pytest.mark.django_db


def advance_rows(match_id: int) -> int:
    return OutboxTask.objects.filter(task=outbox.ADVANCE_TASK, args__0=match_id).count()


def test_a_walkover_in_a_bracket_move_is_advanced_once(tournament, enter):
    """The move decides the walkover and advances it inline: no outbox row advances it again."""
    main = event_create(tournament=tournament, name="Main", match_lengths=[3])
    enter(main, 8)
    draw_make(event=main, method="rating")
    for r in main.rounds.order_by("number"):
        round_start(round_=r)
    a = Match.objects.get(event=main, round__number=1, slot=0)
    b = Match.objects.get(event=main, round__number=1, slot=1)
    play(a, 1)
    entry_withdraw(entry=a.entry1)
    play(b, 2)
    semi = Match.objects.get(event=main, round__number=2, slot=0)
    assert semi.decision == Match.Decision.WALKOVER
    assert semi.advanced_at is not None
    assert advance_rows(semi.pk) == 0
    assert advance_rows(b.pk) == 1  # the played match's own row is still there


def swiss_round(tournament, enter, players: int) -> tuple[Event, Round]:
    event = event_create(
        tournament=tournament,
        name="Swiss",
        format=Event.Format.SWISS,
        match_lengths=[1],
        rounds=3,
    )
    enter(event, players)
    draw_make(event=event, method="rating")
    return event, event_next_round(event=event)


def report(match: Match) -> None:
    match_result_enter(match=match, games=winning_games(1, (0, 0), 1))


def test_a_league_match_pages_are_bumped_by_its_result_only(tournament, enter):
    """The advance of a Swiss match that leaves its round open changes no page: it does not
    bump the event's pages a second time."""
    event, round_ = swiss_round(tournament, enter, 8)
    first, *_ = round_.matches.order_by("slot")
    report(first)
    before = page_cache.version("event", event.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        advance_match(first.pk)
    first.refresh_from_db()
    assert first.advanced_at is not None
    assert page_cache.version("event", event.pk) == before


def test_a_rounds_follow_ups_run_in_one_batch(tournament, enter):
    """Every result of a round waits in the outbox; one batch run advances them all and
    closes the round."""
    _, round_ = swiss_round(tournament, enter, 32)
    matches = list(round_.matches.filter(status=Match.Status.READY).order_by("slot"))
    for match in matches:
        report(match)
    assert OutboxTask.objects.filter(task=outbox.ADVANCE_TASK).count() == len(matches)
    round_.refresh_from_db()
    assert round_.status != Round.Status.COMPLETE

    assert run_batch(outbox.ADVANCE_TASK) == f"ran {len(matches)}"
    assert not OutboxTask.objects.filter(task=outbox.ADVANCE_TASK).exists()
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE
    assert not Match.objects.filter(round=round_, advanced_at=None).exists()
    # A second run finds nothing left: the rows' own messages cost one query each.
    assert run_batch(outbox.ADVANCE_TASK) == "done already"


def test_publishes_of_one_batched_task_coalesce_until_its_run_starts():
    """Many commits queue one batch run of a task, not one run each (``publish_batch``)."""
    from django.core.cache import cache

    from tournament.celery import app
    from tournament.outbox import pending_key, publish_batch

    sent: list[str] = []
    task = outbox.ADVANCE_TASK
    cache.delete(pending_key(task))
    real, eager = run_batch.delay, app.conf.task_always_eager
    app.conf.task_always_eager = False  # a broker's publishes coalesce; eager ones run
    try:
        run_batch.delay = lambda name: sent.append(name)  # type: ignore[method-assign]
        for _ in range(50):
            publish_batch(task)
        assert sent == [task]
        cache.delete(pending_key(task))  # what the run does first
        publish_batch(task)
        assert sent == [task, task]
    finally:
        run_batch.delay = real  # type: ignore[method-assign]
        app.conf.task_always_eager = eager
        cache.delete(pending_key(task))


def test_an_eager_publish_runs_even_when_another_run_left_its_pending_key(eager_tasks):
    """Eager tasks (the embedded default) run at the publish: a pending key left by an
    earlier publish to a broker (another test, another process) must not swallow it (a CI
    failure: a bracket's winner never moved on)."""
    from django.core.cache import cache

    from tournament.outbox import pending_key, publish_batch

    ran: list[str] = []
    task = outbox.ADVANCE_TASK
    real = run_batch.delay
    cache.set(pending_key(task), 1, timeout=60)
    try:
        run_batch.delay = lambda name: ran.append(name)  # type: ignore[method-assign]
        publish_batch(task)
        assert ran == [task]
    finally:
        run_batch.delay = real  # type: ignore[method-assign]
        cache.delete(pending_key(task))
