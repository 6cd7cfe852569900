"""Feed-in brackets (Consolation, losers bracket) and double elimination, played through."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from tournament.formats.consolation import (
    consolation_bracket,
    consolation_entrants,
    last_chance_bracket,
)
from tournament.formats.double_elimination import (
    DoubleEliminationBracket,
    Stage,
    StageMatch,
    StageSlot,
)
from tournament.formats.errors import FormatError
from tournament.formats.feed_in import (
    FeedInBracket,
    FromLoser,
    FromWinner,
    Source,
    build_feed_in,
    main_round_one_byes,
)
from tournament.formats.single_elimination import (
    SingleEliminationBracket,
    bracket_rounds,
    bracket_size,
)
from tournament.formats.slots import MatchRef, SlotRef


@dataclass(frozen=True)
class Played:
    a: int | None
    b: int | None
    winner: int | None
    loser: int | None


def play_main(n: int, rng: random.Random) -> tuple[dict[MatchRef, Played], int]:
    """A Main of players 1..n (id = seed) with random results, routed by ``winner_goes_to``."""
    bracket = SingleEliminationBracket.build(list(range(1, n + 1)))
    lines: list[int | None] = [slot for pair in bracket.first_round for slot in pair]
    results: dict[MatchRef, Played] = {}
    for r in range(1, bracket.rounds + 1):
        nxt: list[int | None] = [None] * (len(lines) // 2)
        for k in range(len(lines) // 2):
            a, b = lines[2 * k], lines[2 * k + 1]
            if a is None or b is None:
                winner, loser = (a if b is None else b), None
            else:
                winner = rng.choice([a, b])
                loser = b if winner == a else a
            results[MatchRef(r, k)] = Played(a, b, winner, loser)
            target = bracket.winner_goes_to(MatchRef(r, k))
            if target is not None:
                nxt[2 * target.index + target.position] = winner
        lines = nxt
    return results, results[MatchRef(bracket.rounds, 0)].winner or 0


def play_feed_in(
    bracket: FeedInBracket, main: dict[MatchRef, Played], rng: random.Random
) -> tuple[dict[MatchRef, Played], int | None]:
    """Play a feed-in bracket, checking that its byes and voids are what it announced."""
    results: dict[MatchRef, Played] = {}

    def who(source: Source) -> int | None:
        if source is None:
            return None
        if isinstance(source, FromLoser):
            player = main[source.match].loser
        else:
            assert isinstance(source, FromWinner)
            player = results[source.match].winner
        assert player is not None, f"{source} announced a player but produced none"
        return player

    for matches in bracket.rounds:
        for match in matches:
            a, b = who(match.upper), who(match.lower)
            assert not match.is_void
            assert a is not None or b is not None, f"{match.ref} has nobody in it"
            if a is None or b is None:
                assert match.is_walkover
                results[match.ref] = Played(a, b, a if b is None else b, None)
            else:
                winner = rng.choice([a, b])
                results[match.ref] = Played(a, b, winner, b if winner == a else a)
    return results, who(bracket.champion)


def check_routing(bracket: FeedInBracket, main: dict[MatchRef, Played]) -> None:
    """``loser_goes_to`` / ``winner_goes_to`` are exactly the inverse of the match sources."""
    sources: dict[SlotRef, Source] = {}
    for matches in bracket.rounds:
        for match in matches:
            sources[SlotRef(match.ref.round, match.ref.index, 0)] = match.upper
            sources[SlotRef(match.ref.round, match.ref.index, 1)] = match.lower
    for ref, slot in bracket.loser_goes_to.items():
        assert sources[slot] == FromLoser(ref)
        assert main[ref].loser is not None
    for ref, slot in bracket.winner_goes_to.items():
        assert sources[slot] == FromWinner(ref)
        assert slot.round > ref.round
    fed = {s.match for s in sources.values() if isinstance(s, FromLoser)}
    assert fed == set(bracket.loser_goes_to)
    assert len(set(bracket.loser_goes_to.values())) == len(bracket.loser_goes_to)
    expected = {
        ref
        for ref, played in main.items()
        if ref.round in bracket.fed_rounds and played.loser is not None
    }
    assert fed == expected  # every loser of a fed round, and only those, drops in


CONSOLATION_CASES = [
    (n, fed)
    for n in [*range(4, 71), 100, 128, 200]
    for fed in ([1], [1, 2], [2], [1, 3], [1, 2, 3], [2, 3])
    if max(fed) < bracket_rounds(n) and consolation_entrants(main_entrants=n, fed_rounds=fed) >= 2
]


@pytest.mark.parametrize(("n", "fed"), CONSOLATION_CASES)
def test_consolation_plays_through(n: int, fed: list[int]) -> None:
    rng = random.Random(n * 10 + len(fed))
    main, _ = play_main(n, rng)
    bracket = consolation_bracket(main_entrants=n, fed_rounds=fed)
    check_routing(bracket, main)
    results, champion = play_feed_in(bracket, main, rng)
    entrants = consolation_entrants(main_entrants=n, fed_rounds=fed)
    losers = [p.loser for p in results.values() if p.loser is not None]
    assert len(losers) == entrants - 1  # one match per player knocked out
    assert len(set(losers)) == len(losers)
    assert champion is not None
    assert champion not in losers
    # Every round has a match with two players in it (a round of byes only is left out).
    for matches in bracket.rounds:
        assert any(m.upper is not None and m.lower is not None for m in matches)
    if fed == [1, 2]:
        # Main-1 losers play each other first only when they outnumber the Main-2 losers.
        main_one_losers = consolation_entrants(main_entrants=n, fed_rounds=[1])
        assert bracket.entry_rounds == {1: 1, 2: 2 if main_one_losers > bracket_size(n) // 4 else 1}
        # Nobody dropping from Main round 2 meets a player they have just beaten.
        beaten = {(p.winner, p.loser) for p in main.values() if p.loser is not None}
        for match in bracket.rounds[bracket.entry_rounds[2] - 1]:
            played = results[match.ref]
            assert (played.a, played.b) not in beaten
            assert (played.b, played.a) not in beaten


def test_thirty_seven_player_main_into_consolation() -> None:
    """27 Main byes leave 5 round-1 losers: no round of empty matches before they meet the
    16 round-2 losers; the Consolation is the 32-line bracket its 21 players need."""
    bracket = consolation_bracket(main_entrants=37, fed_rounds=[1, 2])
    assert consolation_entrants(main_entrants=37, fed_rounds=[1, 2]) == 5 + 16
    assert [len(r) for r in bracket.rounds] == [16, 8, 4, 2, 1]
    assert bracket.round_names == (
        "Round of 32",
        "Round of 16",
        "Quarter-final",
        "Semi-final",
        "Final",
    )
    assert bracket.entry_rounds == {1: 1, 2: 1}
    first = bracket.rounds[0]
    assert not any(m.is_void for m in first)
    # Round 1: five Main-1 losers against Main-2 losers, eleven Main-2 losers with a bye.
    played = [m for m in first if not m.is_walkover]
    assert len(played) == 5
    assert all(isinstance(m.upper, FromLoser) and m.upper.match.round == 1 for m in played)
    assert all(isinstance(m.lower, FromLoser) and m.lower.match.round == 2 for m in first)
    assert {slot.round for slot in bracket.loser_goes_to.values()} == {1}
    # The five Main-1 losers are those of the Main's five real round-1 matches.
    assert sorted(ref.index for ref in bracket.loser_goes_to if ref.round == 1) == sorted(
        set(range(32)) - main_round_one_byes(37)
    )


@pytest.mark.parametrize(
    ("fed", "entry"),
    [
        ([1], {1: 1}),
        ([2], {2: 1}),
        ([1, 2], {1: 1, 2: 2}),
        ([1, 3], {1: 1, 3: 3}),
        ([1, 2, 3], {1: 1, 2: 2, 3: 4}),
        ([3, 1, 2], {1: 1, 2: 2, 3: 4}),
    ],
)
def test_entry_rounds(fed: list[int], entry: dict[int, int]) -> None:
    assert consolation_bracket(main_entrants=64, fed_rounds=fed).entry_rounds == entry


@pytest.mark.parametrize(
    ("n", "fed", "code"),
    [
        (8, [3], "bad-fed-rounds"),
        (8, [0], "bad-fed-rounds"),
        (8, [], "no-fed-rounds"),
        (8, [1, 1], "bad-fed-rounds"),
        (3, [1], "too-few-entrants"),
        (1, [1], "too-few-entrants"),
    ],
)
def test_consolation_refuses(n: int, fed: list[int], code: str) -> None:
    with pytest.raises(FormatError) as err:
        consolation_bracket(main_entrants=n, fed_rounds=fed)
    assert err.value.code == code


def test_last_chance_is_single_elimination_of_its_entries() -> None:
    bracket = last_chance_bracket([9, 4, 7, 1, 3])
    assert bracket.seeded == (9, 4, 7, 1, 3)
    assert bracket.first_round == ((9, None), (1, 3), (4, None), (7, None))
    with pytest.raises(FormatError):
        last_chance_bracket([5])


def play_double(n: int, rng: random.Random, reset: bool) -> tuple[int, Counter[int], int]:
    """Play a double-elimination event purely through its routing methods."""
    bracket = DoubleEliminationBracket.build(list(range(1, n + 1)), reset=reset)
    seats: dict[StageSlot, int] = {}
    for k, (a, b) in enumerate(bracket.winners.first_round):
        for position, player in enumerate((a, b)):
            if player is not None:
                seats[StageSlot(Stage.WINNERS, 1, k, position)] = player
    losses: Counter[int] = Counter()
    matches = 0

    def decide(match: StageMatch, expected: tuple[Source, Source] | None) -> int | None:
        nonlocal matches
        a = seats.get(StageSlot(match.stage, match.round, match.index, 0))
        b = seats.get(StageSlot(match.stage, match.round, match.index, 1))
        if expected is not None:  # a line is empty exactly where the structure has a bye
            assert (a is None, b is None) == (expected[0] is None, expected[1] is None)
        if a is None or b is None:
            return a if b is None else b
        matches += 1
        winner = rng.choice([a, b])
        loser = b if winner == a else a
        losses[loser] += 1
        for player, target in (
            (winner, bracket.winner_goes_to(match)),
            (loser, bracket.loser_goes_to(match)),
        ):
            if target is not None:
                assert target not in seats
                seats[target] = player
        return winner

    for r in range(1, bracket.winners.rounds + 1):
        for k in range(bracket.winners.matches_in_round(r)):
            winner = decide(StageMatch(Stage.WINNERS, r, k), None)
            if winner is not None and not (
                seats.get(StageSlot(Stage.WINNERS, r, k, 0))
                and seats.get(StageSlot(Stage.WINNERS, r, k, 1))
            ):  # a bye: the lone player moves on without playing
                target = bracket.winner_goes_to(StageMatch(Stage.WINNERS, r, k))
                assert target is not None
                seats[target] = winner
    for matches_of_round in bracket.losers.rounds:
        for m in matches_of_round:
            ref = StageMatch(Stage.LOSERS, m.ref.round, m.ref.index)
            winner = decide(ref, (m.upper, m.lower))
            a = seats.get(StageSlot(Stage.LOSERS, m.ref.round, m.ref.index, 0))
            b = seats.get(StageSlot(Stage.LOSERS, m.ref.round, m.ref.index, 1))
            if winner is not None and (a is None or b is None):
                target = bracket.winner_goes_to(ref)
                assert target is not None
                seats[target] = winner
    gf1 = StageMatch(Stage.GRAND_FINAL, 1, 0)
    upper = seats[StageSlot(Stage.GRAND_FINAL, 1, 0, 0)]
    champion = decide(gf1, None)
    assert champion is not None
    reset_match = bracket.after_grand_final(winner_position=0 if champion == upper else 1)
    if reset_match is not None:
        seats[StageSlot(Stage.GRAND_FINAL, 2, 0, 0)] = upper
        seats[StageSlot(Stage.GRAND_FINAL, 2, 0, 1)] = champion
        champion = decide(reset_match, None)
        assert champion is not None
    return champion, losses, matches


@pytest.mark.parametrize("n", [*range(2, 41), 64, 100, 128])
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_plays_through(n: int, reset: bool) -> None:
    for trial in range(3):
        champion, losses, matches = play_double(n, random.Random(n * 7 + trial), reset)
        assert losses[champion] <= 1
        others = {p: losses[p] for p in range(1, n + 1) if p != champion}
        once = [p for p, c in others.items() if c == 1]
        assert set(others.values()) <= {1, 2}
        if reset:
            assert not once  # a second loss eliminates; the reset makes that true of the final
            assert matches in (2 * n - 2, 2 * n - 1)
        else:
            assert len(once) <= 1
            assert losses[champion] == len(once)
            assert matches == 2 * n - 2


@pytest.mark.parametrize("k", range(1, 11))
def test_losers_bracket_shape(k: int) -> None:
    bracket = DoubleEliminationBracket.build(list(range(1, 2**k + 1)))
    assert len(bracket.losers.rounds) == 2 * (k - 1)
    if k >= 2:
        sizes = [len(r) for r in bracket.losers.rounds]
        assert sizes == [2 ** (k - 2 - j // 2) for j in range(2 * (k - 1))]


def test_losers_bracket_avoids_immediate_rematches() -> None:
    """In a 64 bracket, no winners-bracket loser of rounds 2-4 can meet, on dropping, a
    player it beat earlier in the winners bracket (rounds 5-6 have too few players)."""
    for trial in range(20):
        rng = random.Random(trial)
        main, _ = play_main(64, rng)
        losers = build_feed_in(main_entrants=64, fed_rounds=range(1, 7))
        results, _ = play_feed_in(losers, main, rng)
        beaten = {frozenset((p.winner, p.loser)) for p in main.values() if p.loser is not None}
        for main_round in (2, 3, 4):
            for match in losers.rounds[losers.entry_rounds[main_round] - 1]:
                played = results[match.ref]
                assert frozenset((played.a, played.b)) not in beaten


def test_double_elimination_refuses_unknown_matches() -> None:
    bracket = DoubleEliminationBracket.build([1, 2, 3, 4])
    for match in (
        StageMatch(Stage.WINNERS, 3, 0),
        StageMatch(Stage.LOSERS, 1, 1),
        StageMatch(Stage.GRAND_FINAL, 3, 0),
    ):
        with pytest.raises(FormatError):
            bracket.winner_goes_to(match)
    with pytest.raises(FormatError):
        bracket.after_grand_final(winner_position=2)
    assert (
        DoubleEliminationBracket.build([1, 2], reset=False).after_grand_final(winner_position=1)
        is None
    )
