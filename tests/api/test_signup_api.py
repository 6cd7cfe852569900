"""Sign-up, the waiting list, fees and final places over the REST API (and its schema)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, UserFactory, token_client
from tests.public.signup_flow import confirm_token
from tests.tournament.conftest import run_to_champion
from tournament.models import Entry, Event
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    from tournament.pages.caching import clear_caches

    clear_caches()  # this run's keys only: a FLUSHDB would reset other workers' counters


def _signup(client, event, data, **kwargs):  # type: ignore[no-untyped-def]
    """Ask over the API (202), then confirm with the mailed token: the sign-up's answer."""
    asked = client.post(f"/api/events/{event.pk}/signup/", data, **kwargs)
    if asked.status_code != 202:
        return asked
    assert asked.json()["status"] == "confirmation-sent"
    return client.post("/api/signup/confirm/", {"token": confirm_token(data["email"])})


@pytest.fixture
def director():
    return UserFactory(username="td")


@pytest.fixture
def event(director):
    t = tournament_create(name="Open", slug="open", director=director)
    event = event_create(
        tournament=t,
        name="Main",
        match_lengths=[3],
        entry_fee=Decimal("10"),
        payout_split=[70, 30],
    )
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN, entry_cap=2)
    event.refresh_from_db()
    return event


def test_anyone_signs_up_and_is_told_their_waiting_place(event, director):
    anon = APIClient()
    url = f"/api/events/{event.pk}/signup/"
    answers = [
        _signup(anon, event, {"name": f"P{n}", "email": f"p{n}@example.org"}, format="json")
        for n in range(3)
    ]
    assert [a.status_code for a in answers] == [201, 201, 201]
    last = answers[2].json()
    assert (last["status"], last["waiting_position"]) == ("waiting", 1)
    assert last["link"].endswith(f"/r/{last['link_key']}/")
    listed = anon.get(f"/api/events/{event.pk}/entries/").json()
    assert [e["waiting_position"] for e in listed if e["status"] == "waiting"] == [1]
    assert {e["paid"] for e in listed} == {None}  # fees are the directors' business
    api = token_client(director)
    listed = api.get(f"/api/events/{event.pk}/entries/").json()
    assert {e["paid"] for e in listed} == {""}
    bad = anon.post(url, {"name": "", "email": "nope"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid"


def test_signups_are_limited_per_address(event, settings):
    settings.SIGNUP_RATE = "2/h"
    anon = APIClient()
    url = f"/api/events/{event.pk}/signup/"
    for n in range(2):
        _signup(anon, event, {"name": f"P{n}", "email": f"p{n}@example.org"}, format="json")
    over = anon.post(url, {"name": "P9", "email": "p9@example.org"}, format="json")
    assert over.status_code == 429
    assert "Retry-After" in over


def test_directors_mark_paid_check_in_approve_and_read_the_final_places(event, director):
    api = token_client(director)
    Event.objects.filter(pk=event.pk).update(entry_cap=None, signup=Event.Signup.APPROVAL)
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(4)]
    ids = [e.pk for e in entries]
    paid = api.post(f"/api/events/{event.pk}/entries/paid/", {"entries": ids, "paid": "transfer"})
    assert paid.json() == {"changed": 4}
    bad = api.post(f"/api/events/{event.pk}/entries/paid/", {"entries": ids, "paid": "cheque"})
    assert bad.status_code == 400
    checked = api.post(f"/api/events/{event.pk}/entries/check-in/", {"entries": ids[:3]})
    assert checked.json() == {"changed": 3}
    pending = _signup(APIClient(), event, {"name": "Late", "email": "l@example.org"})
    assert pending.json()["status"] == "pending"
    approved = api.post(f"/api/entries/{pending.json()['entry']}/approve/")
    assert approved.json()["status"] == "registered"
    assert APIClient().post(f"/api/entries/{pending.json()['entry']}/approve/").status_code == 401
    Entry.objects.filter(pk=pending.json()["entry"]).update(status=Entry.Status.WITHDRAWN)

    assert api.get(f"/api/events/{event.pk}/places/").json()["code"] == "event-unfinished"
    draw_make(event=event, method="random", seed=4)
    run_to_champion([event])
    event.refresh_from_db()
    sheet = APIClient().get(f"/api/events/{event.pk}/places/").json()
    # The three checked in were drawn: the fourth, paid but absent, is not placed.
    assert [r["place"]["text"] for r in sheet["places"]] == ["1st", "2nd", "3rd"]
    assert sheet["places"][0]["entry"] == event.champion_id
    assert (sheet["pool"], sheet["paid_out"], sheet["remainder"]) == ("30.00", "30.00", "0.00")
    assert [r["prize"] for r in sheet["places"]] == ["21.00", "9.00", None]
    detail = APIClient().get(f"/api/events/{event.pk}/").json()
    assert detail["final"] == sheet


def test_event_settings_take_signup_and_prize_fields(event, director):
    api = token_client(director)
    answer = api.patch(
        f"/api/events/{event.pk}/",
        {"signup": "closed", "entry_cap": 8, "added_money": "25.50", "prize_unit": 5},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["signup"], body["entry_cap"], body["added_money"], body["prize_unit"]) == (
        "closed",
        8,
        "25.50",
        5,
    )
    for bad in ({"prize_unit": 3}, {"entry_cap": 1}, {"signup": "maybe"}, {"added_money": "-1"}):
        refused = api.patch(f"/api/events/{event.pk}/", bad, format="json")
        assert refused.status_code == 400, bad


def test_raising_the_cap_moves_the_waiting_list_up(event, director):
    anon = APIClient()
    for n in range(4):
        _signup(anon, event, {"name": f"P{n}", "email": f"p{n}@example.org"})
    assert event.entries.filter(status="waiting").count() == 2
    token_client(director).patch(f"/api/events/{event.pk}/", {"entry_cap": 3}, format="json")
    assert event.entries.filter(status="waiting").count() == 1


def test_the_schema_documents_the_new_endpoints_and_fields() -> None:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    for path in [
        "/api/events/{id}/signup/",
        "/api/signup/confirm/",
        "/api/events/{id}/entries/paid/",
        "/api/events/{id}/entries/check-in/",
        "/api/events/{id}/places/",
        "/api/entries/{id}/approve/",
    ]:
        assert path in schema["paths"], path
    entry = schema["components"]["schemas"]["Entry"]["properties"]
    assert {"paid", "waiting_position", "signed_up"} <= set(entry)
    detail = schema["components"]["schemas"]["EventDetail"]["properties"]
    assert {"final", "signup", "entry_cap", "prize_unit", "added_money"} <= set(detail)
