"""What a player's link shows once their events are over: their matches and final places.

Placing is the event's final sheet (``tournament.selectors.final_places``): a league's standings,
an elimination bracket's round lost (out in the semi-finals: joint 3rd-4th), and the
prize won, if any.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from core.money import money
from matches.models import Match
from matches.selectors import entry_matches
from tournament.models import Entry
from tournament.place_words import place_words
from tournament.selectors.final_places import event_final


@dataclass(frozen=True)
class FinishedEntry:
    """A player's event, over: each match (with the score from their side) and their place."""

    entry: Entry
    matches: list[Match]
    place: str
    wins: int
    losses: int


def entry_finished(*, entry: Entry) -> FinishedEntry:
    """The entry's played matches, earliest first, its wins and losses and its final place."""
    matches = [m for m in entry_matches(entry=entry) if m.status == Match.Status.COMPLETE]
    sheet = event_final(entry.event)
    row = sheet.row_of(entry.pk) if sheet is not None else None
    if sheet is None or row is None:
        place = _("withdrew") if entry.status == Entry.Status.WITHDRAWN else ""
    else:
        if row.place.shared:
            place = _("joint {place} of {field}").format(
                place=place_words(row.place), field=len(sheet.rows)
            )
        else:
            place = _("{place} of {field}").format(
                place=place_words(row.place), field=len(sheet.rows)
            )
        if entry.event.champion_id == entry.pk:
            place += ": " + _("champion")
        if row.prize:
            place += " · " + _("prize {prize}").format(
                prize=money(row.prize, entry.event.tournament.currency)
            )
    played = [m for m in matches if not m.is_bye and m.winner_id]
    wins = sum(m.winner_id == entry.pk for m in played)
    return FinishedEntry(entry, matches, place, wins, len(played) - wins)
