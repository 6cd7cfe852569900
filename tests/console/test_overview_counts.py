"""The director's tournament overview counts the field: not the waiting list (shown
apart) nor withdrawals; "checked in" only before the draw (after it, players who lost are
"eliminated" and the count said "1 checked in" for a field of eight); a 1-point event
reads "1 pt" and "1 point", not "1 pts" and "1 points (the last repeats)"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import strip_tags

from tests.factories import PlayerFactory, UserFactory
from tournament.models import Entry, Event
from tournament.services import results
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.events import event_create
from tournament.services.results import match_result_enter
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create
from tournament.services.withdrawals import entry_withdraw

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _row(page: str, name: str) -> str:
    text = re.sub(r"\s+", " ", strip_tags(page))
    return text.split(f"{name} ", 1)[1].split(" Match grid", 1)[0]


def test_the_overview_counts_the_field(client: Client) -> None:
    director = UserFactory()
    t = tournament_create(name="Fjord Open", slug="fjord", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[1], slug="main")
    Event.objects.filter(pk=event.pk).update(entry_cap=4)
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(4)]
    entry_withdraw(entry=entries[2])
    Entry.objects.filter(pk=entries[3].pk).update(status=Entry.Status.WAITING)
    for entry in entries[:2]:
        entry_check_in(entry=entry)
    client.force_login(director)
    row = _row(client.get("/director/t/fjord/").content.decode(), "Main")
    assert "1 pt ·" in row
    assert "2 · 2 checked in · 1 waiting" in row, row
    page = client.get("/director/t/fjord/events/main/").content.decode()
    assert "1 point ·" in page
    assert "the last repeats" not in page
    draw_make(event=event, method="random", seed=1, by=director)
    first = event.rounds.get(number=1)
    if first.status == "pending":
        round_start(round_=first)
    match = event.matches.get(round__number=1)
    match_result_enter(
        match=match,
        games=[results.GameResult(winner=1, cube=1, result="single")],
        by=director,
    )
    row = _row(client.get("/director/t/fjord/").content.decode(), "Main")
    assert "checked in" not in row, row
    assert "2 · 1 waiting" in row, row
