"""The analysis queue every tournament shares cannot be flooded.

The attacks: twelve re-runs of one match in a row (each got 202 and a new run); re-runs
of many matches by one director; one tournament's burst of uploads in front of another
tournament's one analysis. Now a re-run while the match's analysis is queued or running
is merged into it (the answer says so), re-runs are capped per match and per director
in any hour (429 ``rerun-limit``, the caps in the answer and beside the console's
button), and each tournament has a fair share of the queue: at most
``ANALYSIS_SLOTS_PER_TOURNAMENT`` of its analyses on it, the rest held in the database
and released as its slots free."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from matches.models import Analysis, Submission
from matches.services.analysis import analysis_request
from tests.matches.test_api import make_bracket
from tournament.tasks import analysis as analysis_tasks

pytestmark = pytest.mark.django_db

FILE = Path(__file__).resolve().parent.parent / "data" / "analysis" / "a01_3pt.mat"


def _upload(b, match) -> Submission:  # type: ignore[no-untyped-def]
    with FILE.open("rb") as f:
        answer = b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    assert answer.status_code == 201, answer.json()
    return Submission.objects.get(match=match, kind="record", status="accepted")


def test_twelve_reruns_while_one_is_queued_are_merged_into_it(settings) -> None:
    settings.ANALYSIS_AUTO = True
    settings.GNUBG_PATH = "/bin/true"  # present: the analysis stays queued (nothing runs it)
    b = make_bracket(3)
    match = b.first
    _upload(b, match)
    director = b.client_for(b.director)
    answers = [director.post(f"/api/matches/{match.pk}/analysis/rerun/") for _ in range(12)]
    assert {a.status_code for a in answers} == {202}
    assert {a.json()["merged"] for a in answers} == {True}
    assert {a.json()["run"] for a in answers} == {1}
    assert "merged" in answers[-1].json()["message"]
    assert Analysis.objects.filter(match=match).count() == 1


def test_reruns_are_capped_per_match_and_per_director_in_an_hour(settings, client) -> None:
    settings.ANALYSIS_AUTO = True
    settings.GNUBG_PATH = "/nonexistent/gnubg"  # each run ends at once (unavailable)
    settings.ANALYSIS_RERUNS_PER_MATCH_HOUR = 3
    settings.ANALYSIS_RERUNS_PER_DIRECTOR_HOUR = 5
    b = make_bracket(3)
    _upload(b, b.first)
    _upload(b, b.second)
    director = b.client_for(b.director)
    first = [director.post(f"/api/matches/{b.first.pk}/analysis/rerun/") for _ in range(12)]
    assert [a.status_code for a in first] == [202] * 3 + [429] * 9
    assert [a.json()["limits"]["match_left"] for a in first[:3]] == [2, 1, 0]
    refused = first[3].json()
    assert refused["code"] == "rerun-limit"
    assert "3 per match and 5 per director" in refused["message"]
    assert refused["detail"]["match_left"] == 0
    assert Analysis.objects.filter(match=b.first).count() == 1 + 3
    # the director's cap counts every match: 3 spent, 2 left on the second match
    second = [director.post(f"/api/matches/{b.second.pk}/analysis/rerun/") for _ in range(4)]
    assert [a.status_code for a in second] == [202, 202, 429, 429]
    assert second[2].json()["detail"]["director_left"] == 0
    # the console states the caps beside its button, and refuses past them with the reason
    client.force_login(b.director)
    slug = b.event.tournament.slug
    page = client.get(f"/director/t/{slug}/matches/{b.first.pk}/").content.decode()
    assert "3 per match and 5 per director in any hour (0 left for this match, 0 for you)" in page
    after = client.post(f"/director/t/{slug}/matches/{b.first.pk}/analysis/", follow=True)
    assert "Too many re-runs" in after.content.decode()
    assert Analysis.objects.filter(match=b.first).count() == 1 + 3


def test_one_tournaments_uploads_cannot_starve_anothers_analysis(
    settings, eager_tasks, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """Tournament A queues ten analyses, then tournament B one. A worker takes the queue
    in order (first in, first out): B's analysis runs among the first three, not 11th."""
    settings.ANALYSIS_SLOTS_PER_TOURNAMENT = 2
    settings.GNUBG_PATH = "/bin/true"  # a run ends at once (gnubg's answer unreadable)
    queue: deque[int] = deque()
    monkeypatch.setattr(analysis_tasks.analyse_match, "delay", queue.append)  # the broker
    a = make_bracket(3)
    b = make_bracket(3, names=("Eve", "Finn", "Gus", "Hal"))
    record_a, record_b = _upload(a, a.first), _upload(b, b.first)
    for _ in range(10):
        with django_capture_on_commit_callbacks(execute=True):
            analysis_request(submission_id=record_a.pk, again=True)
    with django_capture_on_commit_callbacks(execute=True):
        late = analysis_request(submission_id=record_b.pk, again=True)
    assert late is not None
    assert len(queue) == 3  # two of A's, then B's; A's other eight wait in the database
    assert Analysis.objects.filter(submission=record_a, held=True).count() == 8
    order = []
    while queue:  # the worker: one at a time, in the queue's order
        analysis_id = queue.popleft()
        order.append(analysis_id)
        analysis_tasks.analyse(analysis_id)
    assert order.index(late.pk) <= 2
    assert len(order) == 11  # every one of A's ran too, as slots freed
    assert set(Analysis.objects.values_list("status", flat=True)) == {"failed"}
    assert not Analysis.objects.filter(held=True).exists()


def test_the_sweep_releases_held_analyses_into_free_slots(settings, monkeypatch) -> None:
    settings.ANALYSIS_SLOTS_PER_TOURNAMENT = 1
    settings.GNUBG_PATH = "/bin/true"
    queue: list[int] = []
    monkeypatch.setattr(analysis_tasks.analyse_match, "delay", queue.append)
    a = make_bracket(3)
    record = _upload(a, a.first)
    made = [analysis_request(submission_id=record.pk, again=True) for _ in range(3)]
    assert queue == []  # their announcements were lost (never committed here)
    assert analysis_tasks.sweep_analyses() == 0
    assert queue == [made[0].pk]  # one slot: the oldest goes, the others stay held
    analysis_tasks.sweep_analyses()
    assert queue == [made[0].pk]
