"""gnubg's answer cannot be forged by a match file, and anything unreadable fails at once.

The attack: a ``.mat`` whose player is named ``@@ANALYSIS-JSON@@`` (the marker the
runner looked for in gnubg's output) made the task fail with a JSON error and left the
analysis "running" for an hour. The script now writes its answer to a file of its own;
an answer that cannot be read fails the analysis at once, with the reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from matches.models import Analysis
from tests.matches.test_api import make_bracket

FILE = Path(__file__).resolve().parent.parent / "data" / "analysis" / "a01_3pt.mat"
MARKERS = ("@@ANALYSIS-JSON@@", "@@END-ANALYSIS-JSON@@")


def _upload(b, match, text: str):  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("match.mat", text.encode(), content_type="text/plain")
    answer = b.link_client(match, 1).post(
        f"/api/matches/{match.pk}/record/",
        {"file": upload, "first_is": match.entry1.player_id},
        format="multipart",
    )
    assert answer.status_code == 201, answer.json()


def _named(first: str, second: str) -> str:
    return re.sub(
        r"^ gnubg : (\d+) +root : (\d+)$",
        rf" {first} : \1              {second} : \2",
        FILE.read_text(),
        flags=re.M,
    )


@pytest.mark.gnubg
def test_players_named_like_the_old_markers_are_analysed(
    db: None, analysis_on, eager_tasks, django_capture_on_commit_callbacks
) -> None:
    b = make_bracket(3)
    t = b.event.tournament
    t.analysis_plies = 0
    t.save()
    match = b.first
    with django_capture_on_commit_callbacks(execute=True):
        _upload(b, match, _named(*MARKERS))
    analysis = Analysis.objects.get(match=match)
    assert (analysis.status, analysis.reason) == ("done", "")
    data = b.client_for(b.director).get(f"/api/matches/{match.pk}/analysis/").json()
    assert len(data["players"]) == 2


def _fake_gnubg(tmp_path: Path, body: str) -> str:
    script = tmp_path / "gnubg"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ('printf \'{"match": \' > "$ANALYSIS_OUT"', "could not be read"),
        ("printf '[1, 2]' > \"$ANALYSIS_OUT\"", "could not be read: not an object"),
        ('printf \'{"match": 7}\' > "$ANALYSIS_OUT"', "could not be read: no match in it"),
        ("printf '\\377\\376' > \"$ANALYSIS_OUT\"", "could not be read"),
        (
            "python3 -c \"print('[' * 100000 + ']' * 100000)\" > \"$ANALYSIS_OUT\"",
            "could not be read",
        ),
        ('printf \'{"match": {"stats": "x"}}\' > "$ANALYSIS_OUT"', "could not be read"),
        ("echo '@@ANALYSIS-JSON@@{\"match\": {}}@@END-ANALYSIS-JSON@@'", "without an analysis"),
    ],
)
def test_an_unreadable_answer_fails_the_analysis_at_once_with_its_reason(
    db: None,
    analysis_on,
    eager_tasks,
    django_capture_on_commit_callbacks,
    settings,
    tmp_path: Path,
    body: str,
    reason: str,
) -> None:
    settings.GNUBG_PATH = _fake_gnubg(tmp_path, body)
    b = make_bracket(3)
    match = b.first
    with django_capture_on_commit_callbacks(execute=True):
        _upload(b, match, FILE.read_text())
    analysis = Analysis.objects.get(match=match)
    assert analysis.status == "failed"
    assert reason in analysis.reason
    assert analysis.finished_at is not None
