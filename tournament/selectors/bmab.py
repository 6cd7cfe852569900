"""The BMAB export: an event's or a player's designated matches as a zip of their match
files (.mat, .sgf as uploaded), a CSV of the matches and a README with the XG settings."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils import timezone

from matches.models import Match, Submission

#: What the README says BMAB asks of a submitted match's analysis (check bmab.org first:
#: its rules, not this file, are the authority).
README = """BMAB-designated matches
=======================

This archive holds the matches designated for the Backgammon Masters Awards Board
(BMAB) before their first game: each match file as it was uploaded (.mat or .sgf),
and matches.csv (players, length, date, table, result, file name, and whether the
match was recorded and played on clocks).

Before submitting, analyse each match in eXtreme Gammon (XG) at the settings
BMAB's current rules name; as this tool understands them:

- Analysis level: XG Roller++ for both checker play and cube decisions.
- Analyse the whole match (every game), with the match length and Crawford rule
  as played; do not edit moves.
- Submit the XG files with the players' names as entered at the event.

Check https://www.bmab.org for the rules in force: they decide, not this file.
A matches.csv line without a file name is a designated match whose file was never
uploaded. The XG PR a director typed in is in the columns xg_pr_player1/2
("XG PR (reported)"); the tournament's own gnubg PR is unofficial.
"""

COLUMNS = [
    "match",
    "event",
    "round",
    "date",
    "table",
    "player1",
    "player2",
    "length",
    "result",
    "winner",
    "recorded",
    "clocked",
    "xg_pr_player1",
    "xg_pr_player2",
    "file",
]


def designated_matches(
    *, event_id: int | None = None, player_id: int | None = None
) -> QuerySet[Match]:
    """Designated matches of an event, or of a player (every event), in playing order."""
    matches = Match.objects.filter(designated=True, is_bye=False).select_related(
        "event__tournament", "round", "entry1__player", "entry2__player", "winner"
    )
    if event_id is not None:
        matches = matches.filter(event_id=event_id)
    if player_id is not None:
        matches = matches.filter(entry1__player_id=player_id) | matches.filter(
            entry2__player_id=player_id
        )
    return matches.order_by("event__position", "event_id", "round__number", "slot")


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "x"


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def bmab_zip(matches: Iterable[Match]) -> bytes:
    """The zip: README.txt, matches.csv and each match's latest accepted file."""
    chosen = list(matches)
    files: dict[int, Submission] = {}
    for submission in Submission.objects.filter(
        match_id__in=[m.pk for m in chosen],
        kind=Submission.Kind.RECORD,
        status=Submission.Status.ACCEPTED,
    ).order_by("match_id", "version"):
        files[submission.match_id] = submission  # the latest accepted wins
    out = io.BytesIO()
    table = io.StringIO()
    writer = csv.writer(table)
    writer.writerow(COLUMNS)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", README)
        for m in chosen:
            one = m.entry1.player.name if m.entry1 else ""
            two = m.entry2.player.name if m.entry2 else ""
            when = m.decided_at or m.started_at
            if when is not None:  # the day on the tournament's clock, as every CSV shows it
                when = timezone.localtime(when, m.event.tournament.zone)
            name = ""
            upload = files.get(m.pk)
            if upload is not None:
                ext = (
                    upload.file_name.rsplit(".", 1)[-1].lower()
                    if "." in upload.file_name
                    else "mat"
                )
                ext = ext if ext in ("mat", "sgf", "txt") else "mat"
                name = (
                    f"{m.pk}-{_safe(m.event.name)}-r{m.round.number}-{_safe(one)}-vs-{_safe(two)}"
                    f".{ext}"
                )
                archive.writestr(name, upload.file_text)
            winner = ""
            if m.winner_id is not None:
                winner = one if m.winner_id == m.entry1_id else two
            writer.writerow(
                [
                    m.pk,
                    _cell(m.event.name),
                    m.round.number,
                    when.date().isoformat() if when else "",
                    m.table or "",
                    _cell(one),
                    _cell(two),
                    m.length,
                    f"{m.score1}-{m.score2}" if m.status == Match.Status.COMPLETE else "",
                    _cell(winner),
                    "yes" if m.recorded else "no",
                    "yes" if m.clocked else "no",
                    m.xg_pr1 if m.xg_pr1 is not None else "",
                    m.xg_pr2 if m.xg_pr2 is not None else "",
                    name,
                ]
            )
        archive.writestr("matches.csv", table.getvalue())
    return out.getvalue()
