"""Tables (boards) at the venue: the director puts a match at a table, or numbers a round's.

A table is "in use" while a match of the same tournament that sits at it is not
complete; a finished match frees its table without anyone clearing it. Both
services lock the tournament's row, so two directors numbering tables at once
never hand out the same table twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import refuse
from matches.models import Match
from matches.signals import announce_match_changed
from tournament import outbox
from tournament.models import Round, Tournament, User
from tournament.selectors import numbers_tables
from tournament.signals import announce_tables_given

log = logging.getLogger(__name__)

#: The highest table number a director may give.
MAX_TABLE = 999

#: A match in these was announced to its players: a table given now is told to them.
TOLD = (Match.Status.READY, Match.Status.PLAYING, Match.Status.REPORTED, Match.Status.DISPUTED)


def _lock_tournament(tournament_id: int) -> None:
    list(
        Tournament.objects.select_for_update(no_key=True)
        .filter(pk=tournament_id)
        .order_by()
        .values_list("pk", flat=True)
    )


def _free_tables(tournament_id: int) -> Iterator[int]:
    """The tournament's free table numbers, lowest first, up to ``MAX_TABLE``."""
    taken = set(_tables_in_use(tournament_id))
    return (table for table in range(1, MAX_TABLE + 1) if table not in taken)


def _tables_in_use(tournament_id: int, *, besides: Iterable[int] = ()) -> dict[int, int]:
    """Table -> the unfinished match of the tournament sitting at it (``besides`` left out)."""
    rows = (
        Match.objects.filter(event__tournament_id=tournament_id, table__isnull=False)
        .exclude(status=Match.Status.COMPLETE)
        .exclude(pk__in=list(besides))
        .order_by()
        .values_list("table", "pk")
    )
    return {table: pk for table, pk in rows if table is not None}


def match_table_set(*, match: Match, table: int | None, by: User | None = None) -> Match:
    """Put ``match`` at ``table`` (1..999), or take it off its table (``None``).

    Refused for a bye and for a table another unfinished match of the tournament holds.
    """
    if table is not None and (
        isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE
    ):
        raise refuse(
            _("A table is a whole number from 1 to {MAX_TABLE}.").format(MAX_TABLE=MAX_TABLE),
            code="invalid",
            field="table",
        )
    with transaction.atomic():
        tournament_id = (
            Match.objects.filter(pk=match.pk).values_list("event__tournament_id", flat=True).get()
        )
        _lock_tournament(tournament_id)
        match = (
            Match.objects.select_for_update(of=("self",), no_key=True)
            .select_related("round")
            .get(pk=match.pk)
        )
        if match.is_bye and table is not None:
            raise refuse(_("A bye is not played: it needs no table."), code="bye", field="table")
        if table is not None:
            holder = _tables_in_use(tournament_id, besides=[match.pk]).get(table)
            if holder is not None:
                raise refuse(
                    _(
                        "Table {table} is in use by another match (#{holder}) that is not finished."
                    ).format(table=table, holder=holder),
                    code="table-in-use",
                    field="table",
                    match=holder,
                )
        if match.table != table:
            match.table = table
            match.save(update_fields=["table", "updated_at"])
            announce_match_changed(match.pk, match.event_id, tournament_id=tournament_id)
            if table is not None and match.status in TOLD:
                announce_tables_given([match.pk])
    return match


