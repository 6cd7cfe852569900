"""Issue 13 on PostgreSQL: the director's services lock rows ``FOR NO KEY UPDATE`` and take
the event's lock before an entry's (``event_lock``'s lock order).

A rating task or a game report writes rows referring to players, entries, events,
matches and tournaments; at COMMIT PostgreSQL checks each foreign key with
``SELECT 1 ... FOR KEY SHARE``, which a ``FOR UPDATE`` lock makes wait (the deadlocks of
issue 13) and a ``FOR NO KEY UPDATE`` lock does not. Each service below is held open
inside its transaction while such a check runs on every row it locked.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import OperationalError, connection, connections, models, transaction

from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory
from tests.resilience.concurrency import run_at_once
from tests.resilience.faults import backends_waiting_for_a_lock, wait_until_worker_idle
from tests.resilience.fed_consolation import Tally, deadlocks_settled, match_play, stuck_matches
from tournament.models import Entry, Event, Player, PlayerLink, RatingChange, Round, Tournament
from tournament.services.console_extras import entry_check_in_undo
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.events import event_create
from tournament.services.notify_prefs import link_notify_set
from tournament.services.rounds import round_length_set, round_start
from tournament.services.tables import (
    match_table_set,
    opened_tables_assign,
    round_tables_assign,
)
from tournament.services.tournaments import tournament_update
from tournament.services.withdrawals import entry_withdraw, entry_withdraw_undo

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@dataclass
class Weekend:
    tournament: Tournament
    main: Event  # drawn, round 1 started: ready matches
    side: Event  # taking entries
    player: Player
    registered: Entry
    checked_in: Entry
    withdrawn: Entry


def _weekend() -> Weekend:
    tournament = TournamentFactory()
    main = event_create(tournament=tournament, name="Main", match_lengths=[3])
    players = [PlayerFactory() for _ in range(4)]
    for player in players:
        entry_register(event=main, player=player)
    draw_make(event=main, method="manual", order=[p.pk for p in players])
    round_start(round_=main.rounds.get(number=1))
    side = event_create(tournament=tournament, name="Side", match_lengths=[3])
    registered, checked_in, withdrawn = (entry_register(event=side, player=p) for p in players[:3])
    entry_check_in(entry=checked_in)
    entry_withdraw(entry=withdrawn)
    return Weekend(tournament, main, side, players[0], registered, checked_in, withdrawn)


def _link(w: Weekend) -> PlayerLink:
    return PlayerLink.objects.get(tournament=w.tournament, player=w.player)


def _ready(w: Weekend) -> Match:
    return Match.objects.filter(event=w.main, status=Match.Status.READY).order_by("pk").first()


#: Each service, and the rows it locks: (model, pk) while its transaction is open.
CASES: dict[str, tuple[Callable[[Weekend], Any], Callable[[Weekend], list[tuple[Any, int]]]]] = {
    "register": (
        lambda w: entry_register(event=w.side, player=PlayerFactory()),
        lambda w: [(Event, w.side.pk)],
    ),
    "check in": (
        lambda w: entry_check_in(entry=w.registered),
        lambda w: [(Entry, w.registered.pk)],
    ),
    "check in undo": (
        lambda w: entry_check_in_undo(entry=w.checked_in),
        lambda w: [(Entry, w.checked_in.pk), (Event, w.side.pk), (Player, w.checked_in.player_id)],
    ),
    "withdraw undo": (
        lambda w: entry_withdraw_undo(entry=w.withdrawn),
        lambda w: [(Entry, w.withdrawn.pk), (Event, w.side.pk), (Player, w.withdrawn.player_id)],
    ),
    "table of a match": (
        lambda w: match_table_set(match=_ready(w), table=7),
        lambda w: [(Tournament, w.tournament.pk), (Match, _ready(w).pk)],
    ),
    "tables of a round": (
        lambda w: round_tables_assign(round_=w.main.rounds.get(number=1)),
        lambda w: (
            [(Tournament, w.tournament.pk)]
            + [(Match, m.pk) for m in Match.objects.filter(event=w.main, status="ready")]
        ),
    ),
    "tables of matches that opened by themselves": (
        lambda w: (
            match_table_set(match=_ready(w), table=7),
            opened_tables_assign(
                match_ids=Match.objects.filter(event=w.main, status="ready").values_list(
                    "pk", flat=True
                )
            ),
        ),
        lambda w: (
            [(Tournament, w.tournament.pk)]
            + [(Match, m.pk) for m in Match.objects.filter(event=w.main, status="ready")]
        ),
    ),
    "tournament details": (
        lambda w: tournament_update(tournament=w.tournament, name="Renamed Open"),
        lambda w: [(Tournament, w.tournament.pk)],
    ),
    "event created": (
        lambda w: event_create(
            tournament=w.tournament,
            name="Side Consolation",
            match_lengths=[3],
            feeds_from=w.side,
            feed_rounds=[1],
        ),
        lambda w: [(Tournament, w.tournament.pk), (Event, w.side.pk)],
    ),
    "notifications": (
        lambda w: link_notify_set(link=_link(w), notify=not _link(w).notify),
        lambda w: [(PlayerLink, _link(w).pk)],
    ),
}


def _foreign_key_check_waits(model: type[models.Model], pk: int) -> bool:
    """Run PostgreSQL's own foreign-key check on the row; True when it had to wait."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '1s'")
            cursor.execute(
                f"SELECT 1 FROM ONLY {model._meta.db_table} WHERE id = %s FOR KEY SHARE", [pk]
            )
    except OperationalError:  # lock_not_available: it waited for the service's lock
        return True
    return False


