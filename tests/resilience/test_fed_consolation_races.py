"""Issue 13 on PostgreSQL: a Main feeding a Consolation, eight matches at once through
the API, rounds started while the worker seats the Main's losers, ratings alongside.

No match may be stuck (both players, round started, still ``pending``), no request
answered 5xx, and PostgreSQL may detect no deadlock. ``make stress`` repeats the run
20 times (tests/stress/test_fed_consolation_heavy.py).
"""

from __future__ import annotations

import pytest
from django.db.models import F

from tests.resilience.fed_consolation import run_repetitions, second_worker

__all__ = ["second_worker"]

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("second_worker")
def test_eight_matches_at_once_through_a_fed_consolation() -> None:
    run_repetitions(3)


def test_a_deadlock_is_answered_busy_not_database_unreachable(caplog) -> None:
    """PostgreSQL's own deadlock error (SQLSTATE 40P01) is a lost race, not an outage."""
    from django.db import OperationalError, connection

    from tournament.api.errors import exception_handler

    with pytest.raises(OperationalError) as raised, connection.cursor() as cursor:
        cursor.execute("DO $$ BEGIN RAISE EXCEPTION 'deadlock' USING ERRCODE = '40P01'; END $$")
    response = exception_handler(raised.value, {})
    assert response is not None
    assert response.status_code == 503
    assert response.data["code"] == "busy"
    assert "send it again" in response.data["message"]
    assert "cannot be reached" not in response.data["message"]
    assert "answered 503 busy" in caplog.text


def test_a_consolation_round_started_while_a_main_loser_is_seated_there_is_played() -> None:
    """The interleaving of issue 13, made certain: the Consolation's round 1 is started
    and not yet committed when the Main's advance seats the second player of its match.
    The seating waits for the start (the family's event lock) and then makes the match
    ready; before, it read the round as pending and left the match ``pending`` for ever."""
    import threading
    import time

    from django.db import connections, transaction
    from django.utils import timezone

    from matches.models import Match
    from tests.factories import PlayerFactory, TournamentFactory
    from tests.resilience.faults import backends_waiting_for_a_lock
    from tests.resilience.fed_consolation import stuck_matches
    from tournament.models import Round
    from tournament.services.advance import match_advance
    from tournament.services.draws import draw_make
    from tournament.services.entries import entry_register
    from tournament.services.events import event_create
    from tournament.services.rounds import round_start

    tournament = TournamentFactory()
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
    )
    players = [PlayerFactory() for _ in range(4)]
    for player in players:
        entry_register(event=main, player=player)
    draw_make(event=main, method="manual", order=[p.pk for p in players])
    round_start(round_=main.rounds.get(number=1))
    first, second = Match.objects.filter(event=main, round__number=1).order_by("slot")
    Match.objects.filter(pk__in=[first.pk, second.pk]).update(
        status=Match.Status.COMPLETE, winner=F("entry1"), decided_at=timezone.now()
    )
    match_advance(match_id=first.pk)  # its loser waits in the Consolation's match
    (fed,) = Match.objects.filter(event=consolation, round__number=1)
    fed.refresh_from_db()
    assert [fed.entry1_id, fed.entry2_id].count(None) == 1

    started, release, seated = threading.Event(), threading.Event(), threading.Event()

    def start_round() -> None:
        try:
            with transaction.atomic():
                round_start(round_=Round.objects.get(event=consolation, number=1))
                started.set()
                release.wait(30)
        finally:
            connections.close_all()

    def seat_loser() -> None:
        try:
            match_advance(match_id=second.pk)
            seated.set()
        finally:
            connections.close_all()

    starter = threading.Thread(target=start_round)
    starter.start()
    assert started.wait(30)
    seater = threading.Thread(target=seat_loser)
    seater.start()
    # The seating either finishes (it did not wait for the start) or waits for its lock.
    for _ in range(300):
        if seated.is_set() or backends_waiting_for_a_lock():
            break
        time.sleep(0.1)
    release.set()
    starter.join(30)
    seater.join(30)
    fed.refresh_from_db()
    assert fed.entry1_id is not None
    assert fed.entry2_id is not None
    assert not stuck_matches([consolation.pk]), "both players seated, round started, pending"
    assert fed.status == Match.Status.READY
