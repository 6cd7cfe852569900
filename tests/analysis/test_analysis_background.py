"""Without a broker (Celery eager, the embedded default) an upload never waits for gnubg.

The analysis runs after the commit in a background thread of the web process: the
upload answers while it is still queued, the match page and the API say so, and the
figures arrive when the thread is done (``analysis_thread.wait``: tests wait for it
deterministically; the test holds the thread's one gnubg slot to see it queued).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from matches.models import Analysis
from tests.matches.test_api import make_bracket
from tournament.tasks import analysis_thread

DATA = Path(__file__).resolve().parent.parent / "data"

pytestmark = [pytest.mark.gnubg, pytest.mark.django_db(transaction=True)]


def test_an_eager_upload_answers_before_the_analysis_runs(
    analysis_on, eager_tasks, settings, client
) -> None:  # type: ignore[no-untyped-def]
    settings.ANALYSIS_IN_THREAD = True  # the default outside the test suite
    b = make_bracket(3)
    t = b.event.tournament
    t.analysis_plies = 0
    t.analysis_public = True
    t.save()
    match = b.first
    anyone = APIClient()
    assert analysis_thread.SLOTS.acquire(timeout=60)  # gnubg's one slot is busy
    try:
        with (DATA / "analysis/a01_3pt.mat").open("rb") as f:
            answer = b.link_client(match, 1).post(
                f"/api/matches/{match.pk}/record/",
                {"file": f, "first_is": match.entry1.player_id},
                format="multipart",
            )
        assert answer.status_code == 201, answer.json()
        data = anyone.get(f"/api/matches/{match.pk}/analysis/").json()
        assert (data["status"], data["players"]) == ("queued", [])
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert "Analysis queued" in page
        assert analysis_thread.running() == 1
    finally:
        analysis_thread.SLOTS.release()
    assert analysis_thread.wait(timeout=600)
    assert analysis_thread.running() == 0
    analysis = Analysis.objects.get(match=match)
    assert (analysis.status, analysis.reason) == ("done", "")
    data = anyone.get(f"/api/matches/{match.pk}/analysis/").json()
    assert data["status"] == "done"
    assert [p["player"] for p in data["players"]] == [
        match.entry1.player_id,
        match.entry2.player_id,
    ]
    assert all(p["pr"] == round(p["error_rate_memg"] / 2, 2) for p in data["players"])


def test_the_first_background_analysis_takes_up_those_a_dead_process_left(
    analysis_on, eager_tasks, settings, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A process that died mid-analysis left it running with a stale heartbeat; no beat
    runs the sweep without a broker: the next process' first analysis does."""
    import datetime as dt

    from django.utils import timezone

    settings.ANALYSIS_IN_THREAD = True
    monkeypatch.setattr(analysis_thread, "_started", False)  # a fresh process
    b = make_bracket(3)
    t = b.event.tournament
    t.analysis_plies = 0
    t.save()
    stale = timezone.now() - dt.timedelta(minutes=10)
    assert analysis_thread.SLOTS.acquire(timeout=60)
    try:
        for match, name in ((b.first, "analysis/a01_3pt.mat"), (b.second, "gnubg/m02_3pt.sgf")):
            with (DATA / name).open("rb") as f:
                answer = b.link_client(match, 1).post(
                    f"/api/matches/{match.pk}/record/",
                    {"file": f, "first_is": match.entry1.player_id},
                    format="multipart",
                )
            assert answer.status_code == 201, answer.json()
            if match == b.first:  # its process dies: running, heartbeat stopped
                analysis_thread.SLOTS.release()
                assert analysis_thread.wait(timeout=600)
                assert analysis_thread.SLOTS.acquire(timeout=60)
                Analysis.objects.filter(match=match).update(
                    status="running", heartbeat_at=stale, plies_done=None
                )
                monkeypatch.setattr(analysis_thread, "_started", False)
        lost = Analysis.objects.get(match=b.first)
        assert lost.status == "running"
        assert analysis_thread.running() == 2  # the new upload's and the lost one's
    finally:
        analysis_thread.SLOTS.release()
    assert analysis_thread.wait(timeout=600)
    assert sorted(Analysis.objects.values_list("status", flat=True)) == ["done", "done"]
