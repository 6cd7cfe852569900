"""The public pages count the players in the field: a player who withdrew before the draw
is not one of them (nor is the waiting list); one who withdrew during play is. The cap's
"(waiting list)" follows the same count, so a place given back shows as free."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.models import Event
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.withdrawals import entry_withdraw

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


def _event(cap: int | None = None) -> Event:
    t = TournamentFactory(slug="dunes")
    event = event_create(tournament=t, name="Main", match_lengths=[1], slug="main")
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN, entry_cap=cap)
    event.refresh_from_db()
    return event


def test_a_withdrawal_before_the_draw_frees_its_place(client: Client) -> None:
    event = _event(cap=3)
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(3)]
    entry_withdraw(entry=entries[0])
    clear_caches()
    page = client.get("/t/dunes/").content.decode()
    assert '<td data-label="Players">2</td>' in page
    assert "Sign up</a>" in page  # a place is free: no "(waiting list)"
    assert "2 players ·" in client.get("/t/dunes/main/").content.decode()


def test_a_withdrawal_during_play_still_counts(client: Client) -> None:
    event = _event()
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(4)]
    entry_withdraw(entry=entries[3])  # before the draw: out of the field
    entries.append(entry_register(event=event, player=PlayerFactory()))
    director = UserFactory()
    event.tournament.directors.add(director)
    draw_make(event=event, method="random", seed=1, by=director)
    entry_withdraw(entry=entries[0], by=director)  # in play: a walkover
    clear_caches()
    assert '<td data-label="Players">4</td>' in client.get("/t/dunes/").content.decode()
    assert "4 players ·" in client.get("/t/dunes/main/").content.decode()
