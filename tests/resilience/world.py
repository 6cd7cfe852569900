"""A small tournament built through the services, with every kind of caller it needs.

``build_world`` makes a tournament with a director, a drawn single-elimination
event whose players all have accounts (and tokens), round 1 started, plus a
second tournament with its own director. The roles of the permission matrix and
the schema fuzzing come from here; ``play_to_end`` finishes a match through the
reporting services as two players would.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Match
from matches.services.confirmation import match_confirm
from matches.services.reporting import GameInput, game_report
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.models import Entry, Event, Player, Round, Tournament, User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import round_start

META = RequestMeta(ip="127.0.0.1", user_agent="resilience tests")
_names = itertools.count(1)


@dataclass
class World:
    """A running event and the people around it."""

    tournament: Tournament
    event: Event
    director: User
    other_director: User
    other_tournament: Tournament
    players: list[Player]
    accounts: list[User]
    tokens: dict[int, str] = field(default_factory=dict)  # user id -> token key

    def entry_of(self, player: Player) -> Entry:
        return Entry.objects.get(event=self.event, player=player)

    def round(self, number: int) -> Round:
        return self.event.rounds.get(bracket=Round.Bracket.MAIN, number=number)

    def matches(self, number: int) -> list[Match]:
        return list(
            Match.objects.filter(event=self.event, round__number=number)
            .select_related("entry1__player__user", "entry2__player__user", "round")
            .order_by("slot")
        )

    def token(self, user: User) -> str:
        if user.pk not in self.tokens:
            self.tokens[user.pk] = Token.objects.get_or_create(user=user)[0].key
        return self.tokens[user.pk]

    def client(self, user: User | None) -> APIClient:
        """An API client sending ``user``'s token (anonymous for ``None``)."""
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.token(user)}")
        return client

    def account_of(self, entry: Entry) -> User:
        user = Player.objects.select_related("user").get(pk=entry.player_id).user
        assert user is not None
        return user


def build_world(
    *,
    size: int = 8,
    lengths: tuple[int, ...] = (3,),
    start: bool = True,
    names: list[str] | None = None,
) -> World:
    """A tournament with a drawn ``size``-player elimination event (round 1 started)."""
    n = next(_names)
    director = UserFactory(username=f"director-{n}")
    other_director = UserFactory(username=f"other-director-{n}")
    tournament = TournamentFactory(director=director, name=f"Spring Open {n}", slug=f"spring-{n}")
    other = TournamentFactory(director=other_director, name=f"Autumn Cup {n}", slug=f"autumn-{n}")
    event = event_create(tournament=tournament, name="Main", match_lengths=list(lengths))
    accounts = [UserFactory(username=f"w{n}-player-{i}") for i in range(size)]
    players = [
        PlayerFactory(
            name=(names[i] if names and i < len(names) else f"Player {n}-{i:03d}"), user=account
        )
        for i, account in enumerate(accounts)
    ]
    for player in players:
        entry_register(event=event, player=player)
    draw_make(event=event, method="manual", order=[p.pk for p in players])
    if start:
        round_start(round_=event.rounds.get(bracket=Round.Bracket.MAIN, number=1))
    event.refresh_from_db()
    return World(
        tournament=tournament,
        event=event,
        director=director,
        other_director=other_director,
        other_tournament=other,
        players=players,
        accounts=accounts,
    )


def winning_games(match: Match, winner_side: int) -> list[GameInput]:
    """Games that end ``match`` for ``winner_side`` (1 or 2): single games, no cube."""
    entry = match.entry1 if winner_side == 1 else match.entry2
    assert entry is not None
    need = match.length - (match.score1 if winner_side == 1 else match.score2)
    return [GameInput(winner=entry.player_id) for _ in range(need)]


def play_to_end(match: Match, winner_side: int = 1) -> Match:
    """Both players finish ``match`` through the services: the winner reports, the loser
    confirms (its bracket moves on after the commit)."""
    match = Match.objects.select_related("entry1", "entry2").get(pk=match.pk)
    reporter = match.entry1 if winner_side == 1 else match.entry2
    confirmer = match.entry2 if winner_side == 1 else match.entry1
    for game in winning_games(match, winner_side):
        game_report(match_id=match.pk, actor=Actor(entry=reporter), game=game, meta=META)
    return match_confirm(match_id=match.pk, actor=Actor(entry=confirmer), meta=META)
