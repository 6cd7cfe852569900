"""Numbers a director reads: an entry's "No." is its number in the event (not the id of
the player among every player of the site) and is what the manual draw is typed with;
ratings show as whole numbers on the CSV preview and on the player's page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import EntryFactory, EventFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    for i in range(30):  # other players of the site: ids far from 1..4
        PlayerFactory(name=f"Elsewhere {i}")
    event = EventFactory(tournament=TournamentFactory(slug="club"), slug="main")
    for i in range(4):
        EntryFactory(event=event, player=PlayerFactory(name=f"M{i}", rating=1500.4 + i))
    return event


def test_no_is_the_entrys_number_in_the_event(client: Client, event) -> None:
    client.force_login(event.tournament.directors.get())
    page = client.get("/director/t/club/events/main/").content.decode()
    rows = re.findall(
        r'<tr id="entry-\d+"[^>]*>\s*<td class="pick">.*?</td>\s*<td class="num">(\d+)</td>', page
    )
    assert sorted(int(n) for n in rows) == [1, 2, 3, 4]
    # The manual draw is typed with those numbers: M0 was entered first, so No. 1.
    response = client.post(
        "/director/t/club/events/main/draw/",
        {"method": "manual", "order": "2 · M1\n1 · M0\n4 · M3\n3 · M2"},
    )
    assert response.status_code == 302
    seeds = {e.player.name: e.seed for e in event.entries.select_related("player")}
    assert seeds == {"M1": 1, "M0": 2, "M3": 3, "M2": 4}


def test_ratings_are_whole_numbers_on_the_csv_preview_and_the_player_page(
    client: Client, event
) -> None:
    client.force_login(event.tournament.directors.get())
    preview = client.post(
        "/director/t/club/import/", {"text": "name,email,rating\nNew Player,,1612.7\n"}
    ).content.decode()
    assert "New Player" in preview
    assert '<td class="num">1613</td>' in preview
    assert '<td class="num">1612.7</td>' not in preview
    player = event.entries.select_related("player").first().player
    page = Client().get(f"/players/{player.pk}/").content.decode()
    assert "rating <strong>1500</strong>" in page
    assert "1500.4" not in page
