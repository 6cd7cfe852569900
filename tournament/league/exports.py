"""Exports: an event's results as CSV, its match files as a zip, a player's matches as iCalendar.

Times are written in the tournament's zone in the CSV and in UTC (``...Z``) in the
calendar, where every calendar program converts them for its reader. Each export
reads what it needs in a fixed number of queries.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from icalendar import Calendar, vText
from icalendar import Event as CalendarEvent

from matches.game_moves import record_from_games
from matches.models import Game, Match, Submission
from matches.rules.check import read_match
from matches.rules.errors import RulesError
from matches.rules.matfile import write_mat
from tournament.models import Event, Player
from tournament.services.deadlines import local_time

CSV_COLUMNS = (
    "round",
    "bracket",
    "slot",
    "match_id",
    "player1",
    "player2",
    "length",
    "score1",
    "score2",
    "winner",
    "decision",
    "status",
    "decided_at",
    "confirmed_at",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """A value as a CSV cell a spreadsheet will not run as a formula.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell(7), csv_cell(None)
    ("'=HYPERLINK(1)", '7', '')
    """
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _event_matches(event: Event) -> list[Match]:
    return list(
        Match.objects.filter(event=event)
        .select_related("round", "entry1__player", "entry2__player")
        .order_by("round__bracket", "round__number", "slot")
    )


def event_results_csv(event: Event) -> str:
    """Every match of ``event``, one row each, times in the tournament's zone."""
    zone = event.tournament.time_zone
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for m in _event_matches(event):
        names = {
            m.entry1_id: m.entry1.player.name if m.entry1 else "",
            m.entry2_id: m.entry2.player.name if m.entry2 else "",
        }
        row = (
            m.round.number,
            m.round.bracket,
            m.slot + 1,
            m.pk,
            names[m.entry1_id],
            names[m.entry2_id] if not m.is_bye else "(bye)",
            m.length,
            m.score1,
            m.score2,
            names.get(m.winner_id, "") if m.winner_id else "",
            m.decision,
            m.status,
            local_time(m.decided_at, zone).isoformat() if m.decided_at else "",
            local_time(m.confirmed_at, zone).isoformat() if m.confirmed_at else "",
        )
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()


# -- match files ----------------------------------------------------------------------


@dataclass(frozen=True)
class MatchFile:
    """One match's file for the zip."""

    name: str
    text: str
    source: str
    """``upload`` (the file a player sent) or ``moves`` (written from the stored moves)."""


def _file_name(match: Match, players: tuple[str, str]) -> str:
    bracket = "" if match.round.bracket == "main" else f"{match.round.bracket}-"
    who = "-vs-".join(slugify(p, allow_unicode=True)[:40] or "player" for p in players)
    return f"{bracket}round-{match.round.number:02d}-match-{match.slot + 1:03d}-{who}.mat"


def event_match_files(event: Event) -> list[MatchFile]:
    """A ``.mat`` file for every match of ``event`` that has one (four queries).

    The file a player uploaded, as sent, when its games are the match's games (a
    ``.sgf`` upload is rewritten as ``.mat``); otherwise one written from the games'
    stored moves when every game has them. Matches reported game by game without
    moves have no file.
    """
    matches = [m for m in _event_matches(event) if m.entry1 and m.entry2 and not m.is_bye]
    ids = [m.pk for m in matches]
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(match_id__in=ids, voided=False).order_by("match_id", "number"):
        games[game.match_id].append(game)
    uploads: dict[int, Submission] = {}
    for sub in Submission.objects.filter(
        match_id__in=ids, kind=Submission.Kind.RECORD, status=Submission.Status.ACCEPTED
    ).order_by("match_id", "version"):
        uploads[sub.match_id] = sub  # the latest accepted upload of each match
    files: list[MatchFile] = []
    for match in matches:
        played = games.get(match.pk, [])
        if not played:
            continue
        if match.entry1 is None or match.entry2 is None:
            continue  # a bye: no games to export
        players = (match.entry1.player.name, match.entry2.player.name)
        name = _file_name(match, players)
        upload = uploads.get(match.pk)
        if upload is not None and all(g.submission_id == upload.pk for g in played):
            text = upload.file_text
            if text.lstrip().startswith("("):
                try:
                    text = write_mat(read_match(text))
                except RulesError:
                    text = ""
            if text:
                files.append(MatchFile(name, text, "upload"))
                continue
        record = record_from_games(match.length, players, played)
        if record is not None:
            files.append(MatchFile(name, write_mat(record), "moves"))
    return files


def zip_files(files: Iterable[MatchFile]) -> bytes:
    """The files in a zip archive, in order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for f in files:
            archive.writestr(f.name, f.text.encode("utf-8"))
    return buffer.getvalue()


# -- iCalendar (RFC 5545) ---------------------------------------------------------------


def _host() -> str:
    return settings.SITE_URL.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0] or "localhost"


def player_calendar(
    player: Player, *, now: dt.datetime | None = None, public_only: bool = True
) -> str:
    """A player's matches with a time (the round's start, else its deadline) as iCalendar."""
    now = now or timezone.now()
    mine = Match.objects.filter(Q(entry1__player=player) | Q(entry2__player=player), is_bye=False)
    if public_only:
        mine = mine.filter(event__tournament__is_public=True)
    rows = list(
        mine.exclude(round__starts_at__isnull=True, round__deadline__isnull=True)
        .select_related("round", "event__tournament", "entry1__player", "entry2__player")
        .order_by("-pk")[:500]
    )
    site = settings.SITE_URL.rstrip("/")
    calendar = Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//Backgammon Tournament Director//Matches//EN")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", vText(f"Matches of {player.name}"))
    for m in rows:
        first = m.entry1 is not None and m.entry1.player_id == player.pk
        own, other = (m.entry1, m.entry2) if first else (m.entry2, m.entry1)
        opponent = other.player.name if other else "to be decided"
        event = m.event
        start = m.round.starts_at or m.round.deadline
        assert start is not None
        summary = f"Backgammon: {player.name} v {opponent} ({m.length} points)"
        if m.status == Match.Status.COMPLETE:
            summary += " - " + ("won" if own and m.winner_id == own.pk else "lost")
        description = [f"{event.tournament.name}, {event.name}, {m.round}."]
        if m.round.deadline:
            local = local_time(m.round.deadline, event.tournament.time_zone)
            description.append(f"Deadline: {local:%a %d %b %Y %H:%M} {local.tzname()}.")
        description.append(f"Status: {m.get_status_display()}, score {m.score1}-{m.score2}.")
        entry = CalendarEvent()
        entry.add("uid", f"match-{m.pk}@{_host()}")
        entry.add("dtstamp", now.astimezone(dt.UTC))
        entry.add("dtstart", start.astimezone(dt.UTC))
        if m.round.starts_at and m.round.deadline and m.round.deadline > m.round.starts_at:
            entry.add("dtend", m.round.deadline.astimezone(dt.UTC))
        entry.add("summary", summary)
        entry.add("description", " ".join(description))
        entry.add("url", f"{site}/matches/{m.pk}/")
        entry.add("status", "CONFIRMED")
        entry.add("transp", "TRANSPARENT")
        calendar.add_component(entry)
    ical: bytes = calendar.to_ical()
    return ical.decode("utf-8")
