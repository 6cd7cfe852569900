"""Swiss pairing: score groups folded top half against bottom half, no avoidable rematch.

Players are ranked by score, then by the order the caller gives (its standings
or seeding). Pairing runs down that ranking: the best player not yet paired takes,
within its score group, the player half a group below (top half against bottom
half: in a group of 8, 1 meets 5, 2 meets 6...); the odd player of a group floats
down and meets the top of the next group. Round 1 (everybody on 0) is the fold of
the whole field.

Hard rules, in order of priority:

1. At most one bye per player: with an odd field the bye goes to a player who has
   not had one (only when everybody has had one does a second bye happen).
2. No rematch while a rematch-free pairing of the round exists; when none exists,
   the fewest rematches possible.
3. The bye goes to the lowest-ranked player without one, unless that would force a
   rematch that another choice avoids.

Rule 2 is kept by lookahead rather than by trial and error: before a pair is
accepted, a maximum-matching oracle (``matching``) checks that everyone left can
still be paired with no more rematches than the minimum. So the result is the
preferred pairing, pair by pair down the ranking, among the rematch-free ones;
it never backtracks and stays fast (512 players in a few tens of milliseconds).
The same inputs always give the same pairing.

>>> r = swiss_pairings([1, 2, 3, 4, 5, 6, 7, 8])
>>> r.pairings
((1, 5), (2, 6), (3, 7), (4, 8))
>>> scores = {1: 1, 5: 0, 2: 1, 6: 0, 3: 1, 7: 0, 4: 1, 8: 0}
>>> swiss_pairings([1, 2, 3, 4, 5, 6, 7, 8], scores=scores,
...                played=[(1, 5), (2, 6), (3, 7), (4, 8)]).pairings
((1, 3), (2, 4), (5, 7), (6, 8))
>>> swiss_pairings([1, 2, 3], played=[(1, 2)]).as_pairings()
[(1, 3), (2, None)]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournament.formats.errors import FormatError
from tournament.formats.matching import Matcher
from tournament.formats.slots import BYE, EntrantId, Pairing, check_unique


@dataclass(frozen=True)
class SwissRound:
    """One round's pairings in board order (better-ranked player first), and the bye."""

    pairings: tuple[tuple[EntrantId, EntrantId], ...]
    bye: EntrantId | None
    rematches: tuple[tuple[EntrantId, EntrantId], ...]
    """The pairs that have met before: empty unless no rematch-free pairing exists."""

    def as_pairings(self) -> list[Pairing]:
        """The pairings with the bye, if any, last as ``(player, BYE)``."""
        result: list[Pairing] = list(self.pairings)
        if self.bye is not None:
            result.append((self.bye, BYE))
        return result


def swiss_pairings(
    ranked: Sequence[EntrantId],
    *,
    scores: Mapping[EntrantId, float] | None = None,
    played: Iterable[tuple[EntrantId, EntrantId]] = (),
    had_bye: Collection[EntrantId] = (),
) -> SwissRound:
    """Pair the next round.

    ``ranked``: the players to pair, best first (standings order; seeding in round 1).
    ``scores``: each player's score (missing means 0 only when no scores are given).
    ``played``: pairs that have already met (players no longer in the event are ignored).
    ``had_bye``: players who have already had a bye.
    """
    players = check_unique(ranked, field="ranked")
    if scores is None:
        scores = dict.fromkeys(players, 0.0)
    missing = [p for p in players if p not in scores]
    if missing:
        raise FormatError(
            f"no score for player(s) {missing[:5]}", code="missing-score", field="scores"
        )
    position = {p: k for k, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-scores[p], position[p]))
    index = {p: k for k, p in enumerate(order)}
    score = [float(scores[p]) for p in order]
    n = len(order)
    met: list[set[int]] = [set() for _ in range(n)]
    for a, b in played:
        if a in index and b in index and a != b:
            met[index[a]].add(index[b])
            met[index[b]].add(index[a])
    allowed = [[u for u in range(n) if u != v and u not in met[v]] for v in range(n)]

    remaining = list(range(n))
    matcher = Matcher(allowed, start=_greedy_start(remaining, score, met))
    bye: int | None = None
    if n % 2:
        bye = _choose_bye(remaining, [order[v] in had_bye for v in range(n)], matcher)
        remaining.remove(bye)

    pairs: list[tuple[int, int]] = []
    rematches: list[tuple[int, int]] = []
    while remaining:
        top = remaining[0]
        partner = _best_partner(top, remaining, score, met, matcher)
        pairs.append((top, partner))
        if partner in met[top]:
            rematches.append((top, partner))
        remaining.remove(top)
        remaining.remove(partner)
    return SwissRound(
        pairings=tuple((order[a], order[b]) for a, b in pairs),
        bye=None if bye is None else order[bye],
        rematches=tuple((order[a], order[b]) for a, b in rematches),
    )


