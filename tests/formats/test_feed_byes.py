"""Byes in fed brackets: a Main of any size 2..130 into a Consolation, a Last Chance and a
losers bracket, played through by the routing maps alone (``loser_goes_to`` and
``winner_goes_to``), as the services route them.

Properties: no match ever has both lines empty once its feeders are decided; every
loser of a fed round takes exactly one line; every bracket ends with one winner."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.consolation import (
    consolation_bracket,
    consolation_entrants,
    last_chance_bracket,
)
from tournament.formats.double_elimination import DoubleEliminationBracket
from tournament.formats.feed_in import FeedInBracket, FromLoser, FromWinner, build_feed_in
from tournament.formats.single_elimination import SingleEliminationBracket, bracket_rounds
from tournament.formats.slots import MatchRef, SlotRef

SIZES = st.integers(min_value=2, max_value=130)


def play_single(
    bracket: SingleEliminationBracket, rng: random.Random
) -> tuple[int, dict[MatchRef, int]]:
    """Play a seeded bracket to the end: its champion and each played match's loser."""
    seats: dict[SlotRef, int] = {}
    for k, pair in enumerate(bracket.first_round):
        assert pair != (None, None), "two byes meet in round 1"
        for position, player in enumerate(pair):
            if player is not None:
                seats[SlotRef(1, k, position)] = player
    losers: dict[MatchRef, int] = {}
    champion = None
    for r in range(1, bracket.rounds + 1):
        for k in range(bracket.matches_in_round(r)):
            a, b = seats.get(SlotRef(r, k, 0)), seats.get(SlotRef(r, k, 1))
            assert a is not None or b is not None, f"Main match {r}.{k} has nobody in it"
            if a is None or b is None:
                winner = a if b is None else b
            else:
                winner = rng.choice([a, b])
                losers[MatchRef(r, k)] = b if winner == a else a
            assert winner is not None
            target = bracket.winner_goes_to(MatchRef(r, k))
            if target is None:
                champion = winner
            else:
                assert target not in seats
                seats[target] = winner
    assert champion is not None
    return champion, losers


def play_fed(
    bracket: FeedInBracket, main_losers: dict[MatchRef, int], rng: random.Random
) -> tuple[int, Counter[int]]:
    """Play a fed bracket from the Main's losers: its champion and each player's losses."""
    if not bracket.rounds:  # one player fed (a 2-player double elimination): no match
        assert isinstance(bracket.champion, FromLoser)
        return main_losers[bracket.champion.match], Counter()
    seats: dict[SlotRef, int] = {}
    for ref, loser in main_losers.items():
        if ref.round in bracket.fed_rounds:
            slot = bracket.loser_goes_to.get(ref)
            assert slot is not None, f"the loser of Main {ref} is fed nowhere"
            assert slot not in seats, f"two players fed to {slot}"
            seats[slot] = loser
    fed_from_main = {ref for ref in main_losers if ref.round in bracket.fed_rounds}
    assert set(bracket.loser_goes_to) == fed_from_main  # and nobody else (no Main bye)
    losses: Counter[int] = Counter()
    champion = None
    for matches in bracket.rounds:
        for match in matches:
            ref = match.ref
            a = seats.get(SlotRef(ref.round, ref.index, 0))
            b = seats.get(SlotRef(ref.round, ref.index, 1))
            # Every feeder of this match is decided: an empty line stays empty.
            for line, player in ((match.upper, a), (match.lower, b)):
                assert (line is None) == (player is None), f"{ref}: {line} gave {player}"
                assert line is None or isinstance(line, (FromLoser, FromWinner))
            assert a is not None or b is not None, f"match {ref} has nobody in it"
            if a is None or b is None:
                winner = a if b is None else b
            else:
                winner = rng.choice([a, b])
                losses[b if winner == a else a] += 1
            assert winner is not None
            target = bracket.winner_goes_to.get(ref)
            if ref == bracket.final:
                assert target is None
                champion = winner
            else:
                assert target is not None, f"the winner of {ref} goes nowhere"
                assert target not in seats
                seats[target] = winner
    assert champion is not None
    return champion, losses


@st.composite
def main_and_feed(draw: st.DrawFn) -> tuple[int, list[int]]:
    n = draw(SIZES)
    rounds = bracket_rounds(n)
    feedable = list(range(1, rounds))  # the final's loser is the runner-up
    if not feedable:
        return n, []
    fed = draw(st.lists(st.sampled_from(feedable), min_size=1, unique=True))
    if consolation_entrants(main_entrants=n, fed_rounds=fed) < 2:
        return n, []
    return n, fed


@settings(max_examples=400, deadline=None)
@given(main_and_feed(), st.randoms(use_true_random=False), st.integers(0, 6))
def test_main_consolation_and_last_chance_play_through(
    case: tuple[int, list[int]], rng: random.Random, late: int
) -> None:
    n, fed = case
    main = SingleEliminationBracket.build(list(range(1, n + 1)))
    _, main_losers = play_single(main, rng)
    assert len(main_losers) == n - 1
    out_of_consolation: set[int] = set(main_losers.values())
    if fed:
        consolation = consolation_bracket(main_entrants=n, fed_rounds=fed)
        assert not any(m.is_void for r in consolation.rounds for m in r)
        entrants = {p for ref, p in main_losers.items() if ref.round in fed}
        assert len(entrants) == consolation_entrants(main_entrants=n, fed_rounds=fed)
        champion, losses = play_fed(consolation, main_losers, rng)
        assert champion in entrants
        assert losses[champion] == 0
        assert set(losses) == entrants - {champion}
        assert set(losses.values()) == ({1} if len(entrants) > 1 else set())
        out_of_consolation -= {champion}
    # Last Chance: some players already out, plus late arrivals.
    pool = sorted(out_of_consolation)
    chosen = rng.sample(pool, rng.randint(0, len(pool))) + [1000 + k for k in range(late)]
    if len(chosen) >= 2:
        last_chance = last_chance_bracket(chosen)
        champion, losers = play_single(last_chance, rng)
        assert champion in chosen
        assert sorted([*losers.values(), champion]) == sorted(chosen)


@settings(max_examples=150, deadline=None)
@given(SIZES, st.randoms(use_true_random=False))
def test_losers_bracket_has_no_empty_match(n: int, rng: random.Random) -> None:
    bracket = DoubleEliminationBracket.build(list(range(1, n + 1)))
    _, winners_losers = play_single(bracket.winners, rng)
    losers = bracket.losers
    assert not any(m.is_void for r in losers.rounds for m in r)
    for matches in losers.rounds:  # no round of byes only
        assert any(m.upper is not None and m.lower is not None for m in matches)
    champion, losses = play_fed(losers, winners_losers, rng)
    dropped = set(winners_losers.values())
    assert champion in dropped
    assert set(losses) == dropped - {champion}


def test_every_size_and_feed_has_no_empty_match() -> None:
    """Exhaustively, the structures alone: no void and no round of byes, for every set of
    fed rounds (the final included, as double elimination feeds it) of Mains 2..130."""
    for n in range(2, 131):
        rounds = bracket_rounds(n)
        for mask in range(1, 1 << rounds):
            fed = [r for r in range(1, rounds + 1) if mask >> (r - 1) & 1]
            bracket = build_feed_in(main_entrants=n, fed_rounds=fed)
            for matches in bracket.rounds:
                assert all(m.upper is not None or m.lower is not None for m in matches)
                assert any(m.upper is not None and m.lower is not None for m in matches)
