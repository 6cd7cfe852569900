"""The Crawford game's number as lists and match pages show it."""

from __future__ import annotations

import pytest

from matches.models import Game, Match
from tournament.api.serializers import MatchDetailSerializer, MatchSerializer
from tournament.selectors import crawford_game_number, match_detail, match_list
from tournament.services import (
    GameResult,
    draw_make,
    event_create,
    match_result_enter,
    round_start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(tournament, enter) -> Match:
    event = event_create(tournament=tournament, name="Main", match_lengths=[5])
    enter(event, 2)
    draw_make(event=event, method="rating")
    round_start(round_=event.rounds.get(number=1))
    return Match.objects.get(event=event)


def test_the_crawford_game_is_the_one_after_a_player_first_reaches_one_away(match) -> None:
    # 4-0 after a gammon with the cube on 2: game 2 is the Crawford game, game 3 is not.
    games = [
        GameResult(winner=1, cube=2, result="gammon"),
        GameResult(winner=2, cube=1, result="single"),
        GameResult(winner=2, cube=2, result="single"),
        GameResult(winner=1, cube=2, result="single", ended_by="drop"),
    ]
    match_result_enter(match=match, games=games)
    assert list(Game.objects.filter(match=match).values_list("crawford", flat=True)) == [
        False,
        True,
        False,
        False,
    ]
    listed = match_list(event=match.event_id).get(pk=match.pk)
    assert MatchSerializer(listed).data["crawford_game_number"] == 2
    assert MatchDetailSerializer(match_detail(match.pk)).data["crawford_game_number"] == 2
    # Derived from the scores when the games carry no flag.
    Game.objects.filter(match=match).update(crawford=False)
    assert crawford_game_number(match_detail(match.pk), match_detail(match.pk).games.all()) == 2


def test_the_next_game_is_announced_as_crawford_and_a_one_point_match_has_none(match) -> None:
    Match.objects.filter(pk=match.pk).update(score1=4)
    listed = match_list(event=match.event_id).get(pk=match.pk)
    assert MatchSerializer(listed).data["crawford_game_number"] == 1
    Match.objects.filter(pk=match.pk).update(score1=0, length=1)
    listed = match_list(event=match.event_id).get(pk=match.pk)
    assert MatchSerializer(listed).data["crawford_game_number"] is None
