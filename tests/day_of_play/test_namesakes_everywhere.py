"""Two "Anna Berg" in one tournament are told apart by the same helper everywhere, even where
only one of them is shown (``matches.names.tell_apart`` looks across the tournament): the
room board, the next-match email, the dispute queue, the side-pool list and the final
sheet, as the bracket and the grid already did."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from matches.models import Match
from tests.factories import UserFactory
from tests.tournament.conftest import play, start_due_rounds
from tournament.models import Entry, Event
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.side_pools import side_pool_create, side_pool_set_entries
from tournament.services.tournaments import tournament_create
from tournament.tasks.notifications import match_ready_message

pytestmark = pytest.mark.django_db

ODENSE, AARHUS = "Anna Berg (Odense BK)", "Anna Berg (Aarhus BK)"


@pytest.fixture
def cup():
    clear_caches()
    director = UserFactory()
    t = tournament_create(name="Twin Cup", slug="twin", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[1], slug="main")
    for i, (name, club) in enumerate(
        [("Anna Berg", "Odense BK"), ("Bo", ""), ("Anna Berg", "Aarhus BK"), ("Cy", "")]
    ):
        player = player_create(name=name, club=club, rating=1900 - 10 * i, confirm_new=True)
        entry_register(event=main, player=player)
    draw_make(event=main, method="rating", by=director)
    start_due_rounds(main)
    client = Client()
    client.force_login(director)
    return director, main, client


def _annas(event: Event) -> list[Entry]:
    return list(
        Entry.objects.filter(event=event, player__name="Anna Berg")
        .select_related("player", "event")
        .order_by("player__club")
    )


def _match_of(entry: Entry) -> Match:
    return Match.objects.select_related("round", "event__tournament").get(
        event=entry.event,
        round__number=1,
        entry1__isnull=False,
        entry2__isnull=False,
        **{"entry1" if Match.objects.filter(entry1=entry).exists() else "entry2": entry},
    )


def test_the_room_board_and_the_email_tell_one_anna_from_the_other(cup) -> None:
    _, main, _ = cup
    aarhus, odense = _annas(main)
    match = _match_of(odense)
    assert {match.entry1_id, match.entry2_id} != {odense.pk, aarhus.pk}  # not each other
    board = Client().get("/t/twin/board/").content.decode()
    assert ODENSE in board
    assert AARHUS in board
    opponent = match.entry2 if match.entry1_id == odense.pk else match.entry1
    email = match_ready_message(match, opponent, odense)
    assert ODENSE in email.subject
    assert ODENSE in email.body


def test_the_dispute_queue_tells_them_apart(cup) -> None:
    _, main, client = cup
    _aarhus, odense = _annas(main)
    Match.objects.filter(pk=_match_of(odense).pk).update(status=Match.Status.DISPUTED)
    queue = client.get("/director/disputes/").content.decode()
    assert ODENSE in queue


def test_the_side_pool_list_and_the_final_sheet_tell_them_apart(cup) -> None:
    director, main, client = cup
    pool = side_pool_create(
        event=main, name="Side", stake=Decimal("10"), payout_split=[100], by=director
    )
    side_pool_set_entries(pool=pool, entry_ids=[e.pk for e in _annas(main)], by=director)
    page = client.get("/director/t/twin/events/main/").content.decode()
    side = page[page.index('id="side-pools"') :]
    assert ODENSE in side
    assert AARHUS in side
    for _ in range(3):
        for match in Match.objects.filter(event=main, status=Match.Status.READY):
            play(match, 1)
        start_due_rounds(main)
    main.refresh_from_db()
    assert main.status == Event.Status.FINISHED
    clear_caches()
    final = Client().get("/t/twin/main/final/").content.decode()
    assert final.count(ODENSE) >= 2
    assert final.count(AARHUS) >= 2
