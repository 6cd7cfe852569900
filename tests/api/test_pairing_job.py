"""A round paired in the background is an outbox row (``outbox.PAIR_TASK``), like every
follow-up that must happen: it commits with the request, is published after the commit
and again by the drain if that publish is lost, and runs as often as the outbox runs it
without pairing a round twice or losing its answer."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.factories import token_client
from tournament import outbox
from tournament.models import OutboxTask, Round, User
from tournament.services.pairing_jobs import pairing_job_key, pairing_job_token_key
from tournament.tasks.outbox import run_outbox
from tournament.tasks.pairing import pair_next_round

from . import test_tournament_api as weekend
from .test_swiss_elimination_api import report
from .test_tournament_api import all_pages, csv_of, ok

pytestmark = pytest.mark.django_db

director = weekend.director
api = weekend.api


@pytest.fixture
def event_id(api: Any) -> Iterator[int]:
    """A Swiss elimination of 12 whose round 1 is complete (no job of an earlier test's
    event of the same id in the cache, before or after)."""
    ok(api.post("/api/tournaments/", {"name": "Open", "slug": "open"}), 201)
    body = {"name": "Main", "format": "swiss-elimination", "match_lengths": [1]}
    eid: int = ok(api.post("/api/tournaments/open/events/", body), 201)["id"]
    keys = [pairing_job_key(eid), pairing_job_token_key(eid)]
    cache.delete_many(keys)
    ok(api.post("/api/players/import/", {"csv": csv_of(12), "event": eid}))
    ok(api.post(f"/api/events/{eid}/draw/", {"method": "random", "seed": 1}), 201)
    ok(api.post(f"/api/events/{eid}/rounds/next/"), 201)
    for match in all_pages(api, f"/api/matches/?event={eid}&status=ready"):
        report(api, match, 1)
    yield eid
    cache.delete_many(keys)


def _queue(director: User, event_id: int) -> OutboxTask:
    """Ask for the next round in the background; the commit's publish is not run (as when
    the web node dies right after the commit), so the job waits in the outbox."""
    queued = token_client(director).post(
        f"/api/events/{event_id}/rounds/next/", {"background": True}, format="json"
    )
    assert queued.status_code == 202
    assert queued.json() == {"state": "queued", "messages": []}
    return OutboxTask.objects.get(task=outbox.PAIR_TASK, args__0=event_id)


def test_the_job_is_an_outbox_row_that_pairs_the_round(
    api: Any, director: User, event_id: int
) -> None:
    started = timezone.now()
    row = _queue(director, event_id)
    assert row.args[:3] == [event_id, [], director.pk]
    # A pairing may outlast the outbox's usual lease: the drain leaves it alone that long.
    assert row.available_at >= started + timedelta(seconds=590)
    assert ok(api.get(f"/api/events/{event_id}/rounds/next/"))["state"] == "queued"

    assert run_outbox(row.pk) == "ran"
    job = ok(api.get(f"/api/events/{event_id}/rounds/next/"))
    assert job["state"] == "done", job
    assert job["round"] == 2
    assert not OutboxTask.objects.filter(pk=row.pk).exists()


def test_a_job_run_again_changes_nothing(api: Any, director: User, event_id: int) -> None:
    """The outbox runs a row at least once: a second run of a finished job, or of one a
    newer job replaced, neither pairs nor overwrites the answer."""
    row = _queue(director, event_id)
    args = list(row.args)
    assert run_outbox(row.pk) == "ran"
    done = ok(api.get(f"/api/events/{event_id}/rounds/next/"))

    assert pair_next_round(*args) == "done already"
    assert ok(api.get(f"/api/events/{event_id}/rounds/next/")) == done
    assert Round.objects.filter(event_id=event_id).count() == 2

    newer = _queue(director, event_id)  # round 2 is under way: this job will be refused
    assert pair_next_round(*args) == "done already"
    assert ok(api.get(f"/api/events/{event_id}/rounds/next/"))["state"] == "queued"
    assert run_outbox(newer.pk) == "ran"
    refused = ok(api.get(f"/api/events/{event_id}/rounds/next/"))
    assert refused["state"] == "refused"
    assert refused["error"]["code"] == "round-in-progress"


def test_a_job_under_way_is_the_answer_and_nothing_more_is_queued(
    director: User, event_id: int
) -> None:
    _queue(director, event_id)
    again = token_client(director).post(
        f"/api/events/{event_id}/rounds/next/", {"background": True}, format="json"
    )
    assert again.status_code == 202
    assert again.json()["state"] == "queued"
    assert OutboxTask.objects.filter(task=outbox.PAIR_TASK).count() == 1


def test_the_drain_publishes_a_lost_job_again_and_leaves_it_its_long_lease(
    director: User, event_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A job whose lease ran out (its worker died) is published again; the next lease is
    as long as the first, so a pairing still under way is not run beside itself."""
    from tournament.tasks import outbox as outbox_tasks

    published: list[list[int]] = []
    monkeypatch.setattr(outbox_tasks, "publish", lambda ids: published.append(list(ids)))
    row = _queue(director, event_id)
    OutboxTask.objects.filter(pk=row.pk).update(available_at=timezone.now())
    assert outbox_tasks.drain_outbox() == 1
    assert published == [[row.pk]]
    row.refresh_from_db()
    assert row.attempts == 1
    assert row.available_at >= timezone.now() + timedelta(seconds=590)
