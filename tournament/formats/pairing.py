"""Pairing a round as a maximum-weight matching over a sparse graph (networkx).

Used where a round is paired from the standings and pairs can be forbidden: the
elimination Swiss always, and the Swiss when its event has forbidden pairings (the
plain Swiss keeps the lookahead pairing of ``swiss``, which it matches exactly).

The players (best first) are the vertices; an odd field adds a ``BYE`` vertex. An
edge is a pair that may be made, and its weight says how good it is. The weight is
a lexicographic sum of penalties, each tier worth more than all the tiers below it
together, so that the heaviest perfect matching is, in order:

1. without an absolute prohibition: such a pair has no edge at all (when no perfect
   matching exists without them, ``NoLegalPairing`` names the prohibitions in the
   way, found by giving them back edges of a weight above every other tier);
2. the bye to one of the lowest records: to a player of the lowest score group
   among those who may have a bye (only they have a bye edge): those who have not
   had one, unless every player has; with ``bye_counts``, those with the fewest
   byes. This rule is hard: it stands above the rematches, so a bye never goes up
   to a better record to save a rematch;
3. with the fewest rematches: among the pairings that give the bye to one of the
   lowest records, one without a rematch whenever such a pairing exists (the bye
   moves inside the lowest group to the player whose bye avoids it);
4. with the fewest "avoid" pairs (a prohibition of strength ``avoid``), and the bye
   to the lowest-ranked of those eligible players;
5. with the closest records: the sum over the pairs of the squared distance between
   their score groups;
6. the fold: inside a score group the top half meets the bottom half (1-5, 2-6, ...
   in a group of 8); a player floating down meets the top of the next group.

The graph is sparse: each player has edges to the next ``window`` players of the
ranking, and further down until it has ``window`` partners free of rematches and
prohibitions; the bye to the ``window`` lowest eligible players. When the matching of
that graph is perfect and has no rematch, no avoided pair and the bye at the lowest
eligible player, tiers 1-4 are at their optimum and it stands; otherwise the window
is widened, up to the complete graph, whose matching is optimal on every tier. So a
round of 512 players takes well under a second (``bench/bench_pairing.py``) and the
same inputs always give the same pairing.

>>> r = weighted_pairings([1, 2, 3, 4, 5, 6, 7, 8])
>>> r.pairings
((1, 5), (2, 6), (3, 7), (4, 8))
>>> weighted_pairings([1, 2, 3, 4], forbidden=[(1, 3)]).pairings
((1, 2), (3, 4))
>>> weighted_pairings([1, 2, 3], played=[(2, 3)]).as_pairings()
[(1, 2), (3, None)]

The bye to the lowest record before the rematch: 3 alone has the lowest record, so
1 and 2 meet again; with 2 and 3 both on the lowest record, 2 takes the bye instead
and nobody meets twice:

>>> weighted_pairings([1, 2, 3], scores={1: 1, 2: 1, 3: 0}, played=[(1, 2)]).as_pairings()
[(1, 2), (3, None)]
>>> weighted_pairings([1, 2, 3], scores={1: 1, 2: 0, 3: 0}, played=[(1, 2)]).as_pairings()
[(1, 3), (2, None)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import isfinite

import networkx as nx

from tournament.formats.errors import FormatError
from tournament.formats.slots import BYE, EntrantId, Pairing, check_unique

#: Each player's partners in the sparse graph, before widening.
DEFAULT_WINDOW = 8

type Pair = tuple[EntrantId, EntrantId]
type Progress = Callable[[str], None]


@dataclass(frozen=True)
class PairingResult:
    """One round's pairings in board order (better-ranked player first), and the bye."""

    pairings: tuple[Pair, ...]
    bye: EntrantId | None
    rematches: tuple[Pair, ...]
    """The pairs that have met before: empty unless no rematch-free pairing exists."""
    avoided: tuple[Pair, ...]
    """The pairs under an "avoid" prohibition that had to be made."""

    def as_pairings(self) -> list[Pairing]:
        """The pairings with the bye, if any, last as ``(player, BYE)``."""
        result: list[Pairing] = list(self.pairings)
        if self.bye is not None:
            result.append((self.bye, BYE))
        return result