def round_tables_assign(
    *,
    round_: Round,
    by: User | None = None,
    waiting_too: bool = False,
    tell: bool = True,
) -> list[Match]:
    """Number the tables of ``round_``: each ready match without a table gets the lowest
    table no unfinished match of the tournament holds, in bracket (slot) order.
    ``waiting_too``: also the matches whose two players are known but that wait for the
    round to start (the draw numbers round 1 before anyone is told their match).
    ``tell``: the players of a ready match given a table are emailed it (they were told
    their match without one); off when the caller opens the matches itself, in the same
    transaction, and their "your match is ready" notice names the table.

    Returns the matches given a table (none when every ready match already has one).
    """
    with transaction.atomic():
        tournament_id = (
            Round.objects.filter(pk=round_.pk).values_list("event__tournament_id", flat=True).get()
        )
        _lock_tournament(tournament_id)
        statuses = [Match.Status.READY, *([Match.Status.PENDING] if waiting_too else [])]
        waiting = list(
            Match.objects.select_for_update(of=("self",), no_key=True)
            .filter(round_id=round_.pk, status__in=statuses, table__isnull=True)
            .exclude(is_bye=True)
            .exclude(entry1__isnull=True)
            .exclude(entry2__isnull=True)
            .order_by("slot")
        )
        if not waiting:
            return []
        free = _free_tables(tournament_id)
        now = timezone.now()
        for match in waiting:
            table = next(free, None)
            if table is None:
                raise refuse(
                    _("Every table up to {MAX_TABLE} is in use.").format(MAX_TABLE=MAX_TABLE),
                    code="no-table",
                    field="table",
                )
            match.table, match.updated_at = table, now
        Match.objects.bulk_update(waiting, ["table", "updated_at"])
        announce_match_changed(waiting[0].pk, waiting[0].event_id, tournament_id=tournament_id)
        if tell:
            announce_tables_given([m.pk for m in waiting if m.status in TOLD])
    return waiting


def opened_tables_on_commit(match_ids: Iterable[int]) -> None:
    """Once the caller's transaction commits, seat the matches it opened by themselves
    (auto-start, a player seated in a started round) at tables: see ``opened_tables_assign``.

    Written to the outbox in the caller's transaction and run in this process right after
    the commit; if this process dies first, or the seating fails (a database blip), the
    outbox drain has a worker do it. The matches are open meanwhile, only without a table."""
    ids = list(match_ids)
    if ids:
        outbox.enqueue("tournament.tasks.assign_opened_tables", ids, here=True)


def _log_under_way(ids: list[int], waiting: list[Match]) -> None:
    """Say which matches were no longer waiting when their seating ran (held up by a dead
    node or a blip, and the players had started): they keep playing where they sit."""
    late = (
        Match.objects.filter(pk__in=set(ids) - {m.pk for m in waiting}, table__isnull=True)
        .exclude(status=Match.Status.READY)
        .filter(is_bye=False)
        .values_list("pk", flat=True)
    )
    for pk in late:
        log.warning("match %s was under way before its table could be given: none given", pk)


def opened_tables_assign(*, match_ids: Iterable[int]) -> list[Match]:
    """Give each of ``match_ids`` that is ready and has no table the lowest free table, in
    bracket order, if its tournament numbers tables (some match of it has had one).

    A match that opens without the director (no "Number the tables" for it) then has a
    table at once, as a director expects; a tournament that never numbers tables gets
    none. When every table up to ``MAX_TABLE`` is taken, the rest stay without one.
    """
    ids = list(match_ids)
    tournament_id = (
        Match.objects.filter(pk__in=ids).values_list("event__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return []
    with transaction.atomic():
        _lock_tournament(tournament_id)
        if not numbers_tables(tournament_id):
            return []
        waiting = list(
            Match.objects.select_for_update(of=("self",), no_key=True)
            .filter(pk__in=ids, status=Match.Status.READY, table__isnull=True, is_bye=False)
            .order_by("event_id", "round__number", "slot")
        )
        if len(waiting) < len(ids):
            _log_under_way(ids, waiting)
        seated: list[Match] = []
        now = timezone.now()
        for match, table in zip(waiting, _free_tables(tournament_id), strict=False):
            match.table, match.updated_at = table, now
            seated.append(match)
        if seated:
            Match.objects.bulk_update(seated, ["table", "updated_at"])
            for event_id in sorted({m.event_id for m in seated}):
                first = next(m for m in seated if m.event_id == event_id)
                announce_match_changed(first.pk, event_id, tournament_id=tournament_id)
            # Their "ready" notices may have gone out before the seating: the players are
            # told the table (not twice: a ready notice sent later names it).
            announce_tables_given([m.pk for m in seated])
    return seated
