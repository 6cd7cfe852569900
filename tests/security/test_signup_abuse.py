"""The public sign-up cannot be used to mail strangers, nor to learn who is in an event.

The attacks: a sign-up whose name and club say "Hello WIN 500 EUR ..." reached whatever
address was typed, ten an hour per client address; "already signed up" told a stranger
that an email was in the event. Now the form and the API only ask: the address gets a
confirmation mail carrying nothing the submitter typed, at most
``SIGNUP_MAILS_PER_ADDRESS_DAY`` a day; the private link goes only after the owner
confirms; an address already in the event is answered as a new one and its owner is
told by mail."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import TournamentFactory
from tests.public.signup_flow import confirm, confirm_token
from tournament.models import Entry, Event, Player, SignupRequest
from tournament.services.events import event_create

pytestmark = pytest.mark.django_db

SPAM = "Hello WIN 500 EUR at spam.example"
URL = "/t/spring/main/signup/"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


@pytest.fixture
def event():
    t = TournamentFactory(slug="spring", name="Spring Open")
    event = event_create(tournament=t, name="Main", match_lengths=[5])
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN)
    event.refresh_from_db()
    return event


def _from(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def test_the_mail_carries_no_text_of_the_submitter_and_enters_nobody(
    event, django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = _from("198.51.100.7").post(
            URL, {"name": SPAM, "email": "victim@example.org", "club": SPAM, "country": "DE"}
        )
        api = APIClient(REMOTE_ADDR="198.51.100.8").post(
            f"/api/events/{event.pk}/signup/",
            {"name": SPAM, "email": "victim2@example.org", "club": SPAM},
            format="json",
        )
    assert answer.status_code == 200
    assert "Check your mail" in answer.content.decode()
    assert api.status_code == 202
    assert not {"link", "link_key"} & set(api.json())
    assert not Entry.objects.exists()
    assert not Player.objects.exists()
    assert [m.to for m in mail.outbox] == [["victim@example.org"], ["victim2@example.org"]]
    for sent in mail.outbox:
        text = sent.subject + sent.body
        assert not [w for w in ("WIN", "spam.example", "500") if w in text]
        assert "/signup/confirm/" in sent.body
        assert "/r/" not in sent.body  # no private link before the owner confirms
    # a mail scanner opening the link confirms nothing; the owner's button does
    token = confirm_token("victim@example.org")
    assert Client().get(f"/signup/confirm/{token}/").status_code == 200
    assert not Entry.objects.exists()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = confirm(Client(), "victim@example.org")
    assert "You are entered" in done.content.decode()
    assert Entry.objects.get().player.email == "victim@example.org"
    assert [m.to for m in mail.outbox] == [["victim@example.org"]]
    assert "/r/" in mail.outbox[0].body
    again = confirm(Client(), "victim@example.org")  # the link pressed twice: the same entry
    assert again.status_code == 200
    assert Entry.objects.count() == 1


def test_one_address_gets_at_most_its_daily_mails_from_any_number_of_clients(
    event, settings, django_capture_on_commit_callbacks, eager_tasks
):
    settings.SIGNUP_MAILS_PER_ADDRESS_DAY = 3
    answers = []
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(12):
            answers.append(
                _from(f"203.0.113.{n}").post(URL, {"name": f"N{n}", "email": "Target@example.org"})
            )
        api = APIClient(REMOTE_ADDR="203.0.113.99").post(
            f"/api/events/{event.pk}/signup/",
            {"name": "N", "email": "target@EXAMPLE.org"},
            format="json",
        )
    assert [a.status_code for a in answers] == [200] * 3 + [429] * 9
    assert "3 sign-up mails for today" in answers[3].content.decode()
    assert (api.status_code, api.json()["code"]) == (429, "too-many-mails")
    assert len(mail.outbox) == 3
    assert SignupRequest.objects.count() == 3


def test_an_address_in_the_event_is_answered_as_a_new_one_and_its_owner_told(
    event, django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        _from("192.0.2.1").post(URL, {"name": "Ann Owner", "email": "ann@example.org"})
        confirm(Client(), "ann@example.org")
    key = Player.objects.get(email="ann@example.org").links.get().key
    mail.outbox.clear()
    stranger = _from("192.0.2.66")
    with django_capture_on_commit_callbacks(execute=True):
        known = stranger.post(URL, {"name": "Probe", "email": "ANN@example.org"})
        unknown = stranger.post(URL, {"name": "Probe", "email": "bob@example.org"})
        api_known = APIClient().post(
            f"/api/events/{event.pk}/signup/", {"name": "P", "email": "ann@example.org"}
        )
        api_unknown = APIClient().post(
            f"/api/events/{event.pk}/signup/", {"name": "P", "email": "bob@example.org"}
        )
    assert known.status_code == unknown.status_code == 200
    assert known.content.decode().replace("ANN@", "bob@") == unknown.content.decode()
    assert api_known.status_code == api_unknown.status_code == 202
    assert api_known.json()["message"].replace("ann@", "bob@") == api_unknown.json()["message"]
    owner_mails = [m for m in mail.outbox if m.to[0].lower() == "ann@example.org"]
    assert len(owner_mails) == 2
    assert all("already signed up" in m.body and f"/r/{key}/" in m.body for m in owner_mails)
    assert all("Probe" not in m.body for m in owner_mails)
    assert Entry.objects.count() == 1
