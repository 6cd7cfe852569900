"""Single elimination: sizes, seed placement, byes and routing, for every field size."""

from __future__ import annotations

import random

import pytest

from tournament.formats.errors import FormatError
from tournament.formats.single_elimination import (
    SingleEliminationBracket,
    bracket_rounds,
    bracket_size,
    bye_winners,
    first_round,
    round_name,
    seed_order,
    winner_goes_to,
)
from tournament.formats.slots import BYE, MatchRef

FIELD_SIZES = [*range(2, 71), 127, 128, 129, 1024]


def lines_of(n: int) -> dict[int, int]:
    """Seed -> line number (0-based) down the bracket sheet."""
    return {seed: line for line, seed in enumerate(seed_order(bracket_size(n)))}


def meeting_round(line_a: int, line_b: int) -> int:
    """The round in which the players on two lines can meet, if both keep winning."""
    return (line_a ^ line_b).bit_length()


@pytest.mark.parametrize(
    ("n", "size", "rounds"),
    [
        (2, 2, 1),
        (3, 4, 2),
        (4, 4, 2),
        (5, 8, 3),
        (16, 16, 4),
        (17, 32, 5),
        (37, 64, 6),
        (1024, 1024, 10),
        (1025, 2048, 11),
    ],
)
def test_size_and_rounds(n: int, size: int, rounds: int) -> None:
    assert bracket_size(n) == size
    assert bracket_rounds(n) == rounds


@pytest.mark.parametrize("n", [-1, 0, 1])
def test_too_few_entrants(n: int) -> None:
    with pytest.raises(FormatError) as err:
        bracket_size(n)
    assert err.value.code == "too-few-entrants"


def test_first_round_refuses_duplicates() -> None:
    with pytest.raises(FormatError) as err:
        first_round([1, 2, 2])
    assert err.value.code == "duplicate-entrant"


@pytest.mark.parametrize("size", [3, 6, 0, 1, 100])
def test_seed_order_needs_a_power_of_two(size: int) -> None:
    with pytest.raises(FormatError):
        seed_order(size)


def test_standard_seed_order() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize("n", FIELD_SIZES)
def test_every_entrant_once_and_no_bye_meets_a_bye(n: int) -> None:
    ids = [1000 + k for k in range(n)]
    pairings = first_round(ids)
    size = bracket_size(n)
    assert len(pairings) == size // 2
    slots = [slot for pair in pairings for slot in pair]
    assert sorted(s for s in slots if s is not BYE) == ids
    assert slots.count(BYE) == size - n
    assert all(pair != (BYE, BYE) for pair in pairings)


@pytest.mark.parametrize("n", FIELD_SIZES)
def test_byes_go_to_the_top_seeds(n: int) -> None:
    ids = list(range(1, n + 1))  # id == seed
    byes = bracket_size(n) - n
    with_bye = sorted(a for a, b in first_round(ids) if b is BYE and a is not BYE)
    assert all(a is not BYE for a, _ in first_round(ids))  # a bye is always the lower line
    assert with_bye == list(range(1, byes + 1))
    # ... and the better seed is on the upper line of every match.
    assert all(b is BYE or (a is not BYE and a < b) for a, b in first_round(ids))


@pytest.mark.parametrize("n", FIELD_SIZES)
def test_top_seeds_meet_only_late(n: int) -> None:
    """Seeds 1 and 2 meet only in the final, 1-4 only from the semis, 1-8 the quarters..."""
    lines = lines_of(n)
    rounds = bracket_rounds(n)
    assert meeting_round(lines[1], lines[2]) == rounds
    for k in range(1, rounds + 1):
        top = list(range(1, min(2**k, n) + 1))
        for i, a in enumerate(top):
            for b in top[i + 1 :]:
                assert meeting_round(lines[a], lines[b]) >= rounds - k + 1, (a, b)


def play(bracket: SingleEliminationBracket, rng: random.Random | None) -> list[list[int]]:
    """Play the bracket through ``winner_goes_to``; ``None`` rng: the better seed wins."""
    seed = {e: k for k, e in enumerate(bracket.seeded)}
    lines: list[int | None] = [slot for pair in bracket.first_round for slot in pair]
    played: list[list[int]] = []
    for r in range(1, bracket.rounds + 1):
        nxt: list[int | None] = [None] * (len(lines) // 2)
        winners = []
        for k in range(len(lines) // 2):
            a, b = lines[2 * k], lines[2 * k + 1]
            assert (a, b) != (None, None)
            if a is None or b is None:
                winner = a if b is None else b
            elif rng is None:
                winner = a if seed[a] < seed[b] else b
            else:
                winner = rng.choice([a, b])
            assert winner is not None
            winners.append(winner)
            target = bracket.winner_goes_to(MatchRef(r, k))
            if r == bracket.rounds:
                assert target is None
            else:
                assert target is not None
                assert target.round == r + 1
                nxt[2 * target.index + target.position] = winner
        played.append(winners)
        lines = nxt
    return played


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 9, 16, 37, 64, 100])
def test_favourites_reach_the_expected_rounds(n: int) -> None:
    bracket = SingleEliminationBracket.build(list(range(1, n + 1)))
    winners = play(bracket, None)
    assert winners[-1] == [1]
    if bracket.rounds >= 2:
        assert sorted(winners[-2]) == [1, 2]  # the final: 1 v 2
    if bracket.rounds >= 3 and n >= 4:
        assert sorted(winners[-3]) == [1, 2, 3, 4]  # semi-finals 1 v 4, 2 v 3


@pytest.mark.parametrize("n", [2, 3, 6, 11, 37, 70])
def test_random_results_leave_one_champion(n: int) -> None:
    bracket = SingleEliminationBracket.build(list(range(1, n + 1)))
    winners = play(bracket, random.Random(n))
    assert len(winners[-1]) == 1
    assert [len(w) for w in winners] == [bracket.size >> r for r in range(1, bracket.rounds + 1)]


def test_thirty_seven_players() -> None:
    bracket = SingleEliminationBracket.build(list(range(1, 38)))
    assert (bracket.size, bracket.byes, bracket.rounds) == (64, 27, 6)
    advanced = {entrant: slot for slot, entrant in bye_winners(bracket.first_round)}
    assert sorted(advanced) == list(range(1, 28))
    assert advanced[1].round == 2


def test_routing() -> None:
    assert winner_goes_to(MatchRef(1, 0)) == winner_goes_to(MatchRef(1, 1)).__class__(2, 0, 0)
    assert (winner_goes_to(MatchRef(3, 7)).index, winner_goes_to(MatchRef(3, 7)).position) == (3, 1)


def test_round_names() -> None:
    assert [round_name(r, 7) for r in range(1, 8)] == [
        "Round of 128",
        "Round of 64",
        "Round of 32",
        "Round of 16",
        "Quarter-final",
        "Semi-final",
        "Final",
    ]
    with pytest.raises(FormatError):
        round_name(0, 3)
