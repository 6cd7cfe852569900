"""The weighted pairing and the elimination Swiss, over hundreds of random events.

Properties: every player once, a bye only with an odd field; no absolute pair while
a pairing without one exists (brute force on small fields), and when none exists the
error names prohibitions that are in the way; the fewest rematches, then the fewest
avoided pairs; no second bye while a player alive has had none, the bye to the
lowest eligible unless that costs a rematch; whole elimination events: out exactly
at N losses, nobody out plays again, one champion; the same inputs, the same pairing.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.errors import FormatError
from tournament.formats.pairing import NoLegalPairing, PairingResult, weighted_pairings
from tournament.formats.swiss_elimination import (
    EliminationRecord,
    check_losses,
    elimination_pairings,
    elimination_places,
    elimination_records,
    is_over,
)

type Pairs = set[frozenset[int]]


def matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


@st.composite
def rounds_to_pair(draw: st.DrawFn) -> dict[str, object]:
    n = draw(st.integers(min_value=2, max_value=8))
    players = draw(st.permutations(list(range(1, n + 1))))
    scores = {p: draw(st.integers(min_value=0, max_value=2)) for p in players}
    pairs = [frozenset(p) for p in itertools.combinations(players, 2)]
    played = {p for p in pairs if draw(st.integers(0, 2)) == 0}
    forbidden = {p for p in pairs if draw(st.integers(0, 5)) == 0}
    avoid = {p for p in pairs if p not in forbidden and draw(st.integers(0, 4)) == 0}
    had_bye = {p for p in players if draw(st.integers(0, 3)) == 0}
    window = draw(st.sampled_from([1, 2, 8]))
    return {
        "players": list(players),
        "scores": scores,
        "played": played,
        "forbidden": forbidden,
        "avoid": avoid,
        "had_bye": had_bye,
        "window": window,
    }


def as_pairs(pairs: Pairs) -> list[tuple[int, int]]:
    return [(min(p), max(p)) for p in sorted(pairs, key=sorted)]


def cost(pairs: list[tuple[int, int]], played: Pairs, avoid: Pairs) -> tuple[int, int]:
    return (
        sum(frozenset(p) in played for p in pairs),
        sum(frozenset(p) in avoid for p in pairs),
    )


@settings(max_examples=400, deadline=None)
@given(rounds_to_pair())
def test_weighted_pairing_against_brute_force(case: dict) -> None:  # type: ignore[type-arg]
    players: list[int] = case["players"]
    played, forbidden, avoid = case["played"], case["forbidden"], case["avoid"]
    had_bye: set[int] = case["had_bye"]
    ranking = sorted(players, key=lambda p: (-case["scores"][p], players.index(p)))
    eligible = [p for p in ranking if p not in had_bye] or ranking
    bye_choices: list[int | None] = list(reversed(eligible)) if len(players) % 2 else [None]
    best: dict[int | None, tuple[int, int]] = {}
    for bye in bye_choices:
        rest = [p for p in players if p != bye]
        costs = [
            cost(m, played, avoid)
            for m in matchings(rest)
            if not any(frozenset(p) in forbidden for p in m)
        ]
        if costs:
            best[bye] = min(costs)
    try:
        result = weighted_pairings(
            players,
            scores=case["scores"],
            played=as_pairs(played),
            forbidden=as_pairs(forbidden),
            avoid=as_pairs(avoid),
            had_bye=had_bye,
            window=case["window"],
        )
    except NoLegalPairing as error:
        blocking = error.blocking
        assert not best, "a legal pairing existed"
        assert blocking
        assert all(frozenset(p) in forbidden for p in blocking)
        return
    assert best, "no legal pairing exists, yet one was returned"
    seen = [p for pair in result.pairings for p in pair] + (
        [result.bye] if result.bye is not None else []
    )
    assert sorted(seen) == sorted(players)
    assert (result.bye is None) == (len(players) % 2 == 0)
    assert not any(frozenset(p) in forbidden for p in result.pairings)  # no absolute pair
    scores = case["scores"]
    lowest = min(scores[p] for p in eligible)

    def key(bye: int | None) -> tuple[float, int, int, int]:
        group = 0.0 if bye is None else scores[bye] - lowest  # one of the lowest records
        rank = 0 if bye is None else bye_choices.index(bye)
        return (group, *best[bye], rank)

    chosen = min(best, key=key)
    # The bye to one of the lowest records, then no avoidable rematch, then the fewest
    # avoided pairs, then the bye to the lowest ranked.
    assert cost(list(result.pairings), played, avoid) == best[chosen]
    assert set(result.rematches) == {p for p in result.pairings if frozenset(p) in played}
    assert set(result.avoided) == {p for p in result.pairings if frozenset(p) in avoid}
    assert result.bye == chosen
    if len(players) % 2:
        assert result.bye in eligible  # no second bye while someone has had none
    for a, b in result.pairings:
        assert ranking.index(a) < ranking.index(b)  # board order


@settings(max_examples=100, deadline=None)
@given(rounds_to_pair())
def test_deterministic(case: dict) -> None:  # type: ignore[type-arg]
    args = {
        "scores": case["scores"],
        "had_bye": case["had_bye"],
        "window": case["window"],
    }
    try:
        first = weighted_pairings(
            case["players"],
            played=as_pairs(case["played"]),
            avoid=as_pairs(case["avoid"]),
            **args,
        )
    except NoLegalPairing:  # pragma: no cover - nothing forbidden here
        raise
    again = weighted_pairings(
        list(case["players"]),
        played=[(b, a) for a, b in reversed(as_pairs(case["played"]))],
        avoid=[(b, a) for a, b in as_pairs(case["avoid"])],
        **args,
    )
    assert first == again


def test_round_one_is_the_fold_and_board_order() -> None:
    assert weighted_pairings(list(range(1, 11))).pairings == (
        (1, 6),
        (2, 7),
        (3, 8),
        (4, 9),
        (5, 10),
    )


def test_blocking_prohibitions_are_named() -> None:
    with pytest.raises(NoLegalPairing) as error:
        weighted_pairings([1, 2], forbidden=[(1, 2)])
    assert error.value.blocking == ((1, 2),)
    assert error.value.code == "no-legal-pairing"
    # Three players, a bye: 1 can meet nobody but 3, who has to take the bye.
    with pytest.raises(NoLegalPairing) as error:
        weighted_pairings([1, 2, 3], forbidden=[(1, 2), (1, 3)], had_bye={1})
    assert {frozenset(p) for p in error.value.blocking} <= {frozenset({1, 2}), frozenset({1, 3})}
    assert error.value.blocking


def test_bad_input() -> None:
    with pytest.raises(FormatError):
        weighted_pairings([1, 2], scores={1: 0})
    with pytest.raises(FormatError):
        weighted_pairings([1, 1])
    with pytest.raises(FormatError):
        weighted_pairings([1, 2], window=0)
    for bad in (1, 7, True, "3", None):
        with pytest.raises(FormatError):
            check_losses(bad)


def play_event(
    n: int,
    losses: int,
    seed: int,
    *,
    forbidden: list[tuple[int, int]] | None = None,
) -> tuple[dict[int, EliminationRecord], list[PairingResult], list[list[tuple[int, int | None]]]]:
    """A whole elimination Swiss with random results, checking every round."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    rounds: list[list[tuple[int, int | None]]] = []
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    bye_count: Counter[int] = Counter()
    pairings: list[PairingResult] = []
    forbidden = forbidden or []
    records = elimination_records(players, rounds, losses_to_eliminate=losses)
    for _ in range(10 * n * losses):
        if is_over(records):
            break
        alive = [p for p in players if records[p].alive]
        before = dict(records)
        result = elimination_pairings(
            players, records, played=played, byes=dict(bye_count), forbidden=forbidden
        )
        pairings.append(result)
        paired = [p for pair in result.pairings for p in pair]
        assert sorted(paired + ([result.bye] if result.bye else [])) == alive
        for pair in result.pairings:
            assert tuple(sorted(pair)) not in {tuple(sorted(f)) for f in forbidden}
        if result.bye is not None:
            # No second bye until every player alive has had one, no third before every
            # other has had a second: the bye to one of those with the fewest.
            assert result.bye not in byes or all(p in byes for p in alive)
            fewest = min(bye_count[p] for p in alive)
            assert bye_count[result.bye] == fewest
            eligible = [p for p in alive if bye_count[p] == fewest]
            lowest = min((-before[p].losses, before[p].wins) for p in eligible)
            if not forbidden:  # (an absolute prohibition may push the bye up)
                assert (-before[result.bye].losses, before[result.bye].wins) == lowest
            byes.append(result.bye)
            bye_count[result.bye] += 1
        results: list[tuple[int, int | None]] = []
        for a, b in result.pairings:
            played.append((a, b))
            results.append((a, b) if rng.random() < 0.5 else (b, a))
        if result.bye is not None:
            results.append((result.bye, None))
        rounds.append(results)
        records = elimination_records(players, rounds, losses_to_eliminate=losses)
        number = len(rounds)
        for p in players:
            r = records[p]
            # Out exactly at N losses, in the round of the N-th loss; nobody out plays.
            assert r.alive == (r.losses < losses)
            assert r.losses <= losses
            if not before[p].alive:
                assert r == before[p]
            elif not r.alive:
                assert r.eliminated_in_round == number
        for winner, _ in results:
            assert before[winner].alive
    assert is_over(records)
    return records, pairings, rounds


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=40),
    losses=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_whole_elimination_events(n: int, losses: int, seed: int) -> None:
    records, pairings, _ = play_event(n, losses, seed)
    champions = [p for p, r in records.items() if r.alive]
    assert len(champions) == 1  # one champion
    places = elimination_places(records)
    assert places[champions[0]].best == places[champions[0]].worst == 1
    assert sorted(p.best for p in places.values())[0] == 1
    # Rematches only while unavoidable: no rematch-free pairing of that round existed
    # (checked by the brute-force test above); here, far fewer rounds than players.
    if n >= 16:
        assert sum(len(r.rematches) for r in pairings[: losses + 1]) == 0


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(min_value=4, max_value=24),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_whole_events_with_forbidden_pairs(n: int, seed: int) -> None:
    rng = random.Random(seed)
    forbidden = [
        (a, b) for a, b in itertools.combinations(range(1, n + 1), 2) if rng.random() < 0.1
    ]
    try:
        records, _, _ = play_event(n, 3, seed, forbidden=forbidden)
    except NoLegalPairing as error:
        blocking = error.blocking
        assert blocking
        assert {frozenset(p) for p in blocking} <= {frozenset(p) for p in forbidden}
        return
    assert sum(r.alive for r in records.values()) == 1


