"""Rounds and matches laid out in the database from the pure formats' structures.

Elimination events get every round and match at draw time. Round-1 byes are
decided at once and their players already sit in round 2. In a Consolation or a
losers bracket a line that no one will ever take (a Main bye) makes its match a
*bye in waiting* (``is_bye`` with the other line empty, decided when its player
arrives). The formats leave out any round of byes only, so no match there has two
empty lines (a *void*, laid out ``is_bye`` and complete, kept for safety).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import cast

from django.db import connection

from matches.models import Match
from tournament.formats.feed_in import FeedInBracket
from tournament.formats.single_elimination import SingleEliminationBracket, bye_winners
from tournament.formats.slots import Pairing
from tournament.models import Event, Round
from tournament.selectors.brackets import double_elimination, feed_in


class Layout:
    """Rounds and matches to insert for one event: the rounds in one bulk statement, the
    matches in multi-row ``INSERT`` statements (a thousand ``Match`` instances through
    ``bulk_create`` cost most of a second; the draw's budget is one second)."""

    def __init__(self, event: Event, now: dt.datetime) -> None:
        self.event = event
        self.now = now
        self.rounds: list[Round] = []
        self.matches: list[tuple[int, dict[str, object]]] = []

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

    def match(self, round_index: int, slot: int, **fields: object) -> None:
        """Add a match (field values by attribute name; the rest take their defaults)."""
        fields.update(slot=slot, length=self.rounds[round_index].match_length)
        self.matches.append((round_index, fields))

    def bye(self, round_index: int, slot: int, entry_id: int, *, upper: bool = True) -> None:
        """A decided bye: ``entry_id`` goes through without playing."""
        seat = {"entry1_id": entry_id} if upper else {"entry2_id": entry_id}
        self.match(
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

    def void(self, round_index: int, slot: int) -> None:
        """A match nobody will play (two empty lines)."""
        self.match(
            round_index,
            slot,
            is_bye=True,
            status=Match.Status.COMPLETE,
            advanced_at=self.now,
        )

    def save(self) -> list[Round]:
        created = Round.objects.bulk_create(self.rounds)
        fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
        common: dict[str, object] = {
            "event_id": self.event.pk,
            "crawford": self.event.crawford,
            "holland": self.event.holland,
            "updated_at": self.now,
        }
        defaults = {
            f.attname: f.get_db_prep_save(common.get(f.attname, f.get_default()), connection)
            for f in fields
        }
        now = connection.ops.adapt_datetimefield_value(self.now)
        rows = []
        for round_index, values in self.matches:
            values["round_id"] = created[round_index].pk
            row = []
            for f in fields:
                if f.attname in values:
                    value = values[f.attname]
                    row.append(now if value is self.now else f.get_db_prep_save(value, connection))
                else:
                    row.append(defaults[f.attname])
            rows.append(row)
        table = connection.ops.quote_name(Match._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(cast(str, f.column)) for f in fields)
        row_marks = "(" + ", ".join("%s" for _ in fields) + ")"
        insert = f"INSERT INTO {table} ({columns}) VALUES "
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # One statement with one array per column: no per-row parsing or round trip.
                arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
                cursor.execute(
                    f"INSERT INTO {table} ({columns}) SELECT * FROM unnest({arrays})",
                    [list(column) for column in zip(*rows, strict=True)]
                    if rows
                    else [[]] * len(fields),
                )
            else:
                batch = max(1, min(500, connection.ops.bulk_batch_size(fields, rows)))
                for start in range(0, len(rows), batch):
                    chunk = rows[start : start + batch]
                    cursor.execute(
                        insert + ", ".join(row_marks for _ in chunk),
                        [value for row in chunk for value in row],
                    )
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
