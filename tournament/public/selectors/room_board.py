"""The room board: what a screen in the playing room shows, for the whole tournament or one event.

Five reads whatever the field: the matches waiting to start, those in play, those
decided in the last minutes, the started rounds that have a round time, and the matches a
player's phone holds unsent reports of (marked "results on the way": their score may be
behind the games played; ``matches.services.sync``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from matches.models import DeviceSync, Match
from matches.names import tell_apart
from tournament.models import Event, Round, Tournament
from tournament.public.selectors.common import RUNNING, matches_with_players
from tournament.selectors import elimination_counts

#: Minutes a decided match stays under "Results".
RECENT_MINUTES = 30
#: Rows each column shows at most; the rest are counted ("and 3 more"), so that a
#: 1920x1080 screen never scrolls.
NEXT_UP_ROWS = 7
IN_PLAY_ROWS = 7
RESULT_ROWS = 7
#: Round clocks in the board's header at most.
CLOCKS = 3


@dataclass(frozen=True)
class RoundClock:
    """A started round with a round time: its end, for the board's countdown."""

    round: Round
    ends_at: dt.datetime


@dataclass(frozen=True)
class BoardRow:
    """One match on the board: for a result, side 1 is the winner."""

    match: Match
    table: int | None
    name1: str
    name2: str
    score1: int
    score2: int
    where: str
    note: str


@dataclass
class BoardColumn:
    """The first rows of one column and how many more did not fit."""

    rows: list[BoardRow] = field(default_factory=list)
    more: int = 0


@dataclass(frozen=True)
class RoomBoard:
    next_up: BoardColumn
    in_play: BoardColumn
    results: BoardColumn
    clocks: list[RoundClock]
    events: list[Event]
    counts: list[tuple[Event, Any]] = field(default_factory=list)
    """Each elimination Swiss running: players alive, cashing and out."""

    @property
    def strip(self) -> bool:
        """Whether the board has a strip above its columns (round clocks, counts)."""
        return bool(self.clocks or self.counts)


def _where(match: Match, with_event: bool) -> str:
    rnd = match.round
    name = rnd.display_name
    return f"{match.event.name} · {name}" if with_event else name


#: The note of a match a player's phone holds unsent reports of (``DeviceSync``): its score
#: on the board may be behind the games played.
ON_THE_WAY = gettext_lazy("results on the way")


def _row(
    match: Match, with_event: bool, names: dict[int, str], pending: Collection[int] = ()
) -> BoardRow:
    """``match`` as a board row; a decided match with its winner first."""
    first, second = match.entry1, match.entry2
    score1, score2 = match.score1, match.score2
    note = ""
    if match.status == Match.Status.COMPLETE:
        if match.winner_id is not None and match.winner_id == match.entry2_id:
            first, second, score1, score2 = second, first, score2, score1
        if match.decision in (Match.Decision.FORFEIT, Match.Decision.WALKOVER):
            note = match.get_decision_display()
    elif match.status in (Match.Status.REPORTED, Match.Status.DISPUTED):
        note = match.get_status_display()
    if match.pk in pending:
        note = f"{note} · {ON_THE_WAY}" if note else str(ON_THE_WAY)
    assert first is not None
    assert second is not None
    return BoardRow(
        match=match,
        table=match.table,
        name1=names.get(first.pk, first.player.name),
        name2=names.get(second.pk, second.player.name),
        score1=score1,
        score2=score2,
        where=_where(match, with_event),
        note=note,
    )


def _column(
    matches: QuerySet[Match], rows: int, with_event: bool, pending: set[int]
) -> BoardColumn:
    found = list(matches[: rows + 1])
    # Two "Anna Berg" in play at once are told apart as everywhere (``tell_apart``).
    names = tell_apart(e for m in found[:rows] for e in (m.entry1, m.entry2))
    column = BoardColumn([_row(m, with_event, names, pending) for m in found[:rows]])
    if len(found) > rows:
        column.more = matches.count() - rows
    return column


def room_board(
    tournament: Tournament, event: Event | None = None, now: dt.datetime | None = None
) -> RoomBoard:
    """The room board of ``tournament``, or of its ``event`` alone."""
    now = now or timezone.now()
    matches = (
        matches_with_players()
        .select_related("event", "round")
        .filter(event__tournament=tournament, is_bye=False)
        .exclude(entry1__isnull=True)
        .exclude(entry2__isnull=True)
    )
    rounds = Round.objects.select_related("event").filter(event__tournament=tournament)
    if event is not None:
        matches = matches.filter(event=event)
        rounds = rounds.filter(event=event)
    by_table = (F("table").asc(nulls_last=True), "event__position", "round__number", "slot")
    every = event is None
    # Matches a phone holds unsent reports of: their score may be behind (one query).
    pending = set(
        DeviceSync.objects.filter(
            match__in=matches.filter(status__in=(Match.Status.READY, *RUNNING)), unsent__gt=0
        ).values_list("match_id", flat=True)
    )
    next_up = _column(
        matches.filter(status=Match.Status.READY).order_by(*by_table), NEXT_UP_ROWS, every, pending
    )
    in_play = _column(
        matches.filter(status__in=RUNNING).order_by(*by_table), IN_PLAY_ROWS, every, pending
    )
    results = _column(
        matches.filter(
            status=Match.Status.COMPLETE, decided_at__gte=now - dt.timedelta(minutes=RECENT_MINUTES)
        ).order_by("-decided_at", "-pk"),
        RESULT_ROWS,
        every,
        pending,
    )
    clocks = [
        RoundClock(rnd, rnd.started_at + dt.timedelta(minutes=rnd.minutes))
        for rnd in rounds.filter(
            status=Round.Status.STARTED, minutes__isnull=False, started_at__isnull=False
        ).order_by("event__position", "event_id", "bracket", "number")[:CLOCKS]
        if rnd.started_at is not None and rnd.minutes is not None
    ]
    events = list(
        tournament.events.exclude(status=Event.Status.REGISTRATION).order_by("position", "id")
    )
    counts = [
        (e, elimination_counts(e))
        for e in events
        if e.is_elimination_swiss
        and e.status != Event.Status.REGISTRATION
        and (event is None or e.pk == event.pk)
    ]
    return RoomBoard(next_up, in_play, results, clocks, events, counts)
