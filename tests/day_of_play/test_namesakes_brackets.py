"""Namesakes told apart in the brackets: the public bracket boxes (which the phone shows
round by round), the printed bracket and the console's match grid, by club, then
country, then seed, as the report form and emails already do (``matches.names``)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from matches.models import Match
from matches.names import names_told_apart
from tests.factories import UserFactory
from tournament.models import Entry
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

#: name, club, country, seed of eight players: three pairs of namesakes and two others.
FIELD = [
    ("Anna Ballard", "Club Nord", "DK", 1),
    ("Anna Ballard", "Club Süd", "DK", 2),
    ("Ben Cooke", "Harbour", "DK", 3),
    ("Ben Cooke", "Harbour", "SE", 4),
    ("Cy Dunn", "Harbour", "DK", 5),
    ("Cy Dunn", "Harbour", "DK", 6),
    ("Dee Eck", "", "", 7),
    ("Eli Fox", "", "", 8),
]
TOLD = [
    "Anna Ballard (Club Nord)",
    "Anna Ballard (Club Süd)",
    "Ben Cooke (DK)",
    "Ben Cooke (SE)",
    "Cy Dunn (seed 5)",
    "Cy Dunn (seed 6)",
]


@pytest.fixture
def drawn():
    return build_twins()


def build_twins():
    """The Twin Open's Main of ``FIELD``, drawn by rating (seeds 1-8 in ``FIELD``'s order)."""
    clear_caches()
    director = UserFactory()
    t = tournament_create(name="Twin Open", slug="twin", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[1], slug="main")
    for i, (name, club, country, _) in enumerate(FIELD):
        player = player_create(
            name=name, club=club, country=country, rating=1900 - 10 * i, confirm_new=True
        )
        entry_register(event=main, player=player)
    draw_make(event=main, method="rating", by=director)
    seeds = dict(Entry.objects.filter(event=main).values_list("player__rating", "seed"))
    assert [seeds[1900 - 10 * i] for i in range(8)] == [seed for *_, seed in FIELD]
    clear_caches()
    return director, main


def test_names_told_apart_keeps_unique_names_and_tells_the_namesakes():
    class P:
        def __init__(self, pk, name, club=""):
            self.pk, self.name, self.club, self.country = pk, name, club, ""

    class E:
        def __init__(self, pk, player, seed=None):
            self.pk, self.player, self.seed = pk, player, seed

    entries = [E(1, P(10, "Ann  Lee", "A")), E(2, P(11, "ann lee", "B")), E(3, P(12, "Bo"))]
    assert names_told_apart(entries) == {1: "Ann  Lee (A)", 2: "ann lee (B)", 3: "Bo"}


def test_the_public_bracket_tells_namesakes_apart(client: Client, drawn) -> None:
    page = client.get("/t/twin/main/").content.decode()
    bracket = page.split('class="bracket"', 1)[1]
    names = re.findall(r'<span class="name"><a href="[^"]+">([^<]+)</a>', bracket)
    for told in TOLD:
        assert told.replace("ü", "&#252;") in names or told in names, (told, names)
    assert "Dee Eck" in names  # a name of its own stays as it is
    printed = client.get("/t/twin/main/print/").content.decode()
    assert "Ben Cooke (SE)" in printed


def test_the_console_grid_tells_namesakes_apart(client: Client, drawn) -> None:
    director, main = drawn
    client.force_login(director)
    grid = client.get("/director/t/twin/events/main/matches/").content.decode()
    shown = re.findall(r"<dt>([^<]+)</dt>", grid)
    for told in TOLD:
        assert told in shown, (told, shown)
    match = Match.objects.filter(event=main).first()
    assert match is not None
