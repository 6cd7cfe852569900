"""Shared factory_boy factories. Others may add factories at the END of this file only."""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from factory.django import DjangoModelFactory

from matches.models import Match
from tournament.models import Entry, Event, Player, Round, Tournament, User

DEFAULT_PASSWORD = "pass-for-tests-1"


class UserFactory(DjangoModelFactory):
    """A user with a known password (``DEFAULT_PASSWORD``)."""

    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password(DEFAULT_PASSWORD)


class PlayerFactory(DjangoModelFactory):
    """A player without an account, rated around 1500."""

    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:04d}")
    # Unique like the database asks (case-insensitive): players may share a name.
    email = factory.LazyAttributeSequence(
        lambda p, n: f"{p.name.lower().replace(' ', '.')}.{n}@example.org"
    )
    club = "Club Nord"
    rating = factory.Sequence(lambda n: 1500.0 + (n * 37) % 400)


class TournamentFactory(DjangoModelFactory):
    """A public tournament with one director (``tournament.directors.first()``).

    ``TournamentFactory(director=user)`` picks the director; ``directors=[]`` gives none.
    """

    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")
    starts_on = factory.LazyFunction(dt.date.today)
    ends_on = factory.LazyAttribute(lambda t: t.starts_on + dt.timedelta(days=2))
    venue = "Club House"

    @factory.post_generation
    def director(self, create: bool, extracted: User | None, **kwargs: object) -> None:
        if not create:
            return
        self.directors.add(extracted or UserFactory())

    @factory.post_generation
    def directors(self, create: bool, extracted: list[User] | None, **kwargs: object) -> None:
        if create and extracted is not None:
            self.directors.set(extracted)


class EventFactory(DjangoModelFactory):
    """A single-elimination Main of 7-point matches."""

    class Meta:
        model = Event

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Main {n}")
    slug = factory.Sequence(lambda n: f"main-{n}")
    kind = Event.Kind.MAIN
    format = Event.Format.SINGLE_ELIMINATION
    match_lengths = factory.LazyFunction(lambda: [7])


class EntryFactory(DjangoModelFactory):
    """A registered player in an event."""

    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)


class RoundFactory(DjangoModelFactory):
    """A started round (round 1 unless told) of an event, with the event's length for it."""

    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = 1
    match_length = factory.LazyAttribute(lambda r: r.event.length_for_round(r.number))
    status = Round.Status.STARTED


class MatchFactory(DjangoModelFactory):
    """A ready match between two new entries of its round's event."""

    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    event = factory.SelfAttribute("round.event")
    slot = factory.Sequence(lambda n: n)
    entry1 = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..event"))
    entry2 = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..event"))
    length = factory.SelfAttribute("round.match_length")
    crawford = factory.SelfAttribute("event.crawford")
    status = Match.Status.READY


def grant_tournament_creation(user: Any) -> Any:
    """Let ``user`` create tournaments (the add-tournament permission), as staff would."""
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def token_client(user: User | None) -> Any:
    """A DRF test client that sends ``user``'s API token (anonymous for ``None``)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
