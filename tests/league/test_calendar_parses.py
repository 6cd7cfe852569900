"""A player's match calendar read back with icalendar: one event per timed match."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from icalendar import Calendar

from matches.models import Match
from tests.factories import EntryFactory, EventFactory, MatchFactory, PlayerFactory, RoundFactory

pytestmark = pytest.mark.django_db


def test_the_calendar_parses_and_holds_each_timed_round(client: Client) -> None:
    player = PlayerFactory(name="Ann, the; Champion")
    event = EventFactory(name="Online League")
    start = dt.datetime(2030, 3, 4, 8, 0, tzinfo=dt.UTC)
    deadline = dt.datetime(2030, 3, 10, 19, 0, tzinfo=dt.UTC)
    entry = EntryFactory(event=event, player=player)
    first = MatchFactory(
        round=RoundFactory(event=event, number=1, starts_at=start, deadline=deadline),
        entry1=entry,
        entry2__player__name="Bob",
    )
    second = MatchFactory(
        round=RoundFactory(event=event, number=2, deadline=deadline + dt.timedelta(days=7)),
        entry2=EntryFactory(event=event, player=PlayerFactory(name="Cleo")),
        entry1=entry,
        status=Match.Status.COMPLETE,
        winner=None,
    )
    MatchFactory(round=RoundFactory(event=event, number=3))  # no time: not in the feed

    body = client.get(f"/players/{player.pk}/matches.ics").content
    calendar = Calendar.from_ical(body)
    assert str(calendar["version"]) == "2.0"
    events = {str(e["uid"]).split("@")[0]: e for e in calendar.walk("VEVENT")}
    assert set(events) == {f"match-{first.pk}", f"match-{second.pk}"}
    one, two = events[f"match-{first.pk}"], events[f"match-{second.pk}"]
    assert one.decoded("dtstart") == start
    assert one.decoded("dtend") == deadline
    assert str(one["summary"]).startswith("Backgammon: Ann, the; Champion v Bob (")
    assert "Online League" in str(one["description"])
    assert str(one["url"]).endswith(f"/matches/{first.pk}/")
    assert two.decoded("dtstart") == deadline + dt.timedelta(days=7)
    assert "dtend" not in two
    assert str(two["summary"]).endswith(" - lost")
