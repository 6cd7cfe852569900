"""Exports and the series page: CSV results, the match-file zip, iCalendar, the leaderboard."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from pathlib import Path

import pytest
from django.test import Client

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Game, Match
from matches.rules.check import check_match_data
from matches.services.records import record_upload
from matches.services.reporting import GameInput, game_report
from tests.factories import (
    EntryFactory,
    EventFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournament.models import Series

pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parent.parent / "data" / "gnubg"
META = RequestMeta()


def csv_rows(response) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))


def test_results_csv_in_the_tournaments_zone_and_safe_for_spreadsheets(client: Client) -> None:
    event = EventFactory(tournament__time_zone="Asia/Tokyo", slug="main")
    done = MatchFactory(round__event=event, entry1__player__name="=cmd|' /C calc'!A0", length=5)
    done.score1, done.score2, done.winner = 5, 2, done.entry1
    done.status, done.decision = Match.Status.COMPLETE, Match.Decision.PLAY
    done.decided_at = done.confirmed_at = dt.datetime(2030, 5, 1, 12, 0, tzinfo=dt.UTC)
    done.save()
    bye = MatchFactory(round=done.round, entry2=None, is_bye=True, status=Match.Status.COMPLETE)
    MatchFactory(round=done.round)

    response = client.get(f"/t/{event.tournament.slug}/main/results.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = csv_rows(response)
    assert len(rows) == 3
    first = rows[0]
    assert first["player1"] == "'=cmd|' /C calc'!A0"  # never a formula
    assert (first["score1"], first["score2"], first["winner"]) == ("5", "2", first["player1"])
    assert first["confirmed_at"] == "2030-05-01T21:00:00+09:00"
    assert rows[1]["match_id"] == str(bye.pk)
    assert rows[1]["player2"] == "(bye)"
    assert rows[2]["status"] == "ready"


def test_a_private_tournaments_downloads_are_for_its_directors(client: Client) -> None:
    director = UserFactory()
    event = EventFactory(
        tournament=TournamentFactory(is_public=False, director=director), slug="side"
    )
    url = f"/t/{event.tournament.slug}/side/results.csv"
    assert client.get(url).status_code == 404
    assert client.get(url.replace("results.csv", "matches.zip")).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200
    assert client.get("/t/nope/side/results.csv").status_code == 404


def test_the_zip_holds_uploads_as_sent_files_written_from_moves_and_nothing_else(
    client: Client,
) -> None:
    event = EventFactory(match_lengths=[3], slug="main")
    rnd = RoundFactory(event=event)
    sent = (DATA / "m02_3pt.mat").read_bytes()

    def players() -> dict[str, object]:
        return {
            "entry1": EntryFactory(event=event, player=PlayerFactory(name="Søren")),
            "entry2": EntryFactory(event=event, player=PlayerFactory(name="Zoë")),
        }

    uploaded = MatchFactory(round=rnd, slot=0, **players())
    record_upload(
        match_id=uploaded.pk,
        actor=Actor(entry=uploaded.entry1),
        file_name="m02.mat",
        data=sent,
        meta=META,
    )
    from_sgf = MatchFactory(round=rnd, slot=1, **players())
    record_upload(
        match_id=from_sgf.pk,
        actor=Actor(entry=from_sgf.entry2),
        file_name="m02.sgf",
        data=(DATA / "m02_3pt.sgf").read_bytes(),
        meta=META,
    )
    from_moves = MatchFactory(round=rnd, slot=2, **players())
    record_upload(
        match_id=from_moves.pk,
        actor=Actor(entry=from_moves.entry1),
        file_name="m02.mat",
        data=sent,
        meta=META,
    )
    # As if the games had come another way with their moves (e.g. a director's entry).
    Game.objects.filter(match=from_moves).update(submission=None)
    by_hand = MatchFactory(round=rnd, slot=3)
    game_report(
        match_id=by_hand.pk,
        actor=Actor(entry=by_hand.entry1),
        game=GameInput(winner=by_hand.entry1.player_id),
        meta=META,
    )
    MatchFactory(round=rnd, slot=4)  # nothing played

    response = client.get(f"/t/{event.tournament.slug}/main/matches.zip")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    assert names == [
        "round-01-match-001-søren-vs-zoë.mat",
        "round-01-match-002-søren-vs-zoë.mat",
        "round-01-match-003-søren-vs-zoë.mat",
    ]
    assert archive.read(names[0]) == sent.decode("utf-8").encode("utf-8")
    expected = check_match_data(sent)
    for name in names[1:]:
        report = check_match_data(archive.read(name))
        assert report.valid, report.errors
        assert (report.players, report.final_score, report.games) == (
            expected.players,
            expected.final_score,
            expected.games,
        )


def test_the_calendar_lists_a_players_timed_matches_per_rfc_5545(client: Client) -> None:
    player = PlayerFactory(name="Ann, the; Champion")
    event = EventFactory(tournament__time_zone="Europe/Berlin", name="Online League")
    deadline = dt.datetime(2030, 3, 10, 19, 0, tzinfo=dt.UTC)
    start = dt.datetime(2030, 3, 4, 8, 0, tzinfo=dt.UTC)
    due = MatchFactory(
        round=RoundFactory(event=event, number=1, starts_at=start, deadline=deadline),
        entry1=EntryFactory(event=event, player=player),
        entry2__player__name="Bob " + "Longname" * 12,
    )
    MatchFactory(round=RoundFactory(event=event, number=2))  # no time: not in the feed
    hidden = EventFactory(tournament__is_public=False)
    MatchFactory(
        round=RoundFactory(event=hidden, deadline=deadline),
        entry2=EntryFactory(event=hidden, player=player),
    )

    response = client.get(f"/players/{player.pk}/matches.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    text = response.content.decode("utf-8")
    lines = text.split("\r\n")
    assert lines[0] == "BEGIN:VCALENDAR"
    assert lines[-2:] == ["END:VCALENDAR", ""]
    assert "\n" not in text.replace("\r\n", "")
    assert all(len(line.encode("utf-8")) <= 75 for line in lines)
    unfolded = text.replace("\r\n ", "").split("\r\n")
    assert unfolded.count("BEGIN:VEVENT") == 1
    assert f"UID:match-{due.pk}@127.0.0.1" in unfolded
    assert "DTSTART:20300304T080000Z" in unfolded
    assert "DTEND:20300310T190000Z" in unfolded
    summary = next(line for line in unfolded if line.startswith("SUMMARY:"))
    assert summary.startswith("SUMMARY:Backgammon: Ann\\, the\\; Champion v Bob Longname")
    description = next(line for line in unfolded if line.startswith("DESCRIPTION:"))
    assert "Deadline: Sun 10 Mar 2030 20:00 CET." in description
    assert client.get("/players/999999/matches.ics").status_code == 404


def test_the_series_page_ranks_public_results_in_a_few_queries(
    client: Client, django_assert_max_num_queries
) -> None:
    series = Series.objects.create(name="Season <2030>", slug="season")
    for public in (True, False):
        event = EventFactory(tournament__series=series, tournament__is_public=public)
        event.status = "running"
        event.save()
        for slot in range(6):
            m = MatchFactory(
                round__event=event,
                round__number=slot + 1,
                entry1__player__name=f"<b>Winner</b> {public} {slot}",
            )
            m.status, m.decision, m.winner = Match.Status.COMPLETE, Match.Decision.PLAY, m.entry1
            m.score1 = m.length
            m.save()

    with django_assert_max_num_queries(12):
        response = client.get("/series/season/")
    assert response.status_code == 200
    html = response.content.decode("utf-8")
    assert "Season &lt;2030&gt;" in html
    assert "&lt;b&gt;Winner&lt;/b&gt; True 0" in html
    assert "Winner&lt;/b&gt; False" not in html  # a private tournament does not count
    assert "<b>Winner" not in html
    assert client.get("/series/unknown/").status_code == 404
