"""Sign-up, the waiting list, approval, paid flags and checking in many at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from matches.errors import Invalid
from tests.factories import PlayerFactory
from tournament.models import Entry, Event, Player
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.payments import entries_check_in, entries_mark_paid, unpaid_count
from tournament.services.signup import (
    entry_approve,
    entry_signup,
    signup_namesakes,
)
from tournament.services.waiting_list import waiting_position
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(tournament):
    event = event_create(tournament=tournament, name="Main", match_lengths=[5])
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN, entry_cap=2)
    event.refresh_from_db()
    return event


def _sign(event, n, **kw):
    return entry_signup(event=event, name=f"Signer {n}", email=f"s{n}@example.org", **kw)


def test_past_the_cap_players_wait_in_order_and_the_first_moves_up_on_a_withdrawal(
    event, django_capture_on_commit_callbacks, eager_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        first, second, third, fourth = (_sign(event, n) for n in range(4))
    assert [s.entry.status for s in (first, second, third, fourth)] == [
        "registered",
        "registered",
        "waiting",
        "waiting",
    ]
    assert (third.position, fourth.position) == (1, 2)
    assert first.link.player_id == first.entry.player_id
    told = {m.to[0]: m for m in mail.outbox}
    assert "number 2 on its waiting list" in told["s3@example.org"].body
    assert f"/r/{fourth.link.key}/" in told["s3@example.org"].body
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        entry_withdraw(entry=second.entry)
    third.entry.refresh_from_db()
    fourth.entry.refresh_from_db()
    assert third.entry.status == Entry.Status.REGISTERED
    assert waiting_position(fourth.entry) == 1
    assert [m.to for m in mail.outbox] == [["s2@example.org"]]
    assert "moved up" in mail.outbox[0].body


def test_a_waiting_player_withdraws_without_moving_anyone(event):
    _sign(event, 0)
    _sign(event, 1)
    waiting = _sign(event, 2).entry
    last = _sign(event, 3).entry
    entry_withdraw(entry=waiting)
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.WITHDRAWN
    assert waiting_position(Entry.objects.get(pk=last.pk)) == 1


def test_a_signup_never_changes_an_existing_player_with_that_email(event):
    """The returning player is entered (one person, one record), but what was typed
    (name, club, country) changes nothing of theirs, and nothing of them is answered."""
    known = PlayerFactory(name="Ann Known", email="ann@example.org", club="Old Club")
    signed = entry_signup(
        event=event, name="Somebody Else", email="ANN@example.org", club="X", country="fr"
    )
    known.refresh_from_db()
    assert (known.name, known.email, known.club, known.country) == (
        "Ann Known",
        "ann@example.org",
        "Old Club",
        "",
    )
    assert signed.entry.player_id == known.pk
    assert signed.known
    assert signup_namesakes([signed.entry]) == {}


def test_the_same_email_cannot_sign_up_twice_for_an_event(event):
    _sign(event, 0)
    with pytest.raises(Invalid) as caught:
        entry_signup(event=event, name="Again", email="S0@example.org")
    assert caught.value.code == "already-signed-up"
    assert caught.value.detail["field"] == "email"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"signup": Event.Signup.CLOSED}, "signup-closed"),
        ({"signup_deadline": dt.datetime(2020, 1, 1, tzinfo=dt.UTC)}, "signup-closed"),
    ],
)
def test_closed_or_late_signups_are_refused(event, change, code):
    Event.objects.filter(pk=event.pk).update(**change)
    with pytest.raises(Invalid) as caught:
        _sign(event, 0)
    assert caught.value.code == code
    assert not Player.objects.filter(email="s0@example.org").exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "", "email": "a@example.org"}, "name"),
        ({"name": "Ann", "email": "not an email"}, "email"),
        ({"name": "Ann", "email": ""}, "email"),
        ({"name": "Ann\u202e", "email": "a@example.org"}, "name"),
        ({"name": "Ann", "email": "a@example.org", "country": "France"}, "country"),
    ],
)
def test_bad_fields_are_refused_by_name(event, fields, field):
    with pytest.raises(Invalid) as caught:
        entry_signup(event=event, **fields)
    assert caught.value.detail["field"] == field
    assert not event.entries.exists()


def test_signups_after_the_draw_are_refused(event, tournament):
    for _ in range(2):
        entry_register(event=event, player=PlayerFactory())
    draw_make(event=event, method="random", seed=1)
    with pytest.raises(Invalid) as caught:
        _sign(event, 9)
    assert caught.value.code == "signup-closed"


def test_approval_holds_signups_until_the_director_takes_them(event):
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.APPROVAL, entry_cap=1)
    a, b = _sign(event, 0).entry, _sign(event, 1).entry
    assert {a.status, b.status} == {Entry.Status.PENDING}
    assert entry_approve(entry=a).status == Entry.Status.REGISTERED
    assert entry_approve(entry=b).status == Entry.Status.WAITING
    with pytest.raises(Invalid):
        entry_approve(entry=a)


def test_waiting_and_pending_entries_are_not_drawn(event):
    entries = [_sign(event, n).entry for n in range(3)]  # the third waits
    draw_make(event=event, method="random", seed=3)
    drawn = {e for m in event.matches.all() for e in (m.entry1_id, m.entry2_id)}
    assert entries[2].pk not in drawn
    assert {entries[0].pk, entries[1].pk} <= drawn


def test_paid_in_bulk_counts_unpaid_and_checks_in_the_present(event):
    Event.objects.filter(pk=event.pk).update(entry_fee=20, entry_cap=None)
    event.refresh_from_db()
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(4)]
    assert unpaid_count(event) == 4
    changed = entries_mark_paid(
        event=event, entry_ids=[entries[0].pk, entries[1].pk], method="cash"
    )
    assert changed == 2
    entries_mark_paid(event=event, entry_ids=[entries[2].pk], method="waived")
    assert unpaid_count(event) == 1
    assert entries_check_in(event=event, entry_ids=[e.pk for e in entries[:3]]) == 3
    assert sorted(event.entries.values_list("status", flat=True)) == [
        "checked-in",
        "checked-in",
        "checked-in",
        "registered",
    ]
    with pytest.raises(Invalid) as caught:
        entries_mark_paid(event=event, entry_ids=[entries[0].pk], method="cheque")
    assert caught.value.detail["field"] == "paid"
    with pytest.raises(Invalid):
        entries_mark_paid(event=event, entry_ids=[], method="cash")


def test_the_deadline_is_compared_with_now(event):
    Event.objects.filter(pk=event.pk).update(signup_deadline=timezone.now() + dt.timedelta(hours=1))
    event.refresh_from_db()
    assert _sign(event, 0).entry.status == Entry.Status.REGISTERED


def test_a_sign_up_with_another_players_email_enters_them_and_mails_only_them(
    event, django_capture_on_commit_callbacks, eager_tasks
):
    """The owner of the address is entered with their one link, which goes to their
    address only; their own email, name and links elsewhere stay as they were."""
    from tournament.pages.caching import clear_caches

    clear_caches()  # notices are sent once per entry id, and ids are reused between tests
    owner = PlayerFactory(name="Sue Owner", email="sue@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        done = entry_signup(event=event, name="Mallory", email="SUE@example.org")
    owner.refresh_from_db()
    assert (owner.name, owner.email) == ("Sue Owner", "sue@example.org")
    assert done.entry.player_id == owner.pk
    assert done.known
    assert done.link.email == ""  # their own email is this tournament's address too
    [notice] = mail.outbox
    assert notice.to == ["sue@example.org"]
    assert f"/r/{done.link.key}/" in notice.body
    assert "Hello Sue Owner" in notice.body
    with pytest.raises(Invalid) as again:
        entry_signup(event=event, name="Mallory", email="sue@example.org")
    assert again.value.code == "already-signed-up"


@pytest.mark.parametrize(
    ("known_language", "page", "expected"),
    [
        ("ja", "", "ja"),  # a known player: their language, whatever page was used
        ("ja", "de", "ja"),
        ("", "de", "en"),  # a known player without one: the tournament's, as every mail
        (None, "de", "de"),  # a new address: the page's
        (None, "", "en"),  # ... else the tournament's
    ],
)
def test_sign_up_mails_go_out_in_the_language_of_the_address_owner(
    event, django_capture_on_commit_callbacks, eager_tasks, known_language, page, expected
):
    """The confirmation or "already signed up" mail reaches the address' owner: a player
    we know reads it in their language (else the tournament's), a new address in the
    language of the page it was asked on."""
    from tournament.pages.caching import clear_caches
    from tournament.services.signup import signup_ask

    clear_caches()
    if known_language is not None:
        PlayerFactory(name="Sue Owner", email="sue@example.org", language=known_language)
    with django_capture_on_commit_callbacks(execute=True):
        signup_ask(event=event, name="Sue", email="sue@example.org", language=page)
    [sent] = mail.outbox
    assert sent.to == ["sue@example.org"]
    assert sent.extra_headers["Content-Language"] == expected
