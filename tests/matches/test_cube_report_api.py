"""A game report whose explicit, empty doubles list contradicts its cube is refused."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.matches.test_api import Bracket, make_bracket

pytestmark = pytest.mark.django_db


@pytest.fixture
def bracket(db: None) -> Bracket:
    return make_bracket()


def test_an_empty_doubles_list_with_a_turned_cube_is_a_400(bracket: Bracket) -> None:
    match = bracket.first
    client = bracket.link_client(match, 1)
    url = f"/api/matches/{match.pk}/games/"
    winner = match.entry1.player_id
    answer = client.post(url, {"winner": winner, "cube": 2, "doubles": []}, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert error["code"] == "bad-cube-value"
    assert error["detail"]["game"] == 1
    assert Match.objects.get(pk=match.pk).score1 == 0
    # Without the list the doubles are not itemised: a cube of 2 is taken as reported.
    answer = client.post(url, {"winner": winner, "cube": 2}, format="json")
    assert answer.status_code == 201, answer.content
    assert Match.objects.get(pk=match.pk).score1 == 2
