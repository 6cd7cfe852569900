"""Fixtures of the reporting tests: a ready match, its two players' credentials, a director."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Match
from tests.factories import MatchFactory, PlayerFactory, UserFactory
from tournament.models import User


@dataclass
class Table:
    """A ready match with what acts on it: each player's link, each player's account, a director."""

    match: Match
    director: User

    @property
    def p1(self) -> int:
        return self.match.entry1.player_id  # type: ignore[union-attr]

    @property
    def p2(self) -> int:
        return self.match.entry2.player_id  # type: ignore[union-attr]

    @property
    def link1(self) -> Actor:
        return Actor(entry=self.match.entry1)

    @property
    def link2(self) -> Actor:
        return Actor(entry=self.match.entry2)

    @property
    def boss(self) -> Actor:
        return Actor(user=self.director)

    def refresh(self) -> Match:
        self.match.refresh_from_db()
        return self.match


META = RequestMeta(ip="192.0.2.7", user_agent="pytest phone")


def make_table(**match_kwargs: object) -> Table:
    director = UserFactory()
    for field, name in (("entry1__player", "Anna Kowalska"), ("entry2__player", "Bert van Dijk")):
        if field not in match_kwargs:
            match_kwargs[field] = PlayerFactory(name=name)
    match = MatchFactory(round__event__tournament__director=director, **match_kwargs)
    return Table(match=match, director=director)


@pytest.fixture
def table(db: None) -> Table:
    """A ready 7-point match (Crawford on) between Anna Kowalska and Bert van Dijk."""
    return make_table()
