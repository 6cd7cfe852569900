"""The public sign-up form, its answer, and the player's entries on their link."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from tests.factories import PlayerFactory, TournamentFactory
from tests.public.signup_flow import confirm_token, signup_and_confirm
from tournament.models import Entry, Event, Player
from tournament.services.events import event_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    from tournament.pages.caching import clear_caches

    clear_caches()  # this run's keys only: a FLUSHDB would reset other workers' counters


@pytest.fixture
def event():
    t = TournamentFactory(slug="spring")
    event = event_create(tournament=t, name="Main", match_lengths=[5])
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN, entry_cap=1)
    event.refresh_from_db()
    return event


URL = "/t/spring/main/signup/"


def _post(client, n, **extra):
    """Sign up, then confirm from the mail (the address' owner)."""
    data = {"name": f"Signer {n}", "email": f"s{n}@example.org", "club": "", "country": ""}
    return signup_and_confirm(client, URL, {**data, **extra})


def test_the_tournament_page_links_to_an_open_signup(client, event):
    page = client.get("/t/spring/").content.decode()
    assert 'href="/t/spring/main/signup/"' in page
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.CLOSED)
    from tournament import page_cache

    page_cache.invalidate_event(event.pk, event.tournament_id)
    assert "/signup/" not in client.get("/t/spring/").content.decode()


def test_signing_up_shows_the_link_at_once_then_the_waiting_list_place(
    client, event, django_capture_on_commit_callbacks, eager_tasks
):
    assert client.get(URL).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        first = _post(client, 1, country="de")
    assert first.status_code == 200
    body = first.content.decode()
    key = Player.objects.get(email="s1@example.org").links.get().key
    assert f"/r/{key}/" in body
    assert "You are entered" in body
    with django_capture_on_commit_callbacks(execute=True):
        second = _post(client, 2)
    assert "number 1</strong> on its waiting list" in second.content.decode()
    assert "Join the waiting list" in client.get(URL).content.decode()
    assert {m.to[0] for m in mail.outbox} == {"s1@example.org", "s2@example.org"}


def test_the_entered_player_withdraws_from_the_link_and_the_waiting_one_moves_up(
    client, event, django_capture_on_commit_callbacks, eager_tasks
):
    _post(client, 1)
    _post(client, 2)
    key = Player.objects.get(email="s1@example.org").links.get().key
    page = client.get(f"/r/{key}/entries/").content.decode()
    assert "Withdraw from Main" in page
    entry = Entry.objects.get(player__email="s1@example.org")
    mail.outbox.clear()
    asked = client.post(f"/r/{key}/entries/{entry.pk}/withdraw/")  # no confirm: it asks
    assert "Yes, withdraw me from Main" in asked.content.decode()
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/r/{key}/entries/{entry.pk}/withdraw/", {"confirm": "1"})
    assert answer.status_code == 302
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.WITHDRAWN
    assert Entry.objects.get(player__email="s2@example.org").status == Entry.Status.REGISTERED
    assert [m.to for m in mail.outbox] == [["s2@example.org"]]
    # Someone else's entry through this link: 404.
    other = Entry.objects.get(player__email="s2@example.org")
    assert client.post(f"/r/{key}/entries/{other.pk}/withdraw/").status_code == 404


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": "", "email": "a@example.org"}, "name", "This field is required"),
        ({"name": "Ann", "email": "nope"}, "email", "valid email"),
        ({"name": "Ann", "email": "a@example.org", "country": "ZZZ"}, "country", "at most 2"),
        ({"name": "Ann", "email": "a@example.org", "country": "1!"}, "country", "two-letter"),
        ({"name": "A\u202eB", "email": "a@example.org"}, "name", "A name"),
        ({"name": "x" * 500, "email": "a@example.org"}, "name", "at most 120"),
        ({"name": "Ann\x00", "email": "a@example.org"}, "name", ""),
    ],
)
def test_bad_input_is_a_400_with_the_message_at_its_field(client, event, data, field, message):
    answer = client.post(URL, data)
    assert answer.status_code == 400
    text = answer.content.decode()
    assert 'class="field-error"' in text
    assert message in text
    assert not event.entries.exists()


def test_the_same_email_twice_is_answered_as_new_and_its_owner_told_by_mail(
    client, event, django_capture_on_commit_callbacks, eager_tasks
):
    _post(client, 1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(URL, {"name": "Other", "email": "S1@example.org"})
        new = client.post(URL, {"name": "Other", "email": "s7@example.org"})
    assert again.status_code == new.status_code == 200
    assert again.content.decode().replace("S1@", "s7@") == new.content.decode()
    told = next(m for m in mail.outbox if m.to == ["S1@example.org"])
    assert "already signed up" in told.body
    key = Player.objects.get(email="s1@example.org").links.get().key
    assert f"/r/{key}/" in told.body


def test_a_bot_filling_the_honeypot_enters_nobody(client, event):
    answer = _post(client, 1, website="http://spam.example")
    assert answer.status_code == 400
    assert not event.entries.exists()


def test_signups_are_limited_per_address(client, event, settings):
    settings.SIGNUP_RATE = "3/h"
    for n in range(3):
        assert _post(client, n).status_code == 200  # each confirmed: counted once
    over = _post(client, 9)
    assert over.status_code == 429
    assert int(over["Retry-After"]) > 0
    assert not Player.objects.filter(email="s9@example.org").exists()


def test_the_form_needs_its_csrf_token(event):
    strict = Client(enforce_csrf_checks=True)
    assert _post(strict, 1).status_code == 403
    page = strict.get(URL).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    asked = strict.post(
        URL, {"name": "Signer 1", "email": "s1@example.org", "csrfmiddlewaretoken": token}
    )
    assert asked.status_code == 200
    page = strict.get(f"/signup/confirm/{confirm_token('s1@example.org')}/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert strict.post(f"/signup/confirm/{confirm_token('s1@example.org')}/").status_code == 403


def test_closed_signup_takes_nobody(client, event):
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.CLOSED)
    page = client.get(URL)
    assert "ask the director" in page.content.decode()
    assert _post(client, 1).status_code == 400
    assert not event.entries.exists()


def test_an_existing_players_email_enters_them_and_shows_nothing_of_them(client, event):
    known = PlayerFactory(name="Known Player", email="known@example.org")
    done = signup_and_confirm(client, URL, {"name": "Impostor", "email": "known@example.org"})
    body = done.content.decode()
    assert "Check your email" in body
    known.refresh_from_db()
    link = known.links.get()
    assert link.key not in body
    assert "Known Player" not in body
    assert known.name == "Known Player"
    assert event.entries.get().player_id == known.pk


def test_unknown_events_and_hidden_tournaments_are_404(client, event):
    assert client.get("/t/spring/nope/signup/").status_code == 404
    hidden = TournamentFactory(slug="hidden", is_public=False)
    event_create(tournament=hidden, name="Main", match_lengths=[5])
    assert client.get("/t/hidden/main/signup/").status_code == 404
