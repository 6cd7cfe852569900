"""Swiss pairing: score groups folded top half against bottom half, no avoidable rematch.

Players are ranked by score, then by the order the caller gives (its standings
or seeding). Pairing runs down that ranking: the best player not yet paired takes,
within its score group, the player half a group below (top half against bottom
half: in a group of 8, 1 meets 5, 2 meets 6...); the odd player of a group floats
down and meets the top of the next group. Round 1 (everybody on 0) is the fold of
the whole field.

Rules, in order of priority:

1. At most one bye per player: with an odd field the bye goes to a player who has
   not had one (only when everybody has had one does a second bye happen).
2. No rematch while a rematch-free pairing of the round exists; when none exists,
   the fewest rematches possible.
3. The bye goes to the lowest-ranked player without one, unless that would force a
   rematch that another choice avoids.
4. As few players as possible leave their score group: a pair is kept inside the
   group whenever the rest of the group can still pair off as fully as before.
5. Then the fold order above.

Rules 2 and 4 are kept by lookahead rather than by trial and error: before a pair
is accepted, a maximum-matching oracle (``matching``) checks that everyone left can
still be paired with no more rematches than the minimum, and that the score group
keeps as many inner pairs as it can. So the pairing is built pair by pair down the
ranking, each player taking the best partner those checks allow; it never
backtracks, and a late round of 512 players takes well under a second (see
``bench/bench_formats.py``). The same inputs always give the same pairing.

When rematches cannot be avoided at all (only when the rounds approach the size
of the field) the search for the fewest rematches is much slower on large fields:
a round robin is the format for that.

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

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import isfinite

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
    for p in players:
        value = scores[p]
        if isinstance(value, bool) or not isinstance(value, int | float) or not isfinite(value):
            raise FormatError(
                f"player {p}: a score is a finite number, got {value!r}",
                code="bad-score",
                field="scores",
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
    group: _ScoreGroup | None = None
    while remaining:
        top = remaining[0]
        group_score = score[top] if len(remaining) < 2 else score[remaining[1]]
        if group is None or group.score != group_score or top not in group.local:
            # A new score group, or a player floating into it from above joins it.
            members = [v for v in remaining if score[v] == group_score or v == top]
            group = _ScoreGroup(group_score, members, allowed, matcher.mate)
        partner = _best_partner(top, remaining, score, met, matcher, group)
        group.discard(top, partner)
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


class _ScoreGroup:
    """The players of one score group still unpaired, and how many pairs they can make
    among themselves without a rematch: a pair is kept inside the group whenever it
    can be, so that only the players who must float down do."""

    def __init__(
        self, score: float, members: list[int], allowed: list[list[int]], mate: list[int]
    ) -> None:
        """``allowed``: the round's rematch-free pairs; ``mate``: the round's matching,
        whose pairs inside the group are the start of the group's own."""
        self.score = score
        self.local = set(members)
        start = [x for v in members if v < mate[v] and mate[v] in self.local for x in (v, mate[v])]
        self.matcher = Matcher(allowed, start=start, only=members)
        self._partners_of = _NOBODY
        self._partners: list[bool] = []

    def keeps_pairs(self, a: int, b: int) -> bool:
        """Whether pairing ``a`` with ``b`` leaves the group as many inner pairs as it can."""
        inside = [v for v in (a, b) if v in self.local]
        matcher = self.matcher
        if not inside:
            return True
        perfect = 2 * matcher.size == len(self.local)
        if len(inside) == 1:
            if matcher.mate[inside[0]] == -1:
                return True  # someone the best inner pairing leaves over anyway
            if perfect:
                return False  # a group that pairs off fully loses a pair
        elif matcher.mate[inside[0]] == inside[1]:
            return True
        if perfect and self._partners_of == inside[0]:
            return self._partners[inside[1]]
        needed = matcher.size - (1 if len(inside) == 2 else 0)
        state = matcher.snapshot()
        if matcher.remove_quickly(*inside, target=needed):
            matcher.restore(state)
            return True
        if perfect:
            x, y = inside
            if self._partners_of != x:
                self._partners_of, self._partners = x, matcher.perfect_partners(x)
            return self._partners[y]
        kept = matcher.remove(*inside) == needed
        matcher.restore(state)
        return kept

    def discard(self, *players: int) -> None:
        """The ``players`` are paired: take them out of the group."""
        inside = [v for v in players if v in self.local]
        self.local.difference_update(inside)
        if inside:
            self.matcher.remove(*inside)
            self._partners_of = _NOBODY


_NOBODY = -1


def _best_partner(
    top: int,
    remaining: Sequence[int],
    score: Sequence[float],
    met: list[set[int]],
    matcher: Matcher,
    group: _ScoreGroup,
) -> int:
    """The most preferred partner that keeps the round's rematches at their minimum and,
    among those, keeps the score group's inner pairs at their maximum."""
    preferences = _preferences(top, remaining, score)
    rematch_free = 2 * matcher.size == len(remaining)
    candidates = [q for q in preferences if q not in met[top]] if rematch_free else preferences
    allowed = _rematch_check(top, matcher, len(remaining), met[top])
    for keep_group in (True, False):
        for q in candidates:
            if allowed(q) and (not keep_group or group.keeps_pairs(top, q)):
                matcher.remove_pair(top, q)
                return q
    raise AssertionError("a minimum-rematch pairing always exists")  # pragma: no cover


def _rematch_check(top: int, matcher: Matcher, left: int, met: set[int]) -> Callable[[int], bool]:
    """Whether pairing ``top`` with a candidate keeps the round's rematches at their minimum.

    With ``m`` the most rematch-free pairs among the ``left`` players, a rematch-free
    pair must leave ``m - 1`` for the others, a rematch ``m``. Nothing is changed.
    """
    best = matcher.size
    perfect: list[bool] = []
    known: dict[int, bool] = {}

    def allowed(q: int) -> bool:
        if q not in known:
            known[q] = check(q)
        return known[q]

    def check(q: int) -> bool:
        if matcher.mate[top] == q:
            return True
        if perfect:
            return perfect[q]
        needed = best if q in met else best - 1
        state = matcher.snapshot()
        if matcher.remove_quickly(top, q, target=needed):
            matcher.restore(state)
            return True
        if 2 * best == left:  # a rematch-free pairing of everyone: one search answers all
            if not perfect:
                perfect.extend(matcher.perfect_partners(top))
            return perfect[q]
        kept = matcher.remove_pair(top, q) == needed
        matcher.restore(state)
        return kept

    return allowed
