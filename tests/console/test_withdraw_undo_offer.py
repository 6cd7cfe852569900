"""The console offers to undo a withdrawal only when the undo can succeed: no "Undo
withdraw" for a player the draw was made without, and no message promising an undo
after a walkover that ended the event (a Consolation's final)."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Match
from tests.console.test_player_links import make_weekend
from tests.factories import UserFactory
from tournament.models import Entry, Event
from tournament.selectors.withdrawals import withdrawal_undo_blocker
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

UNDO = "Undo the withdrawal of"
PROMISE_DE = "Machen Sie es in der Zeile rückgängig"


def test_no_undo_button_for_a_player_the_draw_was_made_without(client: Client) -> None:
    director = UserFactory()
    t = tournament_create(name="Open", slug="undo-open", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    entries = [entry_register(event=event, player=player_create(name=f"P{i}")) for i in range(5)]
    entry_withdraw(entry=entries[0])
    client.force_login(director)
    page = client.get("/director/t/undo-open/events/main/").content.decode()
    assert f"{UNDO} P0" in page  # before the draw the undo gives the place back
    draw_make(event=event, method="rating")
    page = client.get("/director/t/undo-open/events/main/").content.decode()
    assert f"{UNDO} P0" not in page
    entries[0].refresh_from_db()
    assert withdrawal_undo_blocker(entries[0]) == "place-given-away"


def test_a_walkover_that_ends_the_event_promises_no_undo(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    from tests.browser.scenario import decide

    weekend = make_weekend(players=4)
    round_start(round_=weekend.main.rounds.get(number=1))
    with django_capture_on_commit_callbacks(execute=True):
        for seed, match in enumerate(Match.objects.filter(event=weekend.main, round__number=1)):
            decide(match, 1, seed=seed, director=weekend.director)
    final = Match.objects.get(event=weekend.consolation)
    assert final.entry1_id
    assert final.entry2_id
    leaver = Entry.objects.select_related("player").get(pk=final.entry1_id)
    client.force_login(weekend.director)
    url = f"/director/t/links/events/consolation/entries/{leaver.pk}/withdraw/"
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(url, headers={"accept-language": "de"}, follow=True).content.decode()
    weekend.consolation.refresh_from_db()
    assert weekend.consolation.status == Event.Status.FINISHED
    assert f"{leaver.player.name} zurückgezogen." in page
    assert PROMISE_DE not in page
    assert UNDO not in client.get("/director/t/links/events/consolation/").content.decode()
