"""The event and player API answers carry the analysis figures too, hidden the same way.

``GET /api/events/{id}/`` embeds the event's PR table (``analysis``) and
``GET /api/players/{id}/`` the player's PR per analysed match; both equal what the
dedicated analysis endpoints answer, are empty while the tournament hides the figures
(before the end, or a private tournament for anybody but its directors), and take a
fixed number of queries however many matches were analysed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rest_framework.test import APIClient

from matches.models import AnalysisFigures, Match
from tests.factories import EntryFactory
from tests.matches.test_api import make_bracket
from tournament.models import Round
from tournament.services.rounds import round_start

DATA = Path(__file__).resolve().parent.parent / "data"

pytestmark = pytest.mark.gnubg


def _upload(b, match: Match, name: str, capture) -> None:  # type: ignore[no-untyped-def]
    with capture(execute=True), (DATA / name).open("rb") as f:
        answer = b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry1.player_id},
            format="multipart",
        )
    assert answer.status_code == 201, answer.json()


def _count_queries(client: APIClient, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as seen:
        assert client.get(url).status_code == 200
    return len(seen)


def test_event_and_player_answers_embed_the_figures_hidden_until_allowed(
    db: None,
    analysis_on,
    eager_tasks,
    django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
) -> None:
    b = make_bracket(3)
    t = b.event.tournament
    t.analysis_plies = 0
    t.analysis_public = False
    t.save()
    director = b.client_for(b.director)
    anyone = APIClient()
    event_url = f"/api/events/{b.event.pk}/"

    _upload(b, b.first, "analysis/a01_3pt.mat", django_capture_on_commit_callbacks)
    one_match = _count_queries(director, event_url)
    _upload(b, b.second, "gnubg/m02_3pt.sgf", django_capture_on_commit_callbacks)

    # Before the end with analysis_public off: the directors see them, nobody else.
    hidden = anyone.get(event_url).json()["analysis"]
    assert (hidden["matches_analysed"], hidden["players"]) == (0, [])
    assert hidden["label"] == "gnubg PR (unofficial)"
    shown = director.get(event_url).json()["analysis"]
    assert shown["matches_analysed"] == 2
    assert len(shown["players"]) == 4
    table = director.get(f"/api/events/{b.event.pk}/analysis/").json()
    assert shown["players"] == table["players"]
    figures = AnalysisFigures.objects.filter(game=0, plies=0, analysis__match__event=b.event)
    prs = {f.player_id: f.pr for f in figures}
    assert {row["player"]: row["average_pr"] for row in shown["players"]} == prs
    # Two analysed matches cost no more queries than one (no query per match).
    with django_assert_max_num_queries(one_match):
        director.get(event_url)

    player = b.first.entry1.player_id
    player_url = f"/api/players/{player}/"
    assert anyone.get(player_url).json()["analysis"]["matches"] == []
    mine = director.get(player_url).json()["analysis"]
    assert mine["matches_analysed"] == 1
    assert mine["average_pr"] == mine["best_pr"] == prs[player]
    assert mine["matches"] == director.get(f"/api/players/{player}/analysis/").json()["matches"]
    assert mine["matches"][0]["match"] == b.first.pk

    t.analysis_public = True
    t.save()
    assert anyone.get(event_url).json()["analysis"]["players"] == shown["players"]
    assert anyone.get(player_url).json()["analysis"]["matches_analysed"] == 1

    # The final: the first match's winner now has two analysed matches; still no more
    # queries for the player's answer than with one.
    one_player_match = _count_queries(director, player_url)
    for match in (b.first, b.second):  # the opponents confirm: the winners meet in the final
        with django_capture_on_commit_callbacks(execute=True):
            confirmed = b.link_client(match, 2).post(f"/api/matches/{match.pk}/confirm/")
        assert confirmed.status_code == 200, confirmed.json()
    round_start(round_=b.event.rounds.get(number=2, bracket=Round.Bracket.MAIN))
    final = Match.objects.select_related("entry1", "entry2").get(pk=b.final.pk)
    assert final.entry1 is not None
    assert final.entry2 is not None
    _upload(b, final, "analysis/a01_3pt.mat", django_capture_on_commit_callbacks)
    finalist = final.entry1.player_id
    with django_assert_max_num_queries(one_player_match):
        twice = director.get(f"/api/players/{finalist}/").json()["analysis"]
    assert twice["matches_analysed"] == 2

    # A private tournament's figures are its directors' only, even with analysis_public
    # on: a player also entered in a public tournament shows none of them to others.
    t.is_public = False
    t.save()
    EntryFactory(player_id=player)  # another (public) tournament
    assert anyone.get(player_url).status_code == 200
    assert anyone.get(player_url).json()["analysis"]["matches"] == []
    assert anyone.get(f"/api/players/{player}/analysis/").json()["matches"] == []
    assert director.get(player_url).json()["analysis"]["matches_analysed"] >= 1
