"""Keeping players apart in brackets and round robins: same-club pairs (the event's
setting) and forbidden pairs out of round 1 where the draw allows; a round robin's
absolute pair of every round never meets, everyone else meets everyone."""

from __future__ import annotations

import itertools

import pytest

from matches.models import Match
from tests.factories import PlayerFactory
from tournament.models import Event
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.forbidden_pairs import forbidden_pair_add

pytestmark = pytest.mark.django_db

#: Seeded by rating 1..8, both a bracket's round 1 (1-8, 4-5, 2-7, 3-6) and a round
#: robin's (1-8, 2-7, 3-6, 4-5) pair each player with their own club (spaces and case
#: aside): only the setting moves them.
CLUBS = ["Oslo", "Bergen", "Aarhus", "Malmö", "Malmö", "Aarhus", "Bergen", "oslo "]


def clubbed(event: Event, clubs: list[str]) -> dict[int, str]:
    """Enter a player per club name, rated in that order (a rating draw seeds them so)."""
    club_of = {}
    for k, club in enumerate(clubs):
        entry = entry_register(event=event, player=PlayerFactory(club=club, rating=2000 - k))
        club_of[entry.pk] = " ".join(club.split()).casefold()
    return club_of


def round_one(event: Event, number: int = 1) -> list[Match]:
    return list(
        Match.objects.filter(event=event, round__number=number, is_bye=False).order_by("slot")
    )


@pytest.mark.parametrize("keep_apart", [False, True])
def test_a_bracket_keeps_clubs_apart_in_round_one(tournament, keep_apart):
    event = event_create(
        tournament=tournament,
        name="Main",
        format="single-elimination",
        avoid_same_club_first_round=keep_apart,
    )
    club_of = clubbed(event, CLUBS)
    draw_make(event=event, method="rating")
    same = [m for m in round_one(event) if club_of[m.entry1_id] == club_of[m.entry2_id]]
    if keep_apart:
        assert same == []
    else:
        assert len(same) == 4  # the draw as it falls: the setting is what moves them


@pytest.mark.parametrize("keep_apart", [False, True])
def test_a_round_robin_keeps_clubs_apart_in_round_one(tournament, keep_apart):
    event = event_create(
        tournament=tournament,
        name="RR",
        format="round-robin",
        avoid_same_club_first_round=keep_apart,
    )
    club_of = clubbed(event, CLUBS)
    draw_make(event=event, method="rating")
    first = round_one(event)
    assert len(first) == 4
    same = [m for m in first if club_of[m.entry1_id] == club_of[m.entry2_id]]
    assert len(same) == (0 if keep_apart else 4)
    # Everyone still meets everyone once.
    met = [frozenset((m.entry1_id, m.entry2_id)) for m in Match.objects.filter(event=event)]
    assert len(met) == len(set(met)) == 28
    assert set(met) == {frozenset(p) for p in itertools.combinations(club_of, 2)}


def test_round_robin_prohibitions(tournament):
    """Absolute for every round: the match is left out. Round 1 only, or avoid: played,
    but not in round 1."""
    event = event_create(tournament=tournament, name="RR", format="round-robin")
    entries = [entry_register(event=event, player=PlayerFactory(rating=2000 - k)) for k in range(6)]
    a, b, c, d, e, f = entries
    # Seeded by rating, round 1 would be a-f, b-e, c-d.
    never = (a, f)
    first_only = (b, e)
    avoid = (c, d)
    forbidden_pair_add(event=event, players=[never[0].player_id, never[1].player_id])
    forbidden_pair_add(
        event=event, players=[first_only[0].player_id, first_only[1].player_id], rounds="first"
    )
    forbidden_pair_add(
        event=event, players=[avoid[0].player_id, avoid[1].player_id], strength="avoid"
    )
    draw_make(event=event, method="rating")
    met = {
        frozenset((m.entry1_id, m.entry2_id)): m.round.number
        for m in Match.objects.filter(event=event).select_related("round")
    }
    assert frozenset((never[0].pk, never[1].pk)) not in met
    assert len(met) == 15 - 1
    for x, y in (first_only, avoid):
        assert met[frozenset((x.pk, y.pk))] > 1
