"""The console's side of one person, one player: bulk Approve, the namesake note that
leads to the merge (not to a withdrawal of the mailed link), and the merge with its
confirmation step."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.models import Entry, Event, Player, PlayerMerge
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.signup import entry_signup
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    director = UserFactory(username="td")
    t = tournament_create(name="Open", slug="open", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.APPROVAL)
    event.refresh_from_db()
    client.force_login(director)
    return event


def test_bulk_approve_takes_the_ticked_sign_ups(client, setup):
    signed = [entry_signup(event=setup, name=f"P{n}", email=f"p{n}@ex.org") for n in range(3)]
    page = client.get("/director/t/open/events/main/").content.decode()
    assert '<option value="approve">Approve (3 awaiting approval)</option>' in page
    ticked = [signed[0].entry.pk, signed[2].entry.pk]
    answer = client.post(
        "/director/t/open/events/main/entries/bulk/",
        {"action": "approve", "entries": ticked},
        follow=True,
    )
    assert "2 sign-ups approved" in answer.content.decode()
    assert [Entry.objects.get(pk=s.entry.pk).status for s in signed] == [
        "registered",
        "pending",
        "registered",
    ]


def test_the_namesake_note_leads_to_the_merge_not_to_a_withdrawal(client, setup):
    past = TournamentFactory()
    known = PlayerFactory(name="Anna Berg", email="anna@old.org")
    entry_register(event=event_create(tournament=past, name="Old", match_lengths=[1]), player=known)
    signed = entry_signup(event=setup, name="Anna Berg", email="anna@new.org")
    page = client.get("/director/t/open/events/main/").content.decode()
    assert "withdraw this sign-up" not in page
    merge = (
        f"/director/t/open/players/{signed.entry.player_id}/merge/?other={known.pk}&amp;keep=other"
    )
    assert merge in page
    confirm = client.get(merge.replace("&amp;", "&")).content.decode()
    assert "Keep <strong>Anna Berg (record " + str(known.pk) in confirm
    assert "Yes, they are one person: merge" in confirm
    assert Player.objects.filter(pk=signed.entry.player_id).exists()  # nothing yet
    done = client.post(
        f"/director/t/open/players/{signed.entry.player_id}/merge/",
        {"other": known.pk, "keep": "other", "confirm": "1"},
    )
    assert done.status_code == 302
    assert not Player.objects.filter(pk=signed.entry.player_id).exists()
    assert Entry.objects.get(pk=signed.entry.pk).player_id == known.pk
    record = PlayerMerge.objects.get()
    assert record.by.username == "td"
    edit = client.get(done["Location"]).content.decode()
    assert f"Merged into this record: Anna Berg (record {signed.entry.player_id})" in edit


def test_a_refused_merge_says_why_and_changes_nothing(client, setup):
    Event.objects.filter(pk=setup.pk).update(signup=Event.Signup.CLOSED)
    players = [PlayerFactory() for _ in range(4)]
    for p in players:
        entry_register(event=setup, player=p)
    draw_make(event=setup, seed=1)
    url = f"/director/t/open/players/{players[0].pk}/merge/"
    answer = client.post(url, {"other": players[1].pk, "confirm": "1"})
    assert answer.status_code == 400
    assert "both drawn in Main" in answer.content.decode()
    assert Player.objects.filter(pk=players[1].pk).exists()
