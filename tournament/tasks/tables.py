"""Seating the matches that opened by themselves: the outbox task behind ``opened_tables_on_commit``."""

from __future__ import annotations

from tournament.tasks.typed import task


@task(name="tournament.tasks.assign_opened_tables", acks_late=True)
def assign_opened_tables(match_ids: list[int]) -> list[int]:
    """Seat ``match_ids`` at free tables (idempotent: a seated match keeps its table)."""
    from tournament.services.tables import opened_tables_assign

    return [m.pk for m in opened_tables_assign(match_ids=match_ids)]