@pytest.mark.parametrize("case", list(CASES))
def test_a_service_holding_its_locks_lets_foreign_key_checks_through(case: str) -> None:
    run, locked = CASES[case]
    weekend = _weekend()
    rows = locked(weekend)
    held, release, failed = threading.Event(), threading.Event(), []

    def hold() -> None:
        try:
            with transaction.atomic():
                run(weekend)
                held.set()
                release.wait(30)
        except BaseException as exc:  # asserted on below
            failed.append(exc)
            held.set()
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(30)
        assert not failed, failed
        waited = [
            f"{model.__name__} {pk}" for model, pk in rows if _foreign_key_check_waits(model, pk)
        ]
    finally:
        release.set()
        holder.join(30)
    assert not waited, f"{case}: foreign-key checks waited on {waited} (FOR UPDATE)"
    assert not failed, failed


def test_undoing_a_withdrawal_while_another_director_withdraws_does_not_deadlock() -> None:
    """A Swiss event's round 1 is paired, not started. A director's transaction holds the
    event's lock (changing the round's match length) and then withdraws the player again;
    meanwhile another director undoes the withdrawal. Both take the event before the entry,
    so one waits for the other; before, the undo locked the entry first and then waited for
    the event (its Swiss repair): PostgreSQL found a deadlock and aborted one of them."""
    tournament = TournamentFactory()
    swiss = event_create(
        tournament=tournament, name="Swiss", format="swiss", match_lengths=[3], rounds=3
    )
    entries = [entry_register(event=swiss, player=PlayerFactory()) for _ in range(6)]
    draw_make(event=swiss, method="manual", order=[e.player_id for e in entries])
    leaver = entries[0]
    entry_withdraw(entry=leaver)
    round_1 = Round.objects.get(event=swiss, number=1)
    before = deadlocks_settled()

    held, release, undone = threading.Event(), threading.Event(), threading.Event()
    failed: list[BaseException] = []

    def director_a() -> None:
        try:
            with transaction.atomic():
                round_length_set(round_=round_1, length=5)  # holds the event's lock
                held.set()
                release.wait(30)
                entry_withdraw(entry=leaver)  # the event's lock, then the entry's
        except BaseException as exc:  # asserted on below
            failed.append(exc)
        finally:
            held.set()
            connections.close_all()

    def director_b() -> None:
        try:
            entry_withdraw_undo(entry=leaver)
            undone.set()
        except BaseException as exc:  # asserted on below
            failed.append(exc)
        finally:
            connections.close_all()

    a = threading.Thread(target=director_a)
    a.start()
    assert held.wait(30)
    b = threading.Thread(target=director_b)
    b.start()
    for _ in range(300):  # the undo waits for a lock the first director holds
        if backends_waiting_for_a_lock() or undone.is_set() or failed:
            break
        time.sleep(0.05)
    release.set()
    a.join(30)
    b.join(30)
    assert not a.is_alive()
    assert not b.is_alive()
    assert not failed, failed
    leaver.refresh_from_db()
    assert leaver.status == Entry.Status.REGISTERED
    paired = Match.objects.filter(event=swiss, round__number=1)
    assert paired.filter(entry1=leaver).exists() or paired.filter(entry2=leaver).exists()
    found = deadlocks_settled() - before
    assert found == 0, f"PostgreSQL detected {found} deadlock(s)"


