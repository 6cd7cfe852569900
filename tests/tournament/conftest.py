"""Helpers for the tournament services' tests: build fields, play matches, run the bracket."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from matches.models import Match
from matches.rules.match import MatchRules, MatchState
from tests.factories import PlayerFactory, TournamentFactory
from tournament.models import Entry, Event, Round, Tournament
from tournament.services.advance import match_advance
from tournament.services.entries import entry_register
from tournament.services.results import GameResult, match_result_enter
from tournament.services.rounds import round_start


def winning_games(
    length: int, score: tuple[int, int], side: int, *, crawford: bool = True
) -> list[GameResult]:
    """Games that take ``side`` (1 or 2) from ``score`` to ``length``: doubled games while the
    cube may turn, the Crawford game played for 1 (a gammon when it is worth having)."""
    rules = MatchRules(length=length, crawford=crawford)
    state = MatchState.start(length, score)
    games: list[GameResult] = []
    while not state.is_over:
        remaining = length - state.score[side - 1]
        if state.is_crawford_game(rules):
            cube, result = 1, ("gammon" if remaining >= 2 else "single")
        else:
            cube, result = 1, "single"
            while cube * 2 <= remaining and cube < 8:
                cube *= 2
        points = cube * (2 if result == "gammon" else 1)
        games.append(GameResult(winner=side, cube=cube, result=result))
        state = state.after_game(side - 1, points)
    return games


def play(match: Match, winner_side: int) -> list[int]:
    """Play ``match`` to its end for ``winner_side`` through the director's result entry,
    then move the bracket on (what the queued task does after the commit)."""
    match.refresh_from_db()
    match_result_enter(
        match=match,
        games=winning_games(
            match.length, (match.score1, match.score2), winner_side, crawford=match.crawford
        ),
    )
    return match_advance(match_id=match.pk)


def playable(event: Event) -> list[Match]:
    """Matches of ``event`` that can be played now."""
    return list(
        Match.objects.filter(event=event, status=Match.Status.READY).order_by(
            "round__bracket", "round__number", "slot"
        )
    )


def start_due_rounds(event: Event) -> None:
    """Start every pending round whose players are all known or whose previous round started."""
    for round_ in event.rounds.filter(status=Round.Status.PENDING).order_by("bracket", "number"):
        previous = event.rounds.filter(bracket=round_.bracket, number=round_.number - 1).first()
        if previous is None or previous.status != Round.Status.PENDING:
            round_start(round_=round_)


def run_to_champion(
    events: list[Event], choose: Callable[[Match], int] = lambda m: 1, limit: int = 2000
) -> None:
    """Start rounds and play ready matches in ``events`` until none is left."""
    for _ in range(limit):
        for event in events:
            event.refresh_from_db()
            start_due_rounds(event)
        ready = [m for event in events for m in playable(event)]
        if not ready:
            return
        for match in ready:
            play(match, choose(match))
    raise AssertionError("the events did not finish")


@pytest.fixture
def tournament() -> Tournament:
    return TournamentFactory()


@pytest.fixture
def enter() -> Callable[[Event, int], list[Entry]]:
    def _enter(event: Event, count: int) -> list[Entry]:
        return [entry_register(event=event, player=PlayerFactory()) for _ in range(count)]

    return _enter