class NoLegalPairing(FormatError):
    """No pairing of the round keeps every absolute prohibition."""

    def __init__(self, blocking: Sequence[Pair]) -> None:
        self.blocking = tuple(blocking)
        names = ", ".join(f"{a}-{b}" for a, b in self.blocking)
        super().__init__(
            f"no pairing of the round keeps every forbidden pair; relax one of: {names}",
            code="no-legal-pairing",
            field="forbidden",
        )


def weighted_pairings(
    ranked: Sequence[EntrantId],
    *,
    scores: Mapping[EntrantId, float] | None = None,
    played: Iterable[Pair] = (),
    had_bye: Collection[EntrantId] = (),
    bye_counts: Mapping[EntrantId, int] | None = None,
    forbidden: Iterable[Pair] = (),
    avoid: Iterable[Pair] = (),
    window: int = DEFAULT_WINDOW,
    progress: Progress | None = None,
) -> PairingResult:
    """Pair the next round (see the module's rules).

    ``ranked``: the players to pair, best first. ``scores``: higher is better (all 0
    when not given); the score groups are the distinct scores. ``played``: pairs that
    have met. ``had_bye``: players who have had a bye; or ``bye_counts``, how many
    byes each player has had (it replaces ``had_bye``): only the players with the
    fewest may get the next one, so nobody has a third bye before every other player
    has had a second. ``forbidden``: pairs never to be made while a pairing without
    them exists; ``avoid``: pairs made only when that saves a rematch (or an absolute
    prohibition). Pairs naming a player not in ``ranked`` are ignored. ``progress``
    is told each widening of the graph.
    """
    players = check_unique(ranked, field="ranked")
    if bye_counts is not None:
        had_bye = more_byes_than_the_fewest(players, bye_counts)
    if scores is None:
        scores = dict.fromkeys(players, 0.0)
    for p in players:
        value = scores.get(p)
        if value is None:
            raise FormatError(f"no score for player {p}", code="missing-score", field="scores")
        if isinstance(value, bool) or not isinstance(value, int | float) or not isfinite(value):
            raise FormatError(
                f"player {p}: a score is a finite number, got {value!r}",
                code="bad-score",
                field="scores",
            )
    if window < 1:
        raise FormatError("the window is at least 1", code="bad-window", field="window")
    position = {p: k for k, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-scores[p], position[p]))
    problem = _Problem(order, scores, played, had_bye, forbidden, avoid)
    size = window
    while True:
        full = size >= len(order)
        if progress is not None:
            progress(f"pairing {len(order)} players, {'every pair' if full else f'window {size}'}")
        result = problem.solve(size)
        if result is not None and (full or problem.optimal(result)):
            return problem.result(result)
        if full:
            raise NoLegalPairing(problem.blocking())
        size *= 4


def more_byes_than_the_fewest(
    players: Sequence[EntrantId], bye_counts: Mapping[EntrantId, int]
) -> set[EntrantId]:
    """The players who may not get the next bye: those with more byes than the fewest
    any player of ``players`` has had.

    >>> sorted(more_byes_than_the_fewest([1, 2, 3], {1: 2, 2: 1, 3: 1}))
    [1]
    >>> more_byes_than_the_fewest([1, 2], {1: 1, 2: 1})
    set()
    """
    if not players:
        return set()
    fewest = min(bye_counts.get(p, 0) for p in players)
    return {p for p in players if bye_counts.get(p, 0) > fewest}


type _Mates = dict[int, int]

_BYE_VERTEX = -1


