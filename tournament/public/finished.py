"""What a player's link shows once their events are over: their matches and final places.

Placing: in a league (Swiss, round robin) the standings' rank; in an elimination
bracket the champion is 1st, the finalist 2nd, and a player out in an earlier round
shares the places that round spans (out in the semi-finals: joint 3rd-4th).
"""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Match
from matches.selectors import entry_matches
from tournament.models import Entry, Event, Round
from tournament.selectors import standings

LEAGUES = (Event.Format.SWISS, Event.Format.ROUND_ROBIN)


@dataclass(frozen=True)
class FinishedEntry:
    """A player's event, over: each match (with the score from their side) and their place."""

    entry: Entry
    matches: list[Match]
    place: str
    wins: int
    losses: int


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _span(best: int, worst: int, field: int) -> str:
    worst = min(worst, field)
    if best >= worst:
        return f"{ordinal(best)} of {field}"
    return f"joint {ordinal(best)}-{ordinal(worst)} of {field}"


def _league_place(entry: Entry) -> str:
    rows = standings(entry.event)
    for row in rows:
        if row.entry.pk == entry.pk:
            return f"{ordinal(row.rank)} of {len(rows)}"
    return ""


def _knockout_place(entry: Entry, matches: list[Match], field: int) -> str:
    event = entry.event
    if event.champion_id == entry.pk:
        return f"1st of {field}: champion"
    lost = [
        m
        for m in matches
        if m.status == Match.Status.COMPLETE and m.winner_id and m.winner_id != entry.pk
    ]
    if not lost:
        return ""
    last = lost[-1]
    if event.format == Event.Format.DOUBLE_ELIMINATION:
        if last.round.bracket == Round.Bracket.FINAL:
            return f"2nd of {field}"
        return f"out in the {last.round.get_bracket_display().lower()} bracket, {last.round}"
    total = Round.objects.filter(event=event, bracket=Round.Bracket.MAIN).count()
    behind = total - last.round.number  # rounds after the one lost
    return _span(2**behind + 1, 2 ** (behind + 1), field)


def entry_finished(*, entry: Entry) -> FinishedEntry:
    """The entry's played matches, earliest first, its wins and losses and its final place."""
    matches = [m for m in entry_matches(entry=entry) if m.status == Match.Status.COMPLETE]
    field = entry.event.entries.count()
    if entry.status == Entry.Status.WITHDRAWN:
        place = "withdrew"
    elif entry.event.format in LEAGUES:
        place = _league_place(entry)
    else:
        place = _knockout_place(entry, matches, field)
    played = [m for m in matches if not m.is_bye and m.winner_id]
    wins = sum(m.winner_id == entry.pk for m in played)
    return FinishedEntry(entry, matches, place, wins, len(played) - wins)
