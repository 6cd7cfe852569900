"""The Crawford game's number as lists and match pages show it."""

from __future__ import annotations

import pytest

from matches.api.shapes import MatchDetailSerializer, MatchSerializer
from matches.models import Game, Match
from matches.selectors import match_crawford_game_number, match_detail, match_list
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.results import GameResult, match_result_enter
from tournament.services.rounds import round_start

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
    assert MatchDetailSerializer(match_detail(match_id=match.pk)).data["crawford_game_number"] == 2
    # Derived from the scores when the games carry no flag.
    Game.objects.filter(match=match).update(crawford=False)
    assert (
        match_crawford_game_number(
            match=match_detail(match_id=match.pk), games=match_detail(match_id=match.pk).games.all()
        )
        == 2
    )


def test_the_next_game_is_announced_as_crawford_and_a_one_point_match_has_none(match) -> None:
    Match.objects.filter(pk=match.pk).update(score1=4)
    listed = match_list(event=match.event_id).get(pk=match.pk)
    assert MatchSerializer(listed).data["crawford_game_number"] == 1
    Match.objects.filter(pk=match.pk).update(score1=0, length=1)
    listed = match_list(event=match.event_id).get(pk=match.pk)
    assert MatchSerializer(listed).data["crawford_game_number"] is None


@pytest.mark.parametrize(
    ("start", "games"),
    [
        ((0, 0), [(1, 4), (2, 1)]),  # 4-1 after game 2: game 2 was Crawford
        ((0, 0), [(1, 2), (2, 2), (1, 2)]),  # 4-2: the next game (4) is Crawford
        ((4, 0), [(2, 1), (2, 1)]),  # a 4-0 start: game 1 was Crawford
        ((0, 3), [(1, 1), (2, 1)]),  # 1-4 after game 2: the next game is Crawford
        ((0, 0), [(1, 2), (2, 2)]),  # 2-2: no Crawford game yet
    ],
)
def test_every_view_of_the_crawford_game_is_the_engines(
    match, start: tuple[int, int], games: list[tuple[int, int]]
) -> None:
    """The list, the detail, the report endpoints' shape and the match page all agree
    with the rules engine, with or without the games' stored flags."""
    from matches.api.shapes import match_detail_data
    from matches.rules.match import MatchRules, MatchState
    from matches.views import match_view

    rules = MatchRules(5)
    engine = MatchState.start(5, start)
    for number, (winner, points) in enumerate(games, start=1):
        before = engine.score
        Game.objects.create(
            match=match,
            number=number,
            winner_side=winner,
            cube=points,
            points=points,
            score_before1=before[0],
            score_before2=before[1],
            crawford=engine.is_crawford_game(rules),
        )
        engine = engine.after_game(winner - 1, points)
    Match.objects.filter(pk=match.pk).update(
        start_score1=start[0],
        start_score2=start[1],
        score1=engine.score[0],
        score2=engine.score[1],
        status=Match.Status.PLAYING,
    )
    expected = engine.crawford_game_number(rules)
    for flags in (True, False):
        if not flags:
            Game.objects.filter(match=match).update(crawford=False)
        listed = match_list(event=match.event_id).get(pk=match.pk)
        detail = match_detail(match_id=match.pk)
        if flags or expected is None or expected == engine.game_number:
            # Without games at hand a list sees only the flags and the score now.
            assert MatchSerializer(listed).data["crawford_game_number"] == expected
        assert MatchDetailSerializer(detail).data["crawford_game_number"] == expected
        assert match_detail_data(detail)["crawford_game_number"] == expected
        assert match_view(detail, None)["crawford_next"] == (expected == engine.game_number)


def test_the_public_chances_know_the_crawford_game_is_behind_even_without_flags(match) -> None:
    """The match page's phases come from the same derivation: game 2 was the Crawford game
    (4-0 before it), so at 4-1 the next game is post-Crawford, flags or not."""
    from matches.rules.match import MatchRules, MatchState
    from tournament.public.selectors.in_play import live_matches
    from tournament.public.selectors.match_record import match_page

    rules, state = MatchRules(5), MatchState.start(5)
    for number, (winner, points) in enumerate([(1, 4), (2, 1)], start=1):
        Game.objects.create(
            match=match,
            number=number,
            winner_side=winner,
            cube=1,
            points=points,
            result="single" if points == 1 else "backgammon",
            score_before1=state.score[0],
            score_before2=state.score[1],
            crawford=state.is_crawford_game(rules),
        )
        state = state.after_game(winner - 1, points)
    Match.objects.filter(pk=match.pk).update(score1=4, score2=1, status=Match.Status.PLAYING)
    for flags in (True, False):
        if not flags:
            Game.objects.filter(match=match).update(crawford=False)
        page = match_page(match.pk)
        assert [row.chances_before.phase for row in page.games] == ["pre-crawford", "crawford"]
        assert page.chances.phase == "post-crawford"
    Game.objects.filter(match=match, number=2).update(crawford=True)
    (live,) = live_matches(match.event.tournament)
    assert live.chances.phase == "post-crawford"
