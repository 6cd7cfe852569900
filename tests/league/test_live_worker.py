"""With PostgreSQL, Redis and a live Celery worker: ratings and deadline rules run there."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches.models import Match
from tests.factories import MatchFactory
from tests.ratings.conftest import finish_match
from tournament.models import Player, RatingChange
from tournament.services.deadlines import round_deadline_set
from tournament.tasks.deadlines import apply_deadlines, send_deadline_reminders


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_confirmed_match_is_rated_by_the_live_worker(celery_worker_process, wait_for) -> None:
    match = MatchFactory(length=7)
    finish_match(match, winner=2, at=timezone.now())  # commits: the receiver queues rate_match
    wait_for(lambda: RatingChange.objects.filter(match=match).count() == 2)
    assert Player.objects.get(pk=match.entry2.player_id).experience == 7


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_beat_tasks_run_in_the_live_worker(celery_worker_process, wait_for) -> None:
    soon = MatchFactory()
    round_deadline_set(round=soon.round, deadline=timezone.now() + dt.timedelta(hours=2))
    late = MatchFactory()
    round_deadline_set(round=late.round, deadline=timezone.now() - dt.timedelta(minutes=1))
    send_deadline_reminders.delay()
    apply_deadlines.delay()
    wait_for(lambda: Match.objects.get(pk=soon.pk).reminded_at is not None)
    wait_for(lambda: Match.objects.get(pk=late.pk).flagged)
