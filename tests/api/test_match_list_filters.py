"""``GET /api/matches/?event=&round=&status=&player=``: filters parsed by a serializer and
applied by ``selectors.match_list`` (no django-filter backend), bad values a field-level 400."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.matches.test_api import make_bracket

pytestmark = pytest.mark.django_db


def test_the_match_list_filters_and_refuses_bad_values_field_by_field() -> None:
    bracket = make_bracket()
    client = APIClient()
    first = bracket.first
    url = "/api/matches/"
    every = client.get(url, {"event": bracket.event.pk}).json()["results"]
    assert len(every) == 3
    round_one = client.get(url, {"event": bracket.event.pk, "round": 1}).json()["results"]
    assert {m["id"] for m in round_one} == {bracket.first.pk, bracket.second.pk}
    player = first.entry1.player_id
    mine = client.get(url, {"event": bracket.event.pk, "player": player}).json()["results"]
    assert [m["id"] for m in mine] == [first.pk]
    ready = client.get(url, {"event": bracket.event.pk, "status": Match.Status.READY}).json()
    assert {m["id"] for m in ready["results"]} == {bracket.first.pk, bracket.second.pk}
    for field, value in (("event", "abc"), ("round", 0), ("status", "bogus"), ("player", 0)):
        answer = client.get(url, {field: value})
        assert answer.status_code == 400, (field, answer.content)
        assert set(answer.json()) == {"code", "message", "detail"}
        assert list(answer.json()["detail"]) == [field]