def _preferences(top: int, remaining: Sequence[int], score: Sequence[float]) -> list[int]:
    """Who ``top`` (the best player left) would rather meet, best choice first.

    Its score group folded (the player half a group below first, then further down
    the bottom half, then up the top half), then the lower groups in ranking order.
    """
    size = 1
    while size < len(remaining) and score[remaining[size]] == score[top]:
        size += 1
    if size == 1:
        return list(remaining[1:])
    half = size // 2
    group = remaining[:size]
    return [*group[half:], *group[half - 1 : 0 : -1], *remaining[size:]]


def _greedy_start(
    remaining: Sequence[int], score: Sequence[float], met: list[set[int]]
) -> list[int]:
    """The pairing the preferences give when lookahead is ignored: a matching to start from."""
    left = list(remaining)
    start: list[int] = []
    while len(left) > 1:
        top = left.pop(0)
        for candidate in _preferences(top, [top, *left], score):
            if candidate not in met[top]:
                start += [top, candidate]
                left.remove(candidate)
                break
    return start


def _choose_bye(remaining: Sequence[int], had_bye: Sequence[bool], matcher: Matcher) -> int:
    """The lowest-ranked player without a bye whose absence leaves a best-possible pairing."""
    eligible = [v for v in reversed(remaining) if not had_bye[v]] or list(reversed(remaining))
    best = matcher.size
    for v in eligible:
        state = matcher.snapshot()
        if matcher.remove(v) == best:
            return v
        matcher.restore(state)
    matcher.remove(eligible[0])
    return eligible[0]


def _best_partner(
    top: int,
    remaining: Sequence[int],
    score: Sequence[float],
    met: list[set[int]],
    matcher: Matcher,
) -> int:
    """The most preferred partner that keeps the round's rematches at their minimum."""
    preferences = _preferences(top, remaining, score)
    fresh = [q for q in preferences if q not in met[top]]
    if 2 * matcher.size == len(remaining):
        # A rematch-free pairing of everyone left exists: keep it so.
        first = fresh[0]
        if matcher.mate[top] == first:
            matcher.remove_pair(top, first)
            return first
        if matcher.remove_pair_quickly(top, first):
            return first
        keeps_perfect = matcher.perfect_partners(top)
        partner = next(q for q in fresh if keeps_perfect[q])
        matcher.remove_pair(top, partner)
        return partner
    # Rematches are unavoidable. With m the most rematch-free pairs among the players
    # left, a rematch-free pair must leave m - 1 for the others, a rematch m.
    again = [q for q in preferences if q in met[top]]
    best = matcher.size
    for candidate, needed in [(q, best - 1) for q in fresh] + [(q, best) for q in again]:
        state = matcher.snapshot()
        if matcher.remove_pair(top, candidate) == needed:
            return candidate
        matcher.restore(state)
    raise AssertionError("a minimum-rematch pairing always exists")  # pragma: no cover
