"""A tournament weekend half played, built through the services as a director would.

Main of 24 (5, 7 and 9 points) feeding a Consolation from rounds 1 and 2, a Last
Chance of 8 and a Swiss side event of 8; round 1 of the Main decided, the
Consolation and Swiss under way, a few matches in play with games reported.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.utils import timezone

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Match
from matches.services.reporting import DoubleInput, GameInput, game_report
from tournament.models import Event, Player, Round, Tournament, User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.results import GameResult, match_result_enter
from tournament.services.rounds import event_next_round, round_start
from tournament.services.tournaments import tournament_create

FIRST = ["Anna", "Ben", "Carla", "Dmitri", "Elif", "Greta", "Hiro", "Ines", "Jonas", "Kaori",
         "Luca", "Mona", "Nils", "Olga", "Paolo", "Rina", "Sven", "Tara", "Umar", "Vera",
         "Wim", "Xenia", "Yusuf", "Zoe", "Arne", "Bea", "Chen", "Dora", "Emil", "Fatma",
         "Gus", "Hana"]  # fmt: skip
LAST = ["Ballard", "Robertie", "Magriel", "Woolsey", "Kleinman", "Heinrich", "Trice", "Cooke",
        "Zare", "Keith", "Tanaka", "Rossi", "Berg", "Novak", "Silva", "Okafor"]  # fmt: skip

META = RequestMeta(ip="127.0.0.1", user_agent="scenario")


@dataclass
class Weekend:
    tournament: Tournament
    director: User
    main: Event
    consolation: Event
    last_chance: Event
    swiss: Event


def make_players(count: int, offset: int = 0) -> list[Player]:
    rng = random.Random(offset)
    return [
        player_create(
            name=f"{FIRST[(i + offset) % len(FIRST)]} {LAST[(i * 7 + offset) % len(LAST)]}",
            rating=round(1350 + rng.random() * 500, 1),
            club=rng.choice(["Club Nord", "Backgammon Süd", "Café Doubles", ""]),
        )
        for i in range(count)
    ]


def start_next(event: Event, bracket: str = Round.Bracket.MAIN) -> None:
    pending = event.rounds.filter(bracket=bracket, status=Round.Status.PENDING).order_by("number")
    first = pending.first()
    if first is not None:
        round_start(round_=first)


def win_games(length: int, winner: int, seed: int) -> list[GameResult]:
    """A plausible, valid sequence of games won by side ``winner`` of a ``length``-point match."""
    rng = random.Random(seed)
    loser = 3 - winner
    score = {1: 0, 2: 0}
    games: list[GameResult] = []
    crawford_done = False
    while score[winner] < length:
        at_crawford = length - 1 in score.values() and not crawford_done
        crawford_done = crawford_done or at_crawford
        cube = 1 if at_crawford else rng.choice([1, 1, 2])
        result = "gammon" if rng.random() < 0.2 else "single"
        points = cube * (2 if result == "gammon" else 1)
        side = loser if rng.random() < 0.35 and score[loser] + points < length - 1 else winner
        games.append(GameResult(winner=side, cube=cube, result=result))
        score[side] += points
    return games


def decide(match: Match, winner: int, seed: int, director: User) -> None:
    match.refresh_from_db()
    match_result_enter(match=match, games=win_games(match.length, winner, seed), by=director)


def report_game(match: Match, *, winner_side: int, cube: int = 1, result: str = "single") -> Match:
    """A player's report of one game through the reporting service (their private link)."""
    match.refresh_from_db()
    entry = match.entry1 if winner_side == 1 else match.entry2
    doubles = None
    if cube > 1:
        doubler = match.entry2 if winner_side == 1 else match.entry1
        doubles = (DoubleInput(by=doubler.player_id, turn=3, response="take"),)
    return game_report(
        match_id=match.pk,
        actor=Actor(entry=entry),
        game=GameInput(winner=entry.player_id, cube=cube, result=result, doubles=doubles),
        meta=META,
    )


@contextmanager
def inline_tasks() -> Iterator[None]:
    """Run the follow-up tasks (bracket advance) at commit, as on the SQLite default,
    also when the run has a broker: the weekend must be laid out before the test looks."""
    from tournament.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


def weekend() -> Weekend:
    """Build the weekend (a few seconds), running follow-up tasks inline."""
    with inline_tasks():
        return _weekend()


def _weekend() -> Weekend:
    director = User.objects.create_user("td", password="td-password-1")
    today = timezone.localdate()
    t = tournament_create(
        name="Spring Open",
        slug="spring",
        director=director,
        starts_on=today,
        ends_on=today + dt.timedelta(days=2),
        venue="Hotel Nord, Copenhagen",
        time_zone="Europe/Copenhagen",
    )
    main = event_create(tournament=t, name="Main", match_lengths=[5, 7, 9], slug="main")
    consolation = event_create(
        tournament=t,
        name="Consolation",
        match_lengths=[5],
        feeds_from=main,
        feed_rounds=[1, 2],
        slug="consolation",
    )
    last_chance = event_create(
        tournament=t, name="Last Chance", kind="last-chance", match_lengths=[3], slug="last-chance"
    )
    swiss = event_create(
        tournament=t, name="Swiss side", format="swiss", match_lengths=[3], rounds=3, slug="swiss"
    )
    for p in make_players(24):
        entry_register(event=main, player=p)
    for p in make_players(8, offset=5):
        entry_register(event=last_chance, player=p)
    for p in make_players(8, offset=11):
        entry_register(event=swiss, player=p)
    for event in (main, last_chance, swiss):
        draw_make(event=event, method="random", seed=2026, by=director)
        start_next(event)
    main.refresh_from_db()
    ready = list(Match.objects.filter(event=main, status=Match.Status.READY).order_by("slot"))
    for i, match in enumerate(ready):
        decide(match, 1 + (i % 3 == 2), seed=i, director=director)
    start_next(main)
    start_next(consolation)
    for i, match in enumerate(
        Match.objects.filter(event=main, status=Match.Status.READY).order_by("slot")[:4]
    ):
        decide(match, 2 - i % 2, seed=100 + i, director=director)
    live = list(Match.objects.filter(event=main, status=Match.Status.READY).order_by("slot")[:2])
    if live:
        report_game(live[0], winner_side=1, cube=2)
        report_game(live[0], winner_side=2)
    if len(live) > 1:
        report_game(live[1], winner_side=2, cube=2, result="gammon")
    cons = list(Match.objects.filter(event=consolation, status=Match.Status.READY).order_by("slot"))
    for i, match in enumerate(cons[:3]):
        decide(match, 1 + i % 2, seed=200 + i, director=director)
    if len(cons) > 3:
        report_game(cons[3], winner_side=1, cube=2)
    lc = list(Match.objects.filter(event=last_chance, status=Match.Status.READY).order_by("slot"))
    for i, match in enumerate(lc[:2]):
        decide(match, 1, seed=300 + i, director=director)
    sw = list(Match.objects.filter(event=swiss, status=Match.Status.READY).order_by("slot"))
    for i, match in enumerate(sw):
        decide(match, 1 + i % 2, seed=400 + i, director=director)
    event_next_round(event=swiss, by=director)
    for event in (main, consolation, last_chance, swiss):
        event.refresh_from_db()
    return Weekend(t, director, main, consolation, last_chance, swiss)
