"""The player's side of one person, one player: Sign up is offered only while it is
open (the deadline too, on cached pages), the link signs up for other events, asks
before a withdrawal and takes it back, and says what each state truly is."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from tests.factories import PlayerFactory, TournamentFactory
from tests.public.signup_flow import signup_and_confirm
from tests.tournament.conftest import play, playable
from tournament import page_cache
from tournament.models import Entry, Event
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import round_start
from tournament.services.signup import entry_signup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def events():
    t = TournamentFactory(slug="spring")
    made = []
    for name in ("Main", "Side"):
        event = event_create(tournament=t, name=name, match_lengths=[1])
        Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN)
        event.refresh_from_db()
        made.append(event)
    return made


def test_sign_up_is_not_offered_past_the_deadline_even_on_a_cached_page(client, events):
    main, side = events
    done = entry_signup(event=main, name="Anna", email="anna@example.org")
    closes = timezone.now() + dt.timedelta(seconds=8)  # margin for a slow first request
    Event.objects.filter(pk=side.pk).update(signup_deadline=closes)  # as its settings do:
    page_cache.invalidate_event(side.pk, side.tournament_id)
    assert 'href="/t/spring/side/signup/"' in client.get("/t/spring/").content.decode()
    assert "Sign up for Side" in client.get("/t/spring/side/").content.decode()
    assert "Sign up for Side" in client.get(f"/r/{done.link.key}/entries/").content.decode()
    time.sleep(max(0.0, (closes - timezone.now()).total_seconds()) + 0.1)  # nothing written
    assert 'href="/t/spring/side/signup/"' not in client.get("/t/spring/").content.decode()
    assert "Sign up for Side" not in client.get("/t/spring/side/").content.decode()
    assert "Sign up for Side" not in client.get(f"/r/{done.link.key}/entries/").content.decode()
    form = client.get("/t/spring/side/signup/").content.decode()
    assert "closed at the deadline" in form
    late = client.post("/t/spring/side/signup/", {"name": "Ben", "email": "ben@example.org"})
    assert late.status_code == 400
    assert "closed at the deadline" in late.content.decode()
    refused = client.post(f"/r/{done.link.key}/entries/signup/", {"event": side.pk})
    assert refused.status_code == 400
    assert "closed at the deadline" in refused.content.decode()
    assert not side.entries.exists()


def test_a_second_sign_up_with_the_same_email_joins_the_link(client, events):
    main, side = events
    first = signup_and_confirm(
        client, "/t/spring/main/signup/", {"name": "Anna Berg", "email": "a@example.org"}
    )
    key = Entry.objects.get(event=main).player.links.get().key
    assert key in first.content.decode()
    second = signup_and_confirm(
        client, "/t/spring/side/signup/", {"name": "Anna Berg", "email": "A@example.org"}
    )
    assert "Check your email" in second.content.decode()
    assert key not in second.content.decode()
    page = client.get(f"/r/{key}/entries/").content.decode()
    assert "<h2>Main</h2>" in page
    assert "<h2>Side</h2>" in page
    assert Entry.objects.get(event=side).player_id == Entry.objects.get(event=main).player_id


def test_from_the_link_the_player_signs_up_for_another_event(client, events):
    main, side = events
    done = entry_signup(event=main, name="Anna", email="anna@example.org")
    answer = client.post(f"/r/{done.link.key}/entries/signup/", {"event": side.pk})
    assert answer.status_code == 302
    assert side.entries.get().player_id == done.entry.player_id
    page = client.get(answer["Location"]).content.decode()
    assert "You are signed up" in page
    other = event_create(tournament=TournamentFactory(), name="Else", match_lengths=[1])
    Event.objects.filter(pk=other.pk).update(signup=Event.Signup.OPEN)
    assert (
        client.post(f"/r/{done.link.key}/entries/signup/", {"event": other.pk}).status_code == 400
    )


def test_the_withdrawal_asks_first_and_is_taken_back_from_the_link(client, events):
    main, _ = events
    done = entry_signup(event=main, name="Anna", email="anna@example.org")
    url = f"/r/{done.link.key}/entries/{done.entry.pk}/withdraw/"
    asked = client.get(url).content.decode()
    assert "Withdraw from Main?" in asked
    assert "No, keep my entry" in asked
    assert client.post(url, {"confirm": "1"}).status_code == 302
    assert Entry.objects.get(pk=done.entry.pk).status == Entry.Status.WITHDRAWN
    # The matches page does not close on them: they are sent where they can take it back.
    assert client.get(f"/r/{done.link.key}/")["Location"] == f"/r/{done.link.key}/entries/"
    page = client.get(f"/r/{done.link.key}/entries/").content.decode()
    assert "Take back my withdrawal" in page
    back = client.post(f"/r/{done.link.key}/entries/{done.entry.pk}/undo/")
    assert back.status_code == 302
    assert Entry.objects.get(pk=done.entry.pk).status == Entry.Status.REGISTERED


def test_the_link_says_what_each_state_is(client, events):
    main, side = events
    Event.objects.filter(pk=side.pk).update(signup=Event.Signup.APPROVAL)
    done = entry_signup(event=main, name="Anna", email="anna@example.org")
    entry_signup(event=side, name="Anna", email="anna@example.org")
    page = client.get(f"/r/{done.link.key}/").content.decode()
    assert "Thank you for playing" not in page
    assert "Main is not drawn yet" in page
    assert "Your sign-up for Side awaits the director&#x27;s approval" in page


def test_after_a_swiss_loss_the_link_says_the_next_round_waits_for_the_director(client):
    t = TournamentFactory(slug="swiss")
    swiss = event_create(tournament=t, name="Swiss", match_lengths=[1], format=Event.Format.SWISS)
    anna = PlayerFactory(name="Anna")
    mine = entry_register(event=swiss, player=anna)
    for _ in range(3):
        entry_register(event=swiss, player=PlayerFactory())
    draw_make(event=swiss, seed=1)
    round_start(round_=swiss.rounds.get(number=1))
    for match in playable(swiss):
        play(match, 2 if match.entry1_id == mine.pk else 1)  # Anna loses
    key = anna.links.get().key
    page = client.get(f"/r/{key}/").content.decode()
    assert "Your next round in Swiss is paired when the director starts it" in page
    assert "being placed" not in page
    assert "Thank you for playing" not in page
