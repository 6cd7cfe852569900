"""The console's side of sign-up and fees: settings, approval, the waiting list, the
unpaid count, checking in all present and marking paid in one step."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client

from tests.factories import PlayerFactory, UserFactory
from tournament.models import Entry, Event
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.signup import entry_signup
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

PAGE = "/director/t/open/events/main/"


@pytest.fixture
def setup(client: Client):
    director = UserFactory(username="td")
    t = tournament_create(name="Open", slug="open", director=director)
    t.time_zone = "Europe/Berlin"
    t.save()
    event = event_create(
        tournament=t, name="Main", match_lengths=[3], slug="main", entry_fee=Decimal("20")
    )
    client.force_login(director)
    return event


def _settings(event, **changes):
    data = {
        "name": event.name,
        "slug": event.slug,
        "kind": event.kind,
        "format": event.format,
        "match_lengths": "3",
        "crawford": "on",
        "entry_fee": "20",
        "payout_split": "60, 40",
        "tiebreaks": ["wins"],
        "start_matches": "auto",
        "deadline_rule": "flag",
        "signup": "open",
        "signup_deadline": "",
        "entry_cap": "",
        "added_money": "",
        "prize_unit": "1",
    }
    data.update(changes)
    return data


def test_the_director_opens_signup_with_a_cap_deadline_and_prize_rounding(client, setup):
    event = setup
    url = f"{PAGE}settings/"
    answer = client.post(
        url,
        _settings(
            event,
            signup="approval",
            entry_cap="16",
            signup_deadline="2030-05-01T18:00",
            added_money="100",
            prize_unit="5",
        ),
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    event.refresh_from_db()
    assert event.signup == Event.Signup.APPROVAL
    assert event.entry_cap == 16
    assert (event.added_money, event.prize_unit) == (Decimal("100"), 5)
    assert event.signup_deadline == dt.datetime(2030, 5, 1, 16, 0, tzinfo=dt.UTC)  # Berlin, CEST
    form = client.get(url).content.decode()
    assert 'value="2030-05-01T18:00"' in form  # shown back on the tournament's clock
    bad = client.post(url, _settings(event, entry_cap="1", prize_unit="3"))
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "greater than or equal to 2" in text
    assert "Select a valid choice" in text


def test_pending_signups_are_approved_into_the_field_or_the_waiting_list(client, setup):
    event = setup
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.APPROVAL, entry_cap=2)
    entry_register(event=event, player=PlayerFactory())
    known = PlayerFactory(name="Bo Known", email="bo@example.org")
    a = entry_signup(event=event, name="Al Signer", email="al@example.org").entry
    b = entry_signup(event=event, name="Bo Known", email="bo2@example.org").entry
    page = client.get(PAGE).content.decode()
    assert page.count(">Approve</button>") == 2
    assert "Bo Known</a> (not in this event" in page  # the namesake is pointed out
    assert f"No. {known.pk}" not in page  # by the table's numbers, never a player id
    client.post(f"{PAGE}entries/{a.pk}/approve/")
    client.post(f"{PAGE}entries/{b.pk}/approve/")
    assert Entry.objects.get(pk=a.pk).status == Entry.Status.REGISTERED
    assert Entry.objects.get(pk=b.pk).status == Entry.Status.WAITING
    assert "Waiting list #1" in client.get(PAGE).content.decode()


def test_unpaid_entries_are_counted_then_marked_paid_and_checked_in_in_one_step(client, setup):
    event = setup
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(5)]
    page = client.get(PAGE).content.decode()
    assert "5 unpaid" in page
    assert "5 entries have not paid" in page  # beside the draw
    present = [str(e.pk) for e in entries[:4]]
    answer = client.post(f"{PAGE}entries/bulk/", {"action": "paid-cash", "entries": present})
    assert answer.status_code == 302
    client.post(f"{PAGE}entries/bulk/", {"action": "check-in", "entries": present})
    page = client.get(PAGE).content.decode()
    assert "1 unpaid" in page
    assert "1 entry has not paid" in page
    statuses = dict(Entry.objects.filter(event=event).values_list("pk", "status"))
    assert [statuses[e.pk] for e in entries] == ["checked-in"] * 4 + ["registered"]
    assert Entry.objects.filter(event=event, paid="cash").count() == 4
    client.post(f"{PAGE}entries/bulk/", {"action": "unpaid", "entries": present[:1]})
    assert "2 unpaid" in client.get(PAGE).content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "paid-cheque", "entries": ["1"]},
        {"action": "check-in"},
        {"action": "paid-cash", "entries": ["x", "99999999999999999999"]},
        {},
    ],
)
def test_bad_bulk_posts_change_nothing_and_say_why(client, setup, data):
    entry = entry_register(event=setup, player=PlayerFactory())
    answer = client.post(f"{PAGE}entries/bulk/", data, follow=True)
    assert answer.status_code == 200
    assert 'class="error"' in answer.content.decode()
    entry.refresh_from_db()
    assert (entry.paid, entry.status) == ("", "registered")


def test_another_tournaments_entry_is_not_marked(client, setup):
    other = tournament_create(name="Other", slug="other", director=UserFactory())
    other_event = event_create(tournament=other, name="Main", match_lengths=[3])
    stranger = entry_register(event=other_event, player=PlayerFactory())
    client.post(f"{PAGE}entries/bulk/", {"action": "paid-cash", "entries": [str(stranger.pk)]})
    stranger.refresh_from_db()
    assert stranger.paid == ""


def test_side_pools_are_added_given_players_and_removed(client, setup):
    event = setup
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(3)]
    bad = client.post(
        f"{PAGE}side-pools/", {"pool-name": "", "pool-stake": "-1", "pool-payout_split": "x"}
    )
    assert bad.status_code == 302
    assert not event.side_pools.exists()
    client.post(
        f"{PAGE}side-pools/",
        {"pool-name": "Calcutta", "pool-stake": "5", "pool-payout_split": "100"},
    )
    pool = event.side_pools.get()
    again = client.post(
        f"{PAGE}side-pools/",
        {"pool-name": "Calcutta", "pool-stake": "5", "pool-payout_split": "100"},
        follow=True,
    )
    assert "already has a side pool Calcutta" in again.content.decode()
    url = f"{PAGE}side-pools/{pool.pk}/"
    client.post(url, {"entries": [str(entries[0].pk), str(entries[2].pk)]})
    assert set(pool.entries.values_list("pk", flat=True)) == {entries[0].pk, entries[2].pk}
    page = client.get(PAGE).content.decode()
    assert page.count('name="entries" value=') >= 3
    assert client.post(f"{PAGE}side-pools/99999999999/").status_code == 404
    client.post(url, {"remove": "1"})
    assert not event.side_pools.exists()


def test_the_fee_is_marked_paid_with_the_check_in(client, setup):
    entry = entry_register(event=setup, player=PlayerFactory())
    page = client.get(PAGE).content.decode()
    assert "pays by" in page
    client.post(f"{PAGE}entries/{entry.pk}/check-in/", {"checked_in": "1", "paid": "online"})
    entry.refresh_from_db()
    assert (entry.status, entry.paid) == ("checked-in", "online")
    other = entry_register(event=setup, player=PlayerFactory())
    client.post(f"{PAGE}entries/{other.pk}/check-in/", {"checked_in": "1", "paid": "bitcoin"})
    other.refresh_from_db()
    assert (other.status, other.paid) == ("checked-in", "")
