"""The Swiss pairing log's summary counts the rounds it lists: round 1, paired by the
draw, is listed too, so a Swiss three rounds in says "3 rounds" over three lines (it said
"2 rounds", the notes of rounds 2 and 3, above a log that also told of round 1)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import UserFactory
from tests.tournament.conftest import run_to_champion
from tournament.models import Event
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import event_next_round
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def test_the_pairing_log_counts_the_rounds_it_lists(client: Client) -> None:
    clear_caches()
    t = tournament_create(name="Swiss Open", slug="log-open", director=UserFactory())
    swiss = event_create(
        tournament=t,
        name="Swiss",
        slug="swiss",
        format=Event.Format.SWISS,
        match_lengths=[1],
        rounds=3,
    )
    for i in range(6):
        entry_register(event=swiss, player=player_create(name=f"Swiss {i}"))
    draw_make(event=swiss, seed=1)
    run_to_champion([swiss])
    for _ in range(2):
        event_next_round(event=Event.objects.get(pk=swiss.pk))
        run_to_champion([swiss])
    html = client.get("/t/log-open/swiss/", headers={"accept-language": "de"}).content.decode()
    log = re.search(r'<details class="pairing-log">.*?</details>', html, re.S).group(0)
    lines = re.findall(r"<li>(.*?)</li>", log)
    assert "Paarungsprotokoll (3 Runden)" in log
    assert [line.split()[1] for line in lines] == ["1", "2", "3"]
    clear_caches()
