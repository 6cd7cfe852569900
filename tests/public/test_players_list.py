"""``/t/<slug>/players/`` lists the tournament's field: every player once, with the
events they are in, namesakes told apart; the search box filters the list (htmx swaps in
the list alone); one query for 512 players."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.public.builders import elimination
from tournament.models import Entry, Event, Player
from tournament.pages.caching import clear_caches
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


def names_listed(html: str) -> list[str]:
    found = html.split('<ul class="found players-list">', 1)
    if len(found) == 1:
        return []
    items = found[1].split("</ul>", 1)[0]
    return re.findall(r'<li><a href="/players/\d+/">([^<]+)</a>', items)


def test_the_players_page_lists_the_field_with_their_events(client: Client) -> None:
    main = elimination(8, name="Main", slug="main")
    t = main.tournament
    side = elimination(
        4,
        tournament=t,
        name="Side",
        slug="side",
        people=[e.player for e in main.entries.order_by("pk")[:4]],
    )
    # Two namesakes, told apart by their clubs.
    a, b = (e.player for e in main.entries.order_by("pk")[4:6])
    Player.objects.filter(pk=a.pk).update(name="Anna Berg", club="Odense BK")
    Player.objects.filter(pk=b.pk).update(name="Anna Berg", club="Aarhus BK")
    # A waiting player and one withdrawn before any draw are not in the field.
    Entry.objects.create(
        event=side, player=Player.objects.create(name="Wally Waiting"), status=Entry.Status.WAITING
    )
    html = client.get(f"/t/{t.slug}/players/").content.decode()
    listed = names_listed(html)
    assert len(listed) == 8
    assert "Anna Berg (Odense BK)" in listed
    assert "Anna Berg (Aarhus BK)" in listed
    assert "Wally Waiting" not in html
    assert "8 players" in html
    first = main.entries.order_by("pk").first().player
    row = html.split(f'href="/players/{first.pk}/"', 1)[1].split("</li>", 1)[0]
    assert f'href="/t/{t.slug}/main/">Main</a>' in row
    assert f'href="/t/{t.slug}/side/">Side</a>' in row
    # The search filters the list; htmx gets the list alone.
    found = client.get(f"/t/{t.slug}/players/", {"q": "anna"}).content.decode()
    assert sorted(names_listed(found)) == ["Anna Berg (Aarhus BK)", "Anna Berg (Odense BK)"]
    fragment = client.get(
        f"/t/{t.slug}/players/", {"q": "anna"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert fragment.lstrip().startswith('<div id="player-results"')
    assert len(names_listed(fragment)) == 2
    assert f'hx-get="/t/{t.slug}/players/"' in html


def test_a_player_withdrawn_before_the_draw_is_not_listed(client: Client) -> None:
    from tests.factories import TournamentFactory
    from tournament.services.entries import entry_register
    from tournament.services.events import event_create

    t = TournamentFactory()
    event = event_create(tournament=t, name="Open", match_lengths=[3], slug="open")
    entries = [
        entry_register(event=event, player=Player.objects.create(name=f"Open {i}"))
        for i in range(4)
    ]
    entry_withdraw(entry=entries[0])
    listed = names_listed(client.get(f"/t/{t.slug}/players/").content.decode())
    assert listed == ["Open 1", "Open 2", "Open 3"]
    assert Event.objects.get(pk=event.pk).status == "registration"


def test_512_players_in_three_queries(client: Client, django_assert_max_num_queries) -> None:
    main = elimination(512, name="Main", slug="main")
    t = main.tournament
    client.get(f"/t/{t.slug}/")  # the tournament's own queries are cached first
    client.get(f"/t/{t.slug}/players/", {"q": "nobody"})  # its templates compiled once
    clear_caches()
    with django_assert_max_num_queries(3):  # the field, its events, the language
        html = client.get(f"/t/{t.slug}/players/").content.decode()
    assert len(names_listed(html)) == 512


def test_namesakes_alike_in_club_and_country_are_told_apart_by_record(client: Client) -> None:
    """Two players with the same name, club and country (the players list has no entry
    number to show): each listed with their record number, never a 500."""
    main = elimination(4, name="Main", slug="main")
    a, b = (e.player for e in main.entries.order_by("pk")[:2])
    Player.objects.filter(pk__in=[a.pk, b.pk]).update(name="Anna Berg", club="Odense", country="DK")
    response = client.get(f"/t/{main.tournament.slug}/players/")
    assert response.status_code == 200
    listed = names_listed(response.content.decode())
    assert f"Anna Berg (record {a.pk})" in listed
    assert f"Anna Berg (record {b.pk})" in listed
