"""Faults end an analysis as failed or unavailable, with the reason; never the match's result.

An unreadable file, gnubg past its time limit, gnubg missing; a duplicate delivery of
the task does nothing; a director's re-run is a new run kept beside the old one; a
tournament with analysis off queues nothing.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone

from matches.models import Analysis, Match, Submission
from matches.services.analysis import analysis_claim, analysis_request, analysis_run
from tests.factories import UserFactory
from tests.matches.test_api import make_bracket

DATA = Path(__file__).resolve().parent.parent / "data"
FILE = DATA / "analysis/a01_3pt.mat"


def upload(capture, *, plies: int = 0, enabled: bool = True):  # type: ignore[no-untyped-def]
    b = make_bracket(3)
    tournament = b.event.tournament
    tournament.analysis_plies = plies
    tournament.analysis_enabled = enabled
    tournament.save()
    match = b.first
    with capture(execute=True), FILE.open("rb") as f:
        answer = b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    assert answer.status_code == 201, answer.json()
    return b, match, answer.json()


def result(match: Match) -> tuple[int, int, str, int | None]:
    m = Match.objects.get(pk=match.pk)
    return (m.score1, m.score2, m.status, m.winner_id)


@pytest.mark.gnubg
def test_a_file_gnubg_cannot_read_fails_with_the_reason(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks
) -> None:
    b, match, _ = upload(django_capture_on_commit_callbacks)
    before = result(match)
    record = Submission.objects.get(match=match, kind="record", status="accepted")
    Submission.objects.filter(pk=record.pk).update(file_text="this is not a match file\n")
    director = b.client_for(b.director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = director.post(f"/api/matches/{match.pk}/analysis/rerun/")
    assert answer.status_code == 202
    data = director.get(f"/api/matches/{match.pk}/analysis/").json()
    assert (data["status"], data["run"]) == ("failed", 2)
    assert "could not read" in data["reason"]
    assert result(match) == before
    # The first run is kept beside it.
    runs = list(Analysis.objects.filter(match=match).order_by("run").values_list("run", "status"))
    assert runs == [(1, "done"), (2, "failed")]


@pytest.mark.gnubg
def test_gnubg_past_its_time_limit_is_stopped_and_the_analysis_failed(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks, settings
) -> None:
    settings.ANALYSIS_TIMEOUT = 0.05
    _, match, _ = upload(django_capture_on_commit_callbacks, plies=2)
    before = result(match)
    analysis = Analysis.objects.get(match=match)
    assert analysis.status == "failed"
    assert "longer than the limit of 0.05 s" in analysis.reason
    assert result(match) == before


def test_gnubg_missing_shows_analysis_unavailable(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks, settings
) -> None:
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    b, match, answer = upload(django_capture_on_commit_callbacks)
    analysis = Analysis.objects.get(match=match)
    assert analysis.status == "unavailable"
    assert "not installed" in analysis.reason
    data = b.link_client(match, 2).get(f"/api/matches/{match.pk}/analysis/").json()
    assert (data["status"], data["players"]) == ("unavailable", [])
    page = b.link_client(match, 2).get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    assert b"analysis unavailable" in page.content.lower()
    assert result(match)[:2] == tuple(answer["score"])


def test_analysis_off_queues_nothing(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks
) -> None:
    _, match, _ = upload(django_capture_on_commit_callbacks, enabled=False)
    assert not Analysis.objects.filter(match=match).exists()


@pytest.mark.gnubg
def test_a_second_delivery_of_the_task_does_nothing(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks
) -> None:
    _, match, _ = upload(django_capture_on_commit_callbacks)
    analysis = Analysis.objects.get(match=match)
    assert analysis.status == "done"
    figures = list(analysis.figures.values_list("pk", flat=True))
    assert analysis_run(analysis_id=analysis.pk) == "finished"
    assert list(analysis.figures.values_list("pk", flat=True)) == figures
    assert Analysis.objects.get(pk=analysis.pk).attempts == 1


def test_a_running_analysis_is_taken_over_once_after_its_worker_was_lost(
    db: None, analysis_on, django_capture_on_commit_callbacks, settings
) -> None:
    settings.GNUBG_PATH = "/bin/true"  # queued, never run here
    b = make_bracket(3)
    match = b.first
    with FILE.open("rb") as f:
        b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    analysis = Analysis.objects.get(match=match)
    claimed, _ = analysis_claim(analysis_id=analysis.pk)
    assert claimed is not None
    # A duplicate delivery while the first run is alive: busy, nothing changes.
    assert analysis_claim(analysis_id=analysis.pk) == (None, "busy")
    stale = timezone.now() - dt.timedelta(minutes=5)
    Analysis.objects.filter(pk=analysis.pk).update(heartbeat_at=stale)
    again, _ = analysis_claim(analysis_id=analysis.pk)
    assert again is not None
    assert again.attempts == 2
    Analysis.objects.filter(pk=analysis.pk).update(heartbeat_at=stale)
    assert analysis_claim(analysis_id=analysis.pk) == (None, "finished")
    lost = Analysis.objects.get(pk=analysis.pk)
    assert lost.status == "failed"
    assert "lost 2 times" in lost.reason


def test_only_directors_rerun(db: None, analysis_on, settings) -> None:
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    b = make_bracket(3)
    match = b.first
    with FILE.open("rb") as f:
        b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    player = b.link_client(match, 2).post(f"/api/matches/{match.pk}/analysis/rerun/")
    assert player.status_code in (401, 403)
    stranger = b.client_for(UserFactory()).post(f"/api/matches/{match.pk}/analysis/rerun/")
    assert stranger.status_code == 403
    other = b.client_for(b.director).post(f"/api/matches/{b.second.pk}/analysis/rerun/")
    assert (other.status_code, other.json()["code"]) == (400, "no-match-file")


def test_a_replaced_record_gets_a_new_analysis_and_the_old_one_is_kept(
    db: None, analysis_on, settings
) -> None:
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    b = make_bracket(3)
    match = b.first
    first = Submission.objects.none()
    with FILE.open("rb") as f:
        b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    first = Submission.objects.get(match=match, kind="record", status="accepted")
    # The same record asked again: the same analysis (idempotent).
    assert analysis_request(submission_id=first.pk).pk == Analysis.objects.get(match=match).pk
    assert Analysis.objects.filter(match=match).count() == 1


def test_directors_set_analysis_per_tournament_and_rerun_from_the_console(
    db: None, analysis_on, settings, client
) -> None:
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    b = make_bracket(3)
    t = b.event.tournament
    api = b.client_for(b.director)
    bad = api.patch(f"/api/tournaments/{t.slug}/", {"analysis_plies": 3}, format="json")
    assert bad.status_code == 400
    assert "analysis_plies" in str(bad.json())
    ok = api.patch(
        f"/api/tournaments/{t.slug}/",
        {"analysis_plies": 0, "analysis_public": False},
        format="json",
    )
    assert ok.status_code == 200, ok.json()
    assert (ok.json()["analysis_plies"], ok.json()["analysis_public"]) == (0, False)
    assert ok.json()["analysis_enabled"] is True
    match = b.first
    with FILE.open("rb") as f:
        b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    assert Analysis.objects.get(match=match).plies == 0
    client.force_login(b.director)
    page = client.get(f"/director/t/{t.slug}/matches/{match.pk}/")
    assert b"Re-run the analysis" in page.content
    answer = client.post(f"/director/t/{t.slug}/matches/{match.pk}/analysis/")
    assert answer.status_code == 302
    assert list(Analysis.objects.filter(match=match).values_list("run", flat=True)) == [2, 1]


@pytest.mark.gnubg
def test_hidden_figures_until_the_event_ends(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks
) -> None:
    """With the figures private, players see the status only; directors see everything."""
    b = make_bracket(3)
    t = b.event.tournament
    t.analysis_public = False
    t.analysis_plies = 0
    t.save()
    match = b.first
    with django_capture_on_commit_callbacks(execute=True), FILE.open("rb") as f:
        b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    url = f"/api/matches/{match.pk}/analysis/"
    player = b.link_client(match, 2).get(url).json()
    assert (player["status"], player["visible"], player["players"]) == ("done", False, [])
    director = b.client_for(b.director).get(url).json()
    assert director["visible"] is True
    assert len(director["players"]) == 2
    b.event.status = "finished"
    b.event.save()
    assert len(b.link_client(match, 2).get(url).json()["players"]) == 2


def test_the_sweep_queues_a_lost_analysis_again(
    db: None, analysis_on, eager_tasks, settings
) -> None:
    from tournament.tasks.analysis import sweep_analyses

    settings.GNUBG_PATH = "/bin/true"  # queued; its task is lost (nothing runs it)
    b = make_bracket(3)
    match = b.first
    with FILE.open("rb") as f:
        b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    analysis = Analysis.objects.get(match=match)
    assert analysis.status == "queued"
    Analysis.objects.filter(pk=analysis.pk).update(held=False)  # sent to the queue, then lost
    assert sweep_analyses() == 0  # too recent: its own task may still come
    Analysis.objects.filter(pk=analysis.pk).update(queued_at=timezone.now() - dt.timedelta(hours=1))
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    assert sweep_analyses() == 1
    assert Analysis.objects.get(pk=analysis.pk).status == "unavailable"


def test_a_private_tournaments_analysis_is_for_its_directors(db: None, analysis_on) -> None:
    b = make_bracket(3)
    t = b.event.tournament
    t.is_public = False
    t.save()
    url = f"/api/matches/{b.first.pk}/analysis/"
    assert b.link_client(b.first, 1).get(url).status_code == 404
    assert b.client_for(b.director).get(url).json()["status"] == "none"
    assert (
        b.client_for(UserFactory()).get(f"/api/tournaments/{t.slug}/analysis/").status_code == 404
    )


@pytest.mark.gnubg
def test_a_rerun_keeps_the_old_figures_on_show_marked_until_the_new_ones_are_done(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks, client
) -> None:
    b, match, _ = upload(django_capture_on_commit_callbacks)
    t = b.event.tournament
    t.analysis_public = True
    t.save(update_fields=["analysis_public"])
    director = b.client_for(b.director)
    before = director.get(f"/api/matches/{match.pk}/analysis/").json()
    assert before["status"] == "done"
    assert before["players"]
    assert (before["being_rerun"], before["figures_run"]) == (False, 1)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert director.post(f"/api/matches/{match.pk}/analysis/rerun/").status_code == 202
    during = director.get(f"/api/matches/{match.pk}/analysis/").json()
    assert (during["status"], during["run"]) == ("queued", 2)
    assert during["being_rerun"] is True
    assert during["figures_run"] == 1
    assert during["players"] == before["players"]
    assert during["blunders"] == before["blunders"]
    assert during["figures_analysed_at"] is not None
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Being re-run" in page
    assert before["players"][0]["name"] in page.split('id="analysis"', 1)[1]
    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()
    after = director.get(f"/api/matches/{match.pk}/analysis/").json()
    assert (after["status"], after["run"], after["figures_run"]) == ("done", 2, 2)
    assert after["being_rerun"] is False
    assert after["figures_analysed_at"] is None
    assert "Being re-run" not in client.get(f"/matches/{match.pk}/").content.decode()
