"""The event page's side pool takes the players ticked in the entries table; a
Consolation fed from the Main offers no draw and says where its players come from."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from tests.console.test_player_links import make_weekend
from tournament.models import Event, SidePool

pytestmark = pytest.mark.django_db


def test_add_a_side_pool_takes_the_ticked_players(client: Client) -> None:
    weekend = make_weekend()
    client.force_login(weekend.director)
    entries = list(weekend.main.entries.order_by("pk"))
    ticked = [entries[0].pk, entries[3].pk]
    url = "/director/t/links/events/main/side-pools/"
    done = client.post(
        url,
        {
            "pool-name": "Calcutta",
            "pool-stake": "5",
            "pool-payout_split": "100",
            "entries": [str(pk) for pk in ticked],
        },
        follow=True,
    )
    assert "Side pool Calcutta added with the 2 ticked players." in done.content.decode()
    pool = SidePool.objects.get(event=weekend.main, name="Calcutta")
    assert sorted(pool.entries.values_list("pk", flat=True)) == sorted(ticked)
    assert pool.stake == Decimal("5")
    # An entry of another event: refused, and no pool half made.
    bad = client.post(
        url,
        {
            "pool-name": "Jackpot",
            "pool-stake": "5",
            "pool-payout_split": "100",
            "entries": [str(entries[1].pk), "999999"],
        },
        follow=True,
    )
    assert "No such entry in this event: 999999" in bad.content.decode()
    assert not SidePool.objects.filter(name="Jackpot").exists()
    page = client.get("/director/t/links/events/main/").content.decode()
    assert "Its players: those ticked in the entries table above" in page


def test_a_fed_consolation_offers_no_draw_and_says_where_its_players_come_from(
    client: Client,
) -> None:
    weekend = make_weekend()
    # Before the Main is drawn too: the Consolation waits in registration.
    Event.objects.filter(pk=weekend.consolation.pk).update(status="registration")
    weekend.consolation.rounds.all().delete()
    client.force_login(weekend.director)
    page = client.get("/director/t/links/events/consolation/").content.decode()
    assert "Make the draw" not in page
    assert 'action="/director/t/links/events/consolation/draw/"' not in page
    assert "Where its players come from" in page
    assert "its players are the losers of" in page
    assert 'href="/director/t/links/events/main/">Main</a> round 1.' in page
    # The Main still offers its own draw while it is in registration.
    Event.objects.filter(pk=weekend.main.pk).update(status="registration")
    weekend.main.rounds.all().delete()
    main = client.get("/director/t/links/events/main/").content.decode()
    assert "Make the draw" in main
    assert "Where its players come from" not in main
