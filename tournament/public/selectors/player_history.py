"""A player's page: their public events, matches and rating history."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _

from core.money import money
from matches.models import Match
from tournament.models import Entry, Event, Player, RatingChange
from tournament.place_words import place_words
from tournament.public.selectors.common import matches_with_players
from tournament.selectors import players_visible_to


@dataclass(frozen=True)
class PlayerMatch:
    match: Match
    side: int
    opponent: Entry | None
    won: bool | None


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    entries: list[Entry]
    matches: list[PlayerMatch]
    rating_changes: list[RatingChange]
    wins: int
    losses: int
    #: Entry id -> "3rd-4th of 14" (and the prize won) in each finished event.
    places: dict[int, str] = field(default_factory=dict)

    @property
    def rating_rows(self) -> list[tuple[RatingChange, float]]:
        """Each rating change with its difference, newest first."""
        return [(c, c.rating_after - c.rating_before) for c in reversed(self.rating_changes)]


def player_page(player_id: int) -> PlayerPage:
    """A player with their public events, matches and rating history."""
    try:  # a player seen only in private tournaments is not found (the page is public)
        player = players_visible_to(None).get(pk=player_id)
    except Player.DoesNotExist:
        raise Http404(_("No such player")) from None
    entries = list(
        player.entries.filter(event__tournament__is_public=True)
        .select_related("event__tournament", "event__champion")
        .order_by("-event__tournament__starts_on", "event__position")
    )
    matches = (
        matches_with_players()
        .select_related("event__tournament", "round")
        .filter(event__tournament__is_public=True)
        .filter(Q(entry1__player=player) | Q(entry2__player=player))
        .exclude(is_bye=True)
        .order_by(
            "-event__tournament__starts_on", "event__position", "round__bracket", "-round__number"
        )
    )
    rows: list[PlayerMatch] = []
    wins = losses = 0
    for match in matches:
        side = 1 if match.entry1 and match.entry1.player_id == player.pk else 2
        mine = match.entry1 if side == 1 else match.entry2
        won = None
        if match.status == Match.Status.COMPLETE and match.winner_id:
            won = match.winner_id == (mine.pk if mine else None)
            wins += won
            losses += not won
        rows.append(PlayerMatch(match, side, match.entry2 if side == 1 else match.entry1, won))
    changes = list(
        RatingChange.objects.filter(player=player)
        .select_related("match__event__tournament")
        .order_by("created_at", "id")
    )
    return PlayerPage(player, entries, rows, changes, wins, losses, _places(entries))


def _places(entries: list[Entry]) -> dict[int, str]:
    """Each entry's final place in its finished event (a few queries per finished event)."""
    from tournament.selectors.final_places import event_final

    places: dict[int, str] = {}
    for entry in entries:
        if entry.event.status != Event.Status.FINISHED:
            continue
        sheet = event_final(entry.event)
        row = sheet.row_of(entry.pk) if sheet is not None else None
        if sheet is not None and row is not None:
            text = _("{place} of {field}").format(
                place=place_words(row.place), field=len(sheet.rows)
            )
            if row.prize:
                prize = money(row.prize, entry.event.tournament.currency)
                text += " · " + _("prize {prize}").format(prize=prize)
            places[entry.pk] = text
    return places
