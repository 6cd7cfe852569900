"""One spec check for an event's settings: creation and a later change refuse the same
values with the same code, creation naming the fields as ``event_create`` takes them."""

from __future__ import annotations

from typing import Any

import pytest

from matches.errors import Invalid
from tests.factories import TournamentFactory
from tournament.models import Event
from tournament.services.event_settings import event_update
from tournament.services.events import event_create

pytestmark = pytest.mark.django_db

# (values, code, field at creation, field in a change)
BAD: list[tuple[dict[str, Any], str, str, str]] = [
    ({"name": "  "}, "invalid", "name", "name"),
    ({"format": "ladder"}, "invalid", "format", "format"),
    ({"match_lengths": [7, 0]}, "invalid", "match_lengths", "match_lengths"),
    ({"crawford": False, "holland": True}, "holland-needs-crawford", "holland", "holland"),
    ({"rounds": 3}, "invalid", "rounds", "rounds_planned"),  # not a Swiss event
    ({"format": "swiss", "rounds": 51}, "invalid", "rounds", "rounds_planned"),
    ({"feed_rounds": [1]}, "bad-feed", "feeds", "feeds_from"),
    ({"kind": "consolation"}, "bad-feed", "feeds", "feeds_from"),
    ({"kind": "ladder"}, "invalid", "kind", "kind"),
    ({"clock": [{"delay_seconds": -1}]}, "invalid", "clock", "clock"),
    ({"tiebreaks": ["luck"]}, "invalid", "tiebreaks", "tiebreaks"),
    ({"payout_split": [80, 30]}, "invalid", "payout_split", "payout_split"),
    ({"deadline_rule": "never"}, "invalid", "deadline_rule", "deadline_rule"),
    ({"start_matches": "later"}, "invalid", "start_matches", "start_matches"),
]


@pytest.mark.parametrize(("given", "code", "created", "changed"), BAD)
def test_creation_and_a_change_refuse_the_same_settings(
    given: dict[str, Any], code: str, created: str, changed: str
) -> None:
    tournament = TournamentFactory()
    values = {"name": "Main", **given}
    with pytest.raises(Invalid) as at_creation:
        event_create(tournament=tournament, **values)
    assert (at_creation.value.code, at_creation.value.detail.get("field")) == (code, created)
    event = event_create(tournament=tournament, name="Side", format=Event.Format.ROUND_ROBIN)
    with pytest.raises(Invalid) as in_a_change:
        event_update(event=event, **values)
    assert (in_a_change.value.code, in_a_change.value.detail.get("field")) == (code, changed)
    assert in_a_change.value.message == at_creation.value.message
    assert tournament.events.count() == 1
