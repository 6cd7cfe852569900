"""BMAB-designated matches: who may set the flags and when, who set them, the XG PR, the
marks on the pages, and the zip export (README, CSV, the match files)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client

from matches.access import Actor
from matches.errors import Forbidden, Invalid
from matches.models import Match
from matches.services.bmab import match_bmab_set
from matches.services.records import record_upload
from tests.factories import PlayerFactory, UserFactory, token_client
from tests.matches.conftest import META, Table, make_table
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

MAT = Path(__file__).resolve().parent.parent / "data" / "reporting" / "anna_bert_25pt.mat"


@pytest.fixture
def table25(db: None) -> Table:
    return make_table(round__event__match_lengths=[25], length=25)


def test_a_player_designates_before_the_first_game_and_the_director_after(table25: Table) -> None:
    t = table25
    match = match_bmab_set(match_id=t.match.pk, actor=t.link1, designated=True, recorded=True)
    assert (match.designated, match.recorded, match.clocked) == (True, True, False)
    assert match.bmab_marks["designated"]["by"] == "player 1"
    assert match.bmab_marks["designated"]["at"]
    record_upload(
        match_id=t.match.pk, actor=t.link1, file_name="anna.mat", data=MAT.read_bytes(), meta=META
    )
    with pytest.raises(Forbidden):
        match_bmab_set(match_id=t.match.pk, actor=t.link2, designated=False)
    with pytest.raises(Invalid) as err:
        match_bmab_set(match_id=t.match.pk, actor=t.boss, designated=False)
    assert err.value.detail["field"] == "reason"
    match = match_bmab_set(
        match_id=t.match.pk, actor=t.boss, designated=False, reason="asked by both players"
    )
    assert match.designated is False
    assert match.bmab_marks["designated"]["reason"] == "asked by both players"
    assert match.bmab_marks["designated"]["by"].startswith("director")
    with pytest.raises(Forbidden):
        match_bmab_set(match_id=t.match.pk, actor=t.link1, xg_pr={"xg_pr1": "4.5"})
    with pytest.raises(Invalid):
        match_bmab_set(match_id=t.match.pk, actor=t.boss, xg_pr={"xg_pr1": "-1"})
    match = match_bmab_set(
        match_id=t.match.pk, actor=t.boss, xg_pr={"xg_pr1": "4.512", "xg_pr2": 7}
    )
    assert (match.xg_pr1, match.xg_pr2) == (Decimal("4.51"), Decimal("7.00"))
    stranger = Actor(user=UserFactory())
    with pytest.raises(Forbidden):
        match_bmab_set(match_id=t.match.pk, actor=stranger, clocked=True)


def test_the_api_the_pages_and_the_export(table25: Table) -> None:
    t = table25
    match = t.match
    director = token_client(t.director)
    player = Client(HTTP_X_REPORT_KEY=match.entry1.report_key)  # type: ignore[union-attr]
    answer = player.post(
        f"/api/matches/{match.pk}/bmab/",
        {"designated": True, "clocked": True},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["designated"] is True
    assert body["clocked"] is True
    assert body["bmab_marks"]["clocked"]["by"] == "player 1"
    record_upload(
        match_id=match.pk, actor=t.link1, file_name="anna.mat", data=MAT.read_bytes(), meta=META
    )
    answer = director.post(
        f"/api/matches/{match.pk}/bmab/", {"xg_pr1": "5.25", "xg_pr2": "8.10"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["xg_pr"] == [5.25, 8.1]
    bad = director.post(f"/api/matches/{match.pk}/bmab/", {"xg_pr1": "x"}, format="json")
    assert bad.status_code == 400
    late = player.post(
        f"/api/matches/{match.pk}/bmab/", {"designated": False}, content_type="application/json"
    )
    assert late.status_code == 403

    match.refresh_from_db()
    t_slug = match.event.tournament.slug
    page = Client().get(f"/matches/{match.pk}/")
    assert b"XG PR (reported)" in page.content
    assert b"5.25" in page.content
    assert b"BMAB" in page.content
    slips = Client().get(f"/t/{t_slug}/{match.event.slug}/slips/")
    assert slips.status_code == 200

    export = director.get(f"/api/events/{match.event_id}/bmab.zip")
    assert export.status_code == 200, export.content
    assert export["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(export.content))
    names = archive.namelist()
    assert "README.txt" in names
    assert "XG" in archive.read("README.txt").decode()
    rows = list(csv.DictReader(io.StringIO(archive.read("matches.csv").decode())))
    assert len(rows) == 1
    row = rows[0]
    assert row["player1"] == "Anna Kowalska"
    assert row["length"] == "25"
    assert row["clocked"] == "yes"
    assert row["xg_pr_player1"] == "5.25"
    assert row["file"].endswith(".mat")
    assert archive.read(row["file"]) == MAT.read_bytes().decode().encode()
    assert Client().get(f"/api/events/{match.event_id}/bmab.zip").status_code == 401
    outsider = token_client(UserFactory())
    assert outsider.get(f"/api/events/{match.event_id}/bmab.zip").status_code == 403

    by_player = director.get(f"/api/players/{match.entry1.player_id}/bmab.zip")  # type: ignore[union-attr]
    assert by_player.status_code == 200
    assert "matches.csv" in zipfile.ZipFile(io.BytesIO(by_player.content)).namelist()
    other = PlayerFactory()
    empty = director.get(f"/api/players/{other.pk}/bmab.zip")
    rows = list(
        csv.DictReader(
            io.StringIO(zipfile.ZipFile(io.BytesIO(empty.content)).read("matches.csv").decode())
        )
    )
    assert rows == []


def test_the_schema_documents_bmab() -> None:
    spec = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/matches/{id}/bmab/" in spec["paths"]
    assert "/api/events/{id}/bmab.zip" in spec["paths"]
    assert "/api/players/{id}/bmab.zip" in spec["paths"]
    match = spec["components"]["schemas"]["Match"]["properties"]
    assert {"designated", "recorded", "clocked", "xg_pr"} <= set(match)
    assert "bmab_marks" in spec["components"]["schemas"]["MatchDetail"]["properties"]


def test_designated_matches_are_marked_on_the_board(table25: Table) -> None:
    t = table25
    match_bmab_set(match_id=t.match.pk, actor=t.boss, designated=True)
    Match.objects.filter(pk=t.match.pk).update(table=3)
    slug = t.match.event.tournament.slug
    board = Client().get(f"/t/{slug}/board/")
    assert board.status_code == 200
    live = Client().get(f"/t/{slug}/board/live/")
    assert b"BMAB" in board.content + live.content


def test_the_marks_and_the_export_are_on_the_tournaments_clock(table25: Table) -> None:
    """Who designated a match, and when, shows on the tournament's clock (not as UTC);
    the export's date is the tournament's day."""
    t = table25
    tournament = t.match.event.tournament
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Europe/Copenhagen")
    match_bmab_set(match_id=t.match.pk, actor=t.link1, designated=True)
    utc = dt.datetime(2025, 1, 10, 23, 30, tzinfo=dt.UTC)  # 00:30 on the 11th in Copenhagen
    match = t.refresh()
    match.bmab_marks["designated"]["at"] = utc.isoformat()
    Match.objects.filter(pk=match.pk).update(bmab_marks=match.bmab_marks, started_at=utc)
    client = Client()
    client.force_login(t.director)
    page = client.get(f"/director/t/{tournament.slug}/matches/{match.pk}/").content.decode()
    assert "Designated for BMAB: Anna Kowalska, <time" in page
    assert "11 Jan 2025, 00:30" in page
    assert "2025-01-10T23:30" not in page
    export = token_client(t.director).get(f"/api/events/{match.event_id}/bmab.zip")
    archive = zipfile.ZipFile(io.BytesIO(export.content))
    (row,) = csv.DictReader(io.StringIO(archive.read("matches.csv").decode()))
    assert row["date"] == "2025-01-11"
