"""The transactional outbox: follow-up work written in the deciding transaction survives
the death of the process that should have published it, and a database error in a task.

A web node killed between its commit and the publish is played here by a publish that
does nothing (the process "died"); the drain, which beat runs every 2 s, then has the
work done: the bracket moves on and the players of the opened final are emailed.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import OperationalError, transaction
from django.utils import timezone

from matches.models import Match
from matches.signals import announce_match_completed
from tests.matches.test_api import Bracket, game, make_bracket
from tournament import outbox
from tournament.models import Event, OutboxTask
from tournament.services.tables import round_tables_assign
from tournament.tasks import notifications
from tournament.tasks.outbox import drain_outbox

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bracket(eager_tasks: None) -> Bracket:
    """Four players; each match opens as soon as both its players are known (the final's
    players are then emailed, and seated since round 1 had tables)."""
    b = make_bracket()
    Event.objects.filter(pk=b.event.pk).update(start_matches=Event.StartMatches.AUTO)
    round_tables_assign(round_=b.first.round)
    return b


def win(b: Bracket, match: Match) -> None:
    """Player 1 wins ``match`` 8-0 in one game and player 2 confirms."""
    answer = game(b.link_client(match, 1), match, winner=match.entry1.player_id, cube=8)
    assert answer.status_code == 201, answer.json()
    confirmed = b.link_client(match, 2).post(f"/api/matches/{match.pk}/confirm/")
    assert confirmed.status_code == 200, confirmed.json()


def finalists(b: Bracket) -> list[str]:
    """The addresses of the two round-1 winners (player 1 of each match)."""
    return sorted(m.entry1.player.email for m in (b.first, b.second))


def time_passes() -> None:
    """Every outbox row's lease runs out (as ``FIRST_LEASE`` seconds would do)."""
    OutboxTask.objects.update(available_at=timezone.now() - dt.timedelta(seconds=1))


def test_a_node_dying_after_the_commit_loses_no_bracket_move_and_no_email(
    bracket: Bracket, monkeypatch: pytest.MonkeyPatch, mailoutbox
) -> None:
    win(bracket, bracket.first)
    assert Match.objects.get(pk=bracket.final.pk).entry1_id == bracket.first.entry1_id
    assert not OutboxTask.objects.exists()  # published, ran, deleted
    mailoutbox.clear()

    monkeypatch.setattr(outbox, "publish", lambda ids: None)
    monkeypatch.setattr(outbox, "publish_batch", lambda task: None)
    win(bracket, bracket.second)
    left = sorted(OutboxTask.objects.values_list("task", flat=True))
    assert left == ["tournament.tasks.advance_match", "tournament.tasks.rate_match"]
    assert Match.objects.get(pk=bracket.second.pk).advanced_at is None
    assert drain_outbox() == 0  # not before its lease ran out: the publish may be on its way
    monkeypatch.undo()

    time_passes()
    assert drain_outbox() == 2
    final = Match.objects.get(pk=bracket.final.pk)
    assert (final.entry2_id, final.status) == (bracket.second.entry1_id, "ready")
    assert final.table == 1  # seated by the advance's own outbox row, run after its commit
    assert sorted(m.to[0] for m in mailoutbox) == finalists(bracket)
    assert not OutboxTask.objects.exists()


def test_the_outbox_rows_roll_back_with_their_transaction(bracket: Bracket) -> None:
    def report_that_fails() -> None:
        with transaction.atomic():
            announce_match_completed(bracket.first.pk, bracket.event.pk)
            assert OutboxTask.objects.count() == 2
            raise RuntimeError("the report failed")

    with pytest.raises(RuntimeError):
        report_that_fails()
    assert not OutboxTask.objects.exists()


def test_a_database_error_while_emailing_is_retried_until_the_player_is_told(
    bracket: Bracket, monkeypatch: pytest.MonkeyPatch, mailoutbox
) -> None:
    real = notifications.match_ready_message
    failures = iter([OperationalError("server closed the connection unexpectedly")])

    def blip(*args: object):  # type: ignore[no-untyped-def]
        for exc in failures:
            raise exc
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(notifications, "match_ready_message", blip)
    win(bracket, bracket.first)
    mailoutbox.clear()  # round 1's notices
    win(bracket, bracket.second)  # the final opens: its notice fails once
    (row,) = OutboxTask.objects.all()
    assert row.task == "tournament.tasks.notify_match_ready"
    assert (row.args, row.attempts) == ([bracket.final.pk], 1)
    assert "server closed the connection" in row.last_error
    assert mailoutbox == []

    time_passes()
    assert drain_outbox() == 1
    assert sorted(m.to[0] for m in mailoutbox) == finalists(bracket)
    assert not OutboxTask.objects.exists()


def test_a_row_published_again_waits_longer_each_time() -> None:
    assert [outbox.lease(n).total_seconds() for n in (1, 2, 3, 10)] == [5, 10, 20, 300]


def test_a_notice_held_up_until_the_match_is_under_way_still_goes_out(
    bracket: Bracket, monkeypatch: pytest.MonkeyPatch, mailoutbox
) -> None:
    win(bracket, bracket.first)
    mailoutbox.clear()
    # Nothing is published after a commit (the drain still publishes what it finds).
    monkeypatch.setattr(outbox, "publish", lambda ids: None)
    monkeypatch.setattr(outbox, "publish_batch", lambda task: None)
    win(bracket, bracket.second)
    time_passes()
    drain_outbox()  # the advance runs; the final's notice is written, not published
    assert OutboxTask.objects.filter(task__endswith="notify_match_ready").exists()
    assert mailoutbox == []
    final = Match.objects.get(pk=bracket.final.pk)
    answer = game(bracket.link_client(final, 1), final, winner=final.entry1.player_id, cube=2)
    assert answer.status_code == 201, answer.json()
    assert Match.objects.get(pk=final.pk).status == "playing"  # the players found it first
    time_passes()
    drain_outbox()
    assert sorted(m.to[0] for m in mailoutbox) == finalists(bracket)
