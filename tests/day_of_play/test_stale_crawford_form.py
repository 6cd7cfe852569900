"""A Crawford game's form left open on the other phone and sent after that game was
recorded: a report of that game, compared with the one recorded (a dispute when it
differs), never refused for the cube it cannot send. It was refused as "Cube: This field
is required", the next game's form, and the disagreement was lost."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Game, Match, Submission
from tests.matches.test_api import Bracket, make_bracket

pytestmark = pytest.mark.django_db


@pytest.fixture
def at_crawford() -> tuple[Match, Client, Client]:
    """A 3-point match at 2-0: its game 2 is the Crawford game. Two phones, one a side."""
    bracket: Bracket = make_bracket(length=3)
    match = bracket.first
    anna, bert = Client(), Client()
    played = {"winner": match.entry1.player_id, "cube": 2, "result": "single"}
    response = anna.post(_url(match, 1), {**played, "ended_by": "play", "game_number": 1})
    assert response.status_code == 302
    return match, anna, bert


def _url(match: Match, side: int) -> str:
    entry = match.entry1 if side == 1 else match.entry2
    return f"/r/{entry.report_key}/matches/{match.pk}/game/"


def _crawford_game(match: Match, winner_side: int) -> dict[str, object]:
    """The Crawford game's form as a browser sends it: no cube (its field is disabled)."""
    winner = match.entry1 if winner_side == 1 else match.entry2
    return {"winner": winner.player_id, "result": "single", "ended_by": "play", "game_number": 2}


def test_a_late_crawford_form_that_disagrees_puts_the_match_to_the_director(at_crawford):
    match, anna, bert = at_crawford
    assert anna.post(_url(match, 1), _crawford_game(match, 2)).status_code == 302
    game = Game.objects.get(match=match, number=2, voided=False)
    assert (game.crawford, game.cube, game.winner_side) == (True, 1, 2)

    # Bert's page still shows game 2's form; he says Anna won it.
    answer = bert.post(_url(match, 2), _crawford_game(match, 1), follow=True)
    text = answer.content.decode()
    assert "Cube" not in text.split("Not recorded", 1)[-1][:200]
    assert "reported game 2 differently" in text
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    assert not Submission.objects.filter(match=match, error_detail__field="cube").exists()


def test_a_late_crawford_form_that_agrees_is_counted_once(at_crawford):
    match, anna, bert = at_crawford
    assert anna.post(_url(match, 1), _crawford_game(match, 2)).status_code == 302
    answer = bert.post(_url(match, 2), _crawford_game(match, 2), follow=True)
    assert "Cube:" not in answer.content.decode()
    assert Game.objects.filter(match=match, number=2, voided=False).count() == 1
    match.refresh_from_db()
    assert (match.score1, match.score2, match.status) == (2, 1, Match.Status.PLAYING)


def test_a_missing_cube_is_still_refused_outside_the_crawford_game(at_crawford):
    match, anna, _ = at_crawford
    assert anna.post(_url(match, 1), _crawford_game(match, 2)).status_code == 302
    game_3 = {**_crawford_game(match, 1), "game_number": 3}  # post-Crawford: a cube is due
    answer = anna.post(_url(match, 1), game_3, follow=True)
    assert "Cube: This field is required." in answer.content.decode()
    assert not Game.objects.filter(match=match, number=3).exists()