def test_places_follow_the_round_of_elimination_then_the_record() -> None:
    records, _, rounds = play_event(32, 3, seed=7)
    places = elimination_places(records)
    ordered = sorted(records, key=lambda p: places[p].best)
    for better, worse in itertools.pairwise(ordered):
        rb, rw = records[better], records[worse]
        out_b = rb.eliminated_in_round or len(rounds) + 1
        out_w = rw.eliminated_in_round or len(rounds) + 1
        assert (out_b, rb.wins, -rb.losses) >= (out_w, rw.wins, -rw.losses)
    assert Counter(p.best for p in places.values())[1] == 1


def test_records_refuse_a_player_out_playing_again() -> None:
    with pytest.raises(FormatError):
        elimination_records([1, 2], [[(1, 2)], [(1, 2)], [(1, 2)]], losses_to_eliminate=2)


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=9),
    losses=st.integers(min_value=4, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_byes_are_counted_per_player(n: int, losses: int, seed: int) -> None:
    """Small fields and many lives give many byes: once every player alive has had one,
    nobody has a third before every other player alive has had a second (``play_event``
    checks each bye against the counts)."""
    _, pairings, _ = play_event(n, losses, seed)
    given_byes = Counter(r.bye for r in pairings if r.bye is not None)
    assert sum(given_byes.values()) == sum(r.bye is not None for r in pairings)


def test_a_third_bye_waits_for_every_second() -> None:
    records = {p: EliminationRecord(2, 1, None) for p in (1, 2, 3)}
    # 1 and 2 have had two byes, 3 (ranked first) one: 3 has the next, though every
    # player has had one and the bye would otherwise go to the lowest ranked.
    result = elimination_pairings([3, 1, 2], records, byes={1: 2, 2: 2, 3: 1})
    assert result.bye == 3
    result = elimination_pairings([1, 3, 2], records, byes={1: 1, 2: 2, 3: 2})
    assert result.bye == 1


def test_the_bye_to_the_lowest_record_before_a_rematch() -> None:
    """The bye rule is hard: 3 alone has the lowest record, so 1 and 2 meet again..."""
    result = weighted_pairings([1, 2, 3], scores={1: 1, 2: 1, 3: 0}, played=[(1, 2)])
    assert (result.pairings, result.bye, result.rematches) == (((1, 2),), 3, ((1, 2),))
    # ...but when a bye inside the lowest records avoids the rematch, it is taken.
    result = weighted_pairings([1, 2, 3], scores={1: 1, 2: 0, 3: 0}, played=[(1, 2)])
    assert (result.pairings, result.bye, result.rematches) == (((1, 3),), 2, ())


@settings(max_examples=300, deadline=None)
@given(rounds_to_pair())
def test_no_rematch_when_a_lowest_record_bye_avoids_it(case: dict) -> None:  # type: ignore[type-arg]
    """Whenever some pairing with the bye to one of the lowest records (of the players
    who may have it) has no rematch, the pairing made has none (forbidden pairs aside)."""
    players: list[int] = case["players"]
    if len(players) % 2 == 0:
        players = players[:-1]
    if len(players) < 3:
        return
    scores = case["scores"]
    played = case["played"]
    eligible = [p for p in players if p not in case["had_bye"]] or players
    lowest = min(scores[p] for p in eligible)
    clean_exists = any(
        not any(frozenset(pair) in played for pair in m)
        for bye in eligible
        if scores[bye] == lowest
        for m in matchings([p for p in players if p != bye])
    )
    result = weighted_pairings(
        players,
        scores=scores,
        played=as_pairs(played),
        had_bye=case["had_bye"],
        window=case["window"],
    )
    assert scores[result.bye] == lowest
    if clean_exists:
        assert result.rematches == ()
