"""Rounds and matches laid out in the database from the pure formats' structures.

Elimination events get every round and match at draw time. Round-1 byes are
decided at once and their players already sit in round 2. In a Consolation or a
losers bracket a line that no one will ever take (a Main bye) makes its match a
*bye in waiting* (``is_bye`` with the other line empty, decided when its player
arrives) and two such lines make a *void* match (``is_bye``, no players, complete).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from matches.models import Match
from tournament.formats.feed_in import FeedInBracket
from tournament.formats.single_elimination import SingleEliminationBracket, bye_winners
from tournament.formats.slots import Pairing
from tournament.models import Event, Round
from tournament.services.brackets import double_elimination, feed_in


class Layout:
    """Rounds and matches to insert for one event, then inserted in two bulk statements."""

    def __init__(self, event: Event, now: dt.datetime) -> None:
        self.event = event
        self.now = now
        self.rounds: list[Round] = []
        self.matches: list[tuple[int, Match]] = []

    def round(self, *, bracket: str, number: int, name: str, length: int) -> int:
        """Add a round; return its index in ``self.rounds``."""
        self.rounds.append(
            Round(
                event=self.event,
                bracket=bracket,
                number=number,
                name=name,
                match_length=length,
            )
        )
        return len(self.rounds) - 1

    def match(self, round_index: int, slot: int, **fields: object) -> Match:
        length = self.rounds[round_index].match_length
        match = Match(
            event=self.event,
            slot=slot,
            length=length,
            crawford=self.event.crawford,
            holland=self.event.holland,
            **fields,
        )
        self.matches.append((round_index, match))
        return match

    def bye(self, round_index: int, slot: int, entry_id: int, *, upper: bool = True) -> Match:
        """A decided bye: ``entry_id`` goes through without playing."""
        seat = {"entry1_id": entry_id} if upper else {"entry2_id": entry_id}
        return self.match(
            round_index,
            slot,
            **seat,
            is_bye=True,
            winner_id=entry_id,
            decision=Match.Decision.BYE,
            status=Match.Status.COMPLETE,
            decided_at=self.now,
            confirmed_at=self.now,
            advanced_at=self.now,
        )

    def void(self, round_index: int, slot: int) -> Match:
        """A match nobody will play (two empty lines)."""
        return self.match(
            round_index,
            slot,
            is_bye=True,
            status=Match.Status.COMPLETE,
            advanced_at=self.now,
        )

    def save(self) -> list[Round]:
        created = Round.objects.bulk_create(self.rounds)
        for round_index, match in self.matches:
            match.round = created[round_index]
        Match.objects.bulk_create([match for _, match in self.matches], batch_size=500)
        return created


def lay_out_single(
    layout: Layout, seeded: Sequence[int], *, bracket: str = Round.Bracket.MAIN
) -> None:
    """A seeded single-elimination bracket with its round-1 byes decided."""
    structure = SingleEliminationBracket.build(seeded)
    event = layout.event
    indexes = [
        layout.round(
            bracket=bracket,
            number=number,
            name=structure.round_names[number - 1],
            length=event.length_for_round(number),
        )
        for number in range(1, structure.rounds + 1)
    ]
    lay_out_first_round(layout, indexes, structure.first_round)
    for number in range(2, structure.rounds + 1):
        advanced = {
            (seat.index, seat.position): entry
            for seat, entry in (bye_winners(structure.first_round) if number == 2 else [])
        }
        for slot in range(structure.size >> number):
            layout.match(
                indexes[number - 1],
                slot,
                entry1_id=advanced.get((slot, 0)),
                entry2_id=advanced.get((slot, 1)),
            )


def lay_out_first_round(layout: Layout, indexes: list[int], pairings: Sequence[Pairing]) -> None:
    for slot, (upper, lower) in enumerate(pairings):
        if upper is not None and lower is not None:
            layout.match(indexes[0], slot, entry1_id=upper, entry2_id=lower)
        elif upper is not None or lower is not None:
            lone = upper if upper is not None else lower
            assert lone is not None
            layout.bye(indexes[0], slot, lone, upper=upper is not None)
        else:
            layout.void(indexes[0], slot)


def lay_out_feed_in(
    layout: Layout, structure: FeedInBracket, *, bracket: str, first_length_round: int = 1
) -> None:
    """A feed-in bracket (Consolation, losers bracket): every match waits for its players."""
    event = layout.event
    for number, matches in enumerate(structure.rounds, start=1):
        index = layout.round(
            bracket=bracket,
            number=number,
            name=structure.round_names[number - 1],
            length=event.length_for_round(first_length_round + number - 1),
        )
        for match in matches:
            if match.is_void:
                layout.void(index, match.ref.index)
            else:
                layout.match(index, match.ref.index, is_bye=match.is_walkover)


def lay_out_consolation(layout: Layout, main_entrants: int) -> None:
    """The Consolation ``layout.event`` fed by its Main of ``main_entrants``."""
    structure = feed_in(main_entrants, tuple(layout.event.feed_rounds))
    lay_out_feed_in(layout, structure, bracket=Round.Bracket.MAIN)


def lay_out_double(layout: Layout, seeded: Sequence[int]) -> None:
    """Winners bracket (byes decided), losers bracket and the grand final (with its reset)."""
    structure = double_elimination(len(seeded))
    lay_out_single(layout, seeded, bracket=Round.Bracket.MAIN)
    lay_out_feed_in(layout, structure.losers, bracket=Round.Bracket.LOSERS)
    final_length = layout.event.length_for_round(structure.winners.rounds)
    for number in range(1, structure.grand_final_rounds + 1):
        index = layout.round(
            bracket=Round.Bracket.FINAL,
            number=number,
            name="Grand final" if number == 1 else "Grand final (reset)",
            length=final_length,
        )
        layout.match(index, 0)