class _Problem:
    """The round in rank indexes (0 is the best player), with its weights."""

    def __init__(
        self,
        order: list[EntrantId],
        scores: Mapping[EntrantId, float],
        played: Iterable[Pair],
        had_bye: Collection[EntrantId],
        forbidden: Iterable[Pair],
        avoid: Iterable[Pair],
    ) -> None:
        self.order = order
        n = self.n = len(order)
        index = {p: k for k, p in enumerate(order)}

        def pairs(source: Iterable[Pair]) -> set[tuple[int, int]]:
            result = set()
            for a, b in source:
                if a in index and b in index and a != b:
                    i, j = sorted((index[a], index[b]))
                    result.add((i, j))
            return result

        self.met = pairs(played)
        self.forbidden = pairs(forbidden)
        self.avoid = pairs(avoid) - self.forbidden
        distinct = sorted({float(scores[p]) for p in order}, reverse=True)
        group_of = {s: g for g, s in enumerate(distinct)}
        self.group = [group_of[float(scores[p])] for p in order]
        starts: dict[int, int] = {}
        sizes: dict[int, int] = {}
        for k, g in enumerate(self.group):
            starts.setdefault(g, k)
            sizes[g] = sizes.get(g, 0) + 1
        self.local = [k - starts[g] for k, g in enumerate(self.group)]
        self.size_of = [sizes[g] for g in self.group]
        eligible = [k for k in range(n) if order[k] not in had_bye] or list(range(n))
        self.eligible = list(reversed(eligible))  # lowest ranked first
        self.bye_groups = {
            g: d for d, g in enumerate(sorted({self.group[k] for k in eligible}, reverse=True))
        }
        self.needs_bye = n % 2 == 1
        # The tiers, lowest first: each weighs more than everything below it together.
        groups = len(distinct)
        half = n // 2 + 2
        self.w_closeness = 2 * n * n + 1
        self.w_bye = (half * groups * groups + 1) * self.w_closeness
        self.w_avoid = (n + 1) * self.w_bye
        self.w_rematch = half * self.w_avoid
        self.w_bye_group = half * self.w_rematch
        self.w_forbidden = (n + 1) * self.w_bye_group
        self.base = half * self.w_forbidden

    def weight(self, i: int, j: int, *, allow_forbidden: bool = False) -> int | None:
        """The weight of the pair ``i`` < ``j`` (``None``: no edge)."""
        penalty = 0
        if (i, j) in self.forbidden:
            if not allow_forbidden:
                return None
            penalty += self.w_forbidden
        if (i, j) in self.met:
            penalty += self.w_rematch
        if (i, j) in self.avoid:
            penalty += self.w_avoid
        gi, gj = self.group[i], self.group[j]
        penalty += (gj - gi) ** 2 * self.w_closeness
        if gi == gj:
            penalty += abs(self.local[j] - self.local[i] - self.size_of[i] // 2)
        else:  # the lowest of the upper group meets the top of the lower one
            penalty += (self.size_of[i] - 1 - self.local[i]) + self.local[j]
        return self.base - penalty

    def clean(self, i: int, j: int) -> bool:
        key = (i, j) if i < j else (j, i)
        return key not in self.met and key not in self.forbidden and key not in self.avoid

    def graph(self, window: int, *, allow_forbidden: bool = False) -> nx.Graph:
        n = self.n
        g = nx.Graph()
        g.add_nodes_from(range(n))
        for i in range(n):
            candidates: list[int] = []
            if window >= n:
                candidates = list(range(i + 1, n))
            else:
                # Around the fold partner inside the group, then down the ranking
                # until ``window`` partners are free of rematches and prohibitions.
                fold = i + self.size_of[i] // 2
                end = i - self.local[i] + self.size_of[i]
                near = range(max(i + 1, fold - window), min(end, fold + window + 1))
                candidates = list(near)
                clean = sum(self.clean(i, j) for j in candidates)
                j = i + 1
                while j < n and (j - i <= window or clean < window):
                    if j not in near:
                        candidates.append(j)
                        clean += self.clean(i, j)
                    j += 1
            for j in candidates:
                w = self.weight(i, j, allow_forbidden=allow_forbidden)
                if w is not None:
                    g.add_edge(i, j, weight=w)
        if self.needs_bye:
            for r, k in enumerate(self.eligible[: max(window, 1)] if window < n else self.eligible):
                penalty = self.bye_groups[self.group[k]] * self.w_bye_group + r * self.w_bye
                g.add_edge(_BYE_VERTEX, k, weight=self.base - penalty)
        return g

    def solve(self, window: int, *, allow_forbidden: bool = False) -> _Mates | None:
        g = self.graph(window, allow_forbidden=allow_forbidden)
        matching = nx.max_weight_matching(g, maxcardinality=True)
        mates: _Mates = {}
        for a, b in matching:
            mates[a], mates[b] = b, a
        if len(mates) != g.number_of_nodes():
            return None
        return mates

    def optimal(self, mates: _Mates) -> bool:
        """Whether tiers 1-4 are at their best (nothing a wider graph could improve)."""
        for a, b in mates.items():
            if a < b and a != _BYE_VERTEX and not self.clean(a, b):
                return False
        return not self.needs_bye or mates[_BYE_VERTEX] == self.eligible[0]

    def result(self, mates: _Mates) -> PairingResult:
        o = self.order
        pairs = sorted((a, b) for a, b in mates.items() if a < b and a != _BYE_VERTEX)
        bye = mates.get(_BYE_VERTEX)
        return PairingResult(
            pairings=tuple((o[a], o[b]) for a, b in pairs),
            bye=None if bye is None else o[bye],
            rematches=tuple((o[a], o[b]) for a, b in pairs if (a, b) in self.met),
            avoided=tuple((o[a], o[b]) for a, b in pairs if (a, b) in self.avoid),
        )

    def blocking(self) -> list[Pair]:
        """The absolute prohibitions a best pairing needs lifted (fewest first)."""
        mates = self.solve(self.n, allow_forbidden=True)
        if mates is None:  # pragma: no cover - the complete graph always pairs
            return []
        o = self.order
        return [(o[a], o[b]) for a, b in sorted(self.forbidden) if mates.get(a) == b]


def keep_apart_in_round_one[E](
    seeded: Sequence[E],
    apart: Collection[frozenset[E]],
    first_round: Callable[[Sequence[E]], Sequence[tuple[E | None, E | None]]],
) -> tuple[list[E], int]:
    """A bracket's seeding with the pairs of ``apart`` kept out of each other's round-1
    match where the draw allows: a player of such a match swaps places with the nearest
    seed whose move makes no new forbidden match. Returns the seeding and the number of
    swaps; pairs that cannot be separated stay (a bracket cannot keep anyone apart in
    later rounds).

    >>> from tournament.formats.single_elimination import first_round
    >>> keep_apart_in_round_one([1, 2, 3, 4], [frozenset({1, 4})], first_round)
    ([1, 2, 4, 3], 1)
    """
    order = list(seeded)
    swaps = 0

    def clashes(current: list[E]) -> list[tuple[E, E]]:
        return [
            (a, b)
            for a, b in first_round(current)
            if a is not None and b is not None and frozenset((a, b)) in apart
        ]

    for _ in range(len(order)):
        found = clashes(order)
        if not found:
            break
        a, b = found[0]
        i = order.index(b)
        best: list[E] | None = None
        for distance in range(1, len(order)):
            for j in (i + distance, i - distance):
                if 0 <= j < len(order) and order[j] != a:
                    trial = order.copy()
                    trial[i], trial[j] = trial[j], trial[i]
                    if len(clashes(trial)) < len(found):
                        best = trial
                        break
            if best is not None:
                break
        if best is None:
            break
        order = best
        swaps += 1
    return order, swaps
