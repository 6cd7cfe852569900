"""An elimination Swiss ended with a player entered after its last round was paired: the
final sheet and the standings place the field, the players who played (the late entry
never sat down)."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory
from tournament.models import Event
from tournament.selectors import standings
from tournament.selectors.final_places import event_final
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import event_end, event_next_round

from .conftest import play, playable

pytestmark = pytest.mark.django_db


def test_a_late_entry_unseated_at_the_end_holds_no_place(tournament, enter):
    event = event_create(tournament=tournament, name="E", format="swiss-elimination")
    field = enter(event, 8)
    draw_make(event=event, method="rating")
    event_next_round(event=event)
    for match in playable(event):
        play(match, 1)
    late = entry_register(event=event, player=PlayerFactory(name="Late Comer"))
    event_end(event=event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    sheet = event_final(event)  # a KeyError (a 500 on the pages) before the fix

    assert sheet is not None
    assert {row.entry.pk for row in sheet.rows} == {e.pk for e in field}
    assert late.pk not in {row.entry.pk for row in sheet.rows}
    # The four winners share 1-4, the four losers 5-8: nobody pushed down by the late entry.
    assert sorted(row.place.best for row in sheet.rows) == [1, 1, 1, 1, 5, 5, 5, 5]
    # The standings rank them alike.
    assert sorted(row.rank for row in standings(event)) == [1, 1, 1, 1, 5, 5, 5, 5]
