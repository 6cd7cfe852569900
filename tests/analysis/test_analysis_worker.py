"""The analysis runs on the live worker, from its own queue, after the upload commits."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from matches.models import Analysis, AnalysisFigures, Match
from tests.matches.test_api import make_bracket

FILE = Path(__file__).resolve().parent.parent / "data" / "analysis" / "a01_3pt.mat"


@pytest.mark.services
@pytest.mark.gnubg
@pytest.mark.django_db(transaction=True)
def test_an_uploaded_file_is_analysed_on_the_live_worker(
    celery_worker_process, analysis_on, wait_for
) -> None:
    from tournament.celery import app

    # The analyses' queue is this run's queue name plus ".analysis".
    assert f"{app.conf.task_default_queue}.analysis" == settings.ANALYSIS_QUEUE
    b = make_bracket(3)
    tournament = b.event.tournament
    tournament.analysis_plies = 0
    tournament.save()
    match = b.first
    with FILE.open("rb") as f:
        answer = b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    assert answer.status_code == 201, answer.json()
    before = Match.objects.values("score1", "score2", "status", "winner_id").get(pk=match.pk)
    done = wait_for(
        lambda: Analysis.objects.filter(match=match, status__in=["done", "failed"]).first(),
        timeout=120,
    )
    assert (done.status, done.reason) == ("done", "")
    assert done.attempts == 1
    assert done.cpu_seconds > 0
    assert done.peak_memory_kb > 10_000
    assert AnalysisFigures.objects.filter(analysis=done, game=0).count() == 2
    after = Match.objects.values("score1", "score2", "status", "winner_id").get(pk=match.pk)
    assert after == before
    page = b.link_client(match, 1).get(f"/api/matches/{match.pk}/analysis/").json()
    assert page["status"] == "done"
    assert len(page["players"]) == 2