def _mix(seed: int) -> tuple[list[Callable[[], Any]], list[int], Tally]:
    """One weekend's concurrent mix: four Main matches played to the end by their
    players' links (the worker then advances and rates them) while directors number
    tables, check players in, withdraw and take back withdrawals in a Swiss side event,
    edit the tournament and players change their notification choice."""
    tournament = TournamentFactory(name=f"Mix Open {seed}", slug=f"mix-{seed}")
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    players = [PlayerFactory() for _ in range(8)]
    for player in players:
        entry_register(event=main, player=player)
    draw_make(event=main, method="manual", order=[p.pk for p in players])
    round_1 = main.rounds.get(number=1)
    round_start(round_=round_1)
    swiss = event_create(
        tournament=tournament, name="Swiss", format="swiss", match_lengths=[3], rounds=3
    )
    swiss_entries = [entry_register(event=swiss, player=p) for p in players[:6]]
    draw_make(event=swiss, method="manual", order=[e.player_id for e in swiss_entries])
    for entry in swiss_entries[:2]:
        entry_withdraw(entry=entry)
    late = event_create(tournament=tournament, name="Late", match_lengths=[3])
    late_entries = [entry_register(event=late, player=p) for p in players]
    matches = list(
        Match.objects.filter(event=main, status=Match.Status.READY)
        .select_related("entry1", "entry2")
        .order_by("pk")
    )
    tally = Tally()
    calls: list[Callable[[], Any]] = [match_play(m, tally) for m in matches]
    calls += [lambda: round_tables_assign(round_=round_1) for _ in range(2)]
    calls += [
        (lambda m=m, t=t: match_table_set(match=m, table=t))
        for t, m in enumerate(matches, start=20)
    ]
    calls += [(lambda e=e: entry_check_in(entry=e)) for e in late_entries]
    calls += [(lambda e=e: entry_withdraw_undo(entry=e)) for e in swiss_entries[:2]]
    calls += [(lambda e=e: entry_withdraw(entry=e)) for e in swiss_entries[4:]]
    calls += [lambda: tournament_update(tournament=tournament, name=f"Mix Open {seed}b")]
    calls += [
        (lambda link=link: link_notify_set(link=link, notify=False))
        for link in PlayerLink.objects.filter(tournament=tournament, player__in=players)
    ]
    return calls, [main.pk, swiss.pk, late.pk], tally


@pytest.mark.stress
@pytest.mark.usefixtures("celery_worker_process")
def test_director_work_alongside_reports_and_ratings_finds_no_deadlock() -> None:
    """Three weekends of the mix above, each released at once; every call either does
    its work or is refused with a reason (a table already taken), none answered 5xx,
    and PostgreSQL detects no deadlock (the worker's advances and ratings included).

    A guard over the whole mix (about a minute, so in ``make stress``): it found no
    deadlock on the code before these locks changed either; the tests above are the
    ones that fail there."""
    from matches.errors import Invalid

    before = deadlocks_settled()
    for seed in range(3):
        calls, events, tally = _mix(seed)
        outcomes = run_at_once(calls)
        errors = [o.error for o in outcomes if not isinstance(o.error, Invalid | None)]
        assert not errors, errors
        assert not tally.server_errors, tally.server_errors
        wait_until_worker_idle(timeout=60)
        assert not stuck_matches(events)
        assert RatingChange.objects.filter(match__event_id=events[0]).exists()
    found = deadlocks_settled() - before
    assert found == 0, f"PostgreSQL detected {found} deadlock(s): see its server log"
