"""Swiss pairing: score groups, no avoidable rematch, one bye each, determinism."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.errors import FormatError
from tournament.formats.matching import Matcher
from tournament.formats.swiss import SwissRound, swiss_pairings


def perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def rematches(pairs: list[tuple[int, int]], played: set[frozenset[int]]) -> int:
    return sum(frozenset(p) in played for p in pairs)


@st.composite
def swiss_states(
    draw: st.DrawFn,
) -> tuple[list[int], dict[int, int], set[frozenset[int]], set[int]]:
    n = draw(st.integers(min_value=2, max_value=8))
    players = draw(st.permutations(list(range(1, n + 1))))
    scores = {p: draw(st.integers(min_value=0, max_value=3)) for p in players}
    pairs = [frozenset(p) for p in itertools.combinations(players, 2)]
    played = {p for p in pairs if draw(st.booleans())}
    had_bye = {p for p in players if draw(st.integers(0, 3)) == 0}
    return list(players), scores, played, had_bye


def check_basics(result: SwissRound, players: list[int]) -> None:
    seen = [p for pair in result.pairings for p in pair]
    if result.bye is not None:
        seen.append(result.bye)
    assert sorted(seen) == sorted(players)
    assert (result.bye is None) == (len(players) % 2 == 0)


@settings(max_examples=300, deadline=None)
@given(swiss_states())
def test_fewest_rematches_and_fair_bye(
    state: tuple[list[int], dict[int, int], set[frozenset[int]], set[int]],
) -> None:
    players, scores, played, had_bye = state
    pairs = [(min(p), max(p)) for p in played]
    result = swiss_pairings(players, scores=scores, played=pairs, had_bye=had_bye)
    check_basics(result, players)
    assert set(result.rematches) == {p for p in result.pairings if frozenset(p) in played}

    ranking = sorted(players, key=lambda p: (-scores[p], players.index(p)))
    eligible = [p for p in ranking if p not in had_bye] or ranking
    bye_choices: list[int | None] = list(reversed(eligible)) if len(players) % 2 else [None]
    # Brute force: the fewest rematches any pairing could have, for each bye choice.
    best_with: dict[int | None, int] = {}
    for bye in bye_choices:
        rest = [p for p in players if p != bye]
        best_with[bye] = min(rematches(m, played) for m in perfect_matchings(rest))
    fewest = min(best_with.values())
    assert len(result.rematches) == fewest
    if len(players) % 2:
        assert result.bye in eligible  # at most one bye while anyone has had none
        lowest = bye_choices[0]
        if best_with[lowest] == fewest:
            assert result.bye == lowest  # the lowest ranked, unless that forces a rematch
        else:
            later = [b for b in bye_choices if best_with[b] == fewest]
            assert result.bye == later[0]


@settings(max_examples=100, deadline=None)
@given(swiss_states())
def test_deterministic(
    state: tuple[list[int], dict[int, int], set[frozenset[int]], set[int]],
) -> None:
    players, scores, played, had_bye = state
    pairs = [(min(p), max(p)) for p in played]
    first = swiss_pairings(players, scores=scores, played=pairs, had_bye=had_bye)
    # The order and orientation of the played pairs do not matter either.
    flipped = [(b, a) for a, b in reversed(pairs)]
    assert first == swiss_pairings(
        list(players), scores=dict(scores), played=flipped, had_bye=set(had_bye)
    )


def simulate(n: int, rounds: int, seed: int) -> list[SwissRound]:
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    scores = dict.fromkeys(players, 0)
    played: list[tuple[int, int]] = []
    byes: set[int] = set()
    history = []
    for _ in range(rounds):
        result = swiss_pairings(players, scores=scores, played=played, had_bye=byes)
        history.append(result)
        for a, b in result.pairings:
            played.append((a, b))
            scores[rng.choice([a, b])] += 1
        if result.bye is not None:
            assert result.bye not in byes
            byes.add(result.bye)
            scores[result.bye] += 1
    return history


@pytest.mark.parametrize(
    ("n", "rounds"),
    [
        (3, 3),
        (5, 5),
        (7, 7),
        (9, 9),
        (15, 15),
        (21, 21),
        (8, 7),
        (16, 15),
        (33, 9),
        (64, 7),
        (101, 11),
    ],
)
def test_whole_events(n: int, rounds: int) -> None:
    """No rematch and at most one bye each, round after round, up to a full round robin."""
    history = simulate(n, rounds, seed=n)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for result in history:
        check_basics(result, list(range(1, n + 1)))
        assert result.rematches == ()
        met.update(frozenset(p) for p in result.pairings)
        if result.bye is not None:
            byes[result.bye] += 1
    assert set(met.values()) == {1}
    assert set(byes.values()) <= {1}


def test_score_groups_are_kept() -> None:
    """64 players, 6 rounds: a pair of different scores only where a group floats one down."""
    rng = random.Random(5)
    players = list(range(1, 65))
    scores = dict.fromkeys(players, 0)
    played: list[tuple[int, int]] = []
    for _ in range(6):
        result = swiss_pairings(players, scores=scores, played=played)
        groups = Counter(scores.values())
        mixed = sum(scores[a] != scores[b] for a, b in result.pairings)
        assert mixed <= sum(1 for size in groups.values() if size % 2) + 1
        for a, b in result.pairings:
            assert scores[a] >= scores[b]  # board order: the better-placed player first
            played.append((a, b))
            scores[rng.choice([a, b])] += 1


def test_round_one_is_the_fold() -> None:
    assert swiss_pairings(list(range(1, 11))).pairings == ((1, 6), (2, 7), (3, 8), (4, 9), (5, 10))


def test_floater_meets_the_top_of_the_next_group() -> None:
    scores = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 0}
    result = swiss_pairings(list(range(1, 9)), scores=scores)
    assert result.pairings == ((1, 2), (3, 4), (5, 6), (7, 8))


def test_rematch_avoided_by_transposing() -> None:
    result = swiss_pairings([1, 2, 3, 4], played=[(1, 3)])
    assert result.pairings == ((1, 4), (2, 3))


def test_unavoidable_rematch_is_reported() -> None:
    result = swiss_pairings([1, 2], played=[(1, 2)])
    assert result.pairings == ((1, 2),)
    assert result.rematches == ((1, 2),)


def test_bye_goes_to_the_lowest_without_one() -> None:
    scores = {1: 2, 2: 1, 3: 1, 4: 0, 5: 0}
    assert swiss_pairings([1, 2, 3, 4, 5], scores=scores).bye == 5
    assert swiss_pairings([1, 2, 3, 4, 5], scores=scores, had_bye={5}).bye == 4
    assert swiss_pairings([1, 2, 3, 4, 5], scores=scores, had_bye={1, 2, 3, 4, 5}).bye == 5


def test_bad_input() -> None:
    with pytest.raises(FormatError) as err:
        swiss_pairings([1, 2, 3], scores={1: 0, 2: 0})
    assert err.value.code == "missing-score"
    with pytest.raises(FormatError):
        swiss_pairings([1, 1])
    for bad in (float("nan"), "3", None, True):
        with pytest.raises(FormatError) as err:
            swiss_pairings([1, 2], scores={1: 0, 2: bad})  # type: ignore[dict-item]
        assert err.value.code == "bad-score"


# The matching oracle against brute force.


def brute_max_matching(n: int, edges: set[tuple[int, int]]) -> int:
    best = 0
    edge_list = sorted(edges)
    for k in range(n // 2, 0, -1):
        for subset in itertools.combinations(edge_list, k):
            ends = [v for e in subset for v in e]
            if len(set(ends)) == len(ends):
                return k
    return best


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, set[tuple[int, int]]]:
    n = draw(st.integers(min_value=1, max_value=9))
    edges = {e for e in itertools.combinations(range(n), 2) if draw(st.booleans())}
    return n, edges


def adjacency(n: int, edges: set[tuple[int, int]]) -> list[list[int]]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in sorted(edges):
        adj[a].append(b)
        adj[b].append(a)
    return adj


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_matcher_is_maximum_and_stays_so(
    graph: tuple[int, set[tuple[int, int]]], data: st.DataObject
) -> None:
    n, edges = graph
    matcher = Matcher(adjacency(n, edges))
    assert matcher.size == brute_max_matching(n, edges)
    for v in range(n):
        if matcher.mate[v] != -1:
            assert matcher.mate[matcher.mate[v]] == v
            assert tuple(sorted((v, matcher.mate[v]))) in edges
    alive = list(range(n))
    while len(alive) >= 2:
        a, b = data.draw(st.permutations(alive))[:2]
        alive.remove(a)
        alive.remove(b)
        left = {e for e in edges if e[0] in alive and e[1] in alive}
        relabel = {v: k for k, v in enumerate(alive)}
        expected = brute_max_matching(len(alive), {(relabel[x], relabel[y]) for x, y in left})
        assert matcher.remove_pair(a, b) == expected


@settings(max_examples=200, deadline=None)
@given(graphs())
def test_perfect_partners(graph: tuple[int, set[tuple[int, int]]]) -> None:
    n, edges = graph
    matcher = Matcher(adjacency(n, edges))
    if n % 2 or 2 * matcher.size != n:
        return
    for v in range(n):
        ok = matcher.perfect_partners(v)
        for u in range(n):
            if u == v or tuple(sorted((u, v))) not in edges:
                continue
            rest = [w for w in range(n) if w not in (u, v)]
            relabel = {w: k for k, w in enumerate(rest)}
            left = {(relabel[x], relabel[y]) for x, y in edges if x in relabel and y in relabel}
            assert ok[u] == (brute_max_matching(len(rest), left) == len(rest) // 2)
