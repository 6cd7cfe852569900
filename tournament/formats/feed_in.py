"""A bracket fed by the losers of another: the engine behind Consolation and losers brackets.

Losers of the first fed round of the main bracket pair off in round 1 (the losers
of main matches ``2k`` and ``2k + 1`` meet in match ``k``). Each later fed round ``r``
enters where the feed-in bracket has exactly as many survivors as main round ``r``
has losers: that round is a *feed round* in which every survivor (upper line) meets
a newly dropped main loser (lower line). Between feed rounds the survivors play
plain rounds. Fed rounds ``[1, 2]`` give: round 1 = main-1 losers, round 2 = round-1
winners against main-2 losers, then plain rounds to a final; fed rounds ``[1..k]``
of a ``2**k`` bracket give the classic double-elimination losers bracket.

Which survivor meets which dropped loser is chosen to avoid immediate rematches:
the dropped losers are laid against the survivors by a mask permutation
``survivor = loser_index XOR mask``, trying the reversal first (mask ``L - 1``), then
swapping halves (mask ``L / 2``), then every other mask, and keeping the first one
that least often lets a dropped loser meet a player it may already have beaten in
the main bracket. That is the usual "reverse, then swap halves" alternation of
double-elimination sheets, derived instead of tabulated, so it holds for any size.

Byes: a main round-1 match with a bye produces no loser, so its line here is a bye,
and a player facing one walks over. A round in which nobody would play (every
match a walkover or two byes) is left out: its players go straight to the lines
they would have reached, so the bracket is sized for the players who can fall into
it and never has a match with nobody in it (a *void*). Because the Main's byes go
to its top seeds, the main round-1 losers sit like a seeded field of their own,
and once a round has to be played every match in it has at least one player.
With 37 main entrants and rounds ``[1, 2]``, the five round-1 losers meet five of
the sixteen round-2 losers in round 1 here, and the other eleven have a bye.

>>> b = build_feed_in(main_entrants=8, fed_rounds=[1, 2])
>>> [len(r) for r in b.rounds]
[2, 2, 1]
>>> b.rounds[1][0]
FeedMatch(ref=MatchRef(round=2, index=0), upper=FromWinner(match=MatchRef(round=1, index=0)), \
lower=FromLoser(match=MatchRef(round=2, index=1)))
>>> b.loser_goes_to[MatchRef(2, 0)]
SlotRef(round=2, index=1, position=1)
>>> c = build_feed_in(main_entrants=37, fed_rounds=[1, 2])
>>> [len(r) for r in c.rounds], sum(m.is_walkover for m in c.rounds[0]), c.entry_rounds
([16, 8, 4, 2, 1], 11, {1: 1, 2: 1})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.formats.errors import FormatError
from tournament.formats.single_elimination import (
    bracket_size,
    distinct_round_names,
    seed_order,
)
from tournament.formats.slots import MatchRef, SlotRef


@dataclass(frozen=True)
class FromLoser:
    """The line is taken by the loser of ``match`` in the main (feeding) bracket."""

    match: MatchRef


@dataclass(frozen=True)
class FromWinner:
    """The line is taken by the winner of ``match`` in this bracket."""

    match: MatchRef


type Source = FromLoser | FromWinner | None
"""Who takes a line: a main loser, an earlier winner here, or nobody (``None``, a bye)."""


@dataclass(frozen=True)
class FeedMatch:
    """One match of the feed-in bracket and where its two players come from."""

    ref: MatchRef
    upper: Source
    lower: Source

    @property
    def is_void(self) -> bool:
        """Both lines are byes (``build_feed_in`` never makes such a match)."""
        return self.upper is None and self.lower is None

    @property
    def is_walkover(self) -> bool:
        """Exactly one line is a bye: its player goes through without playing."""
        return (self.upper is None) != (self.lower is None)


@dataclass(frozen=True)
class FeedInBracket:
    """The whole structure: rounds of matches and the routing of every loser and winner."""

    main_entrants: int
    fed_rounds: tuple[int, ...]
    rounds: tuple[tuple[FeedMatch, ...], ...]
    entry_rounds: Mapping[int, int]
    """Main round -> the round of this bracket its losers first play in."""
    loser_goes_to: Mapping[MatchRef, SlotRef]
    """Main match -> the line its loser takes here (main byes are absent)."""
    winner_goes_to: Mapping[MatchRef, SlotRef]
    """Match here -> the line its winner takes next (the final is absent)."""
    champion: Source
    """Who wins this bracket: the final's winner, or the lone entrant of a bracket with no match."""

    @property
    def final(self) -> MatchRef | None:
        """The last match, if the bracket has any."""
        return self.rounds[-1][0].ref if self.rounds else None

    @property
    def round_names(self) -> tuple[str, ...]:
        """Each round's name from its number of matches; distinct, though losers fed in
        can give two rounds as many matches: the last of them keeps the name, the earlier
        ones are called by their number ("Round 2", then "Quarter-final")."""
        return distinct_round_names([len(matches) for matches in self.rounds])

    def match(self, ref: MatchRef) -> FeedMatch:
        """The match at ``ref``."""
        return self.rounds[ref.round - 1][ref.index]


@dataclass(frozen=True)
class _Line:
    """A line waiting for its next match: who takes it and which main losers it may be."""

    source: Source
    origins: frozenset[MatchRef]


def main_round_one_byes(main_entrants: int) -> frozenset[int]:
    """Indices of the main round-1 matches that are byes (and so produce no loser).

    >>> sorted(main_round_one_byes(5))
    [0, 2, 3]
    """
    size = bracket_size(main_entrants)
    order = seed_order(size)
    return frozenset(
        k for k in range(size // 2) if max(order[2 * k], order[2 * k + 1]) > main_entrants
    )


def build_feed_in(*, main_entrants: int, fed_rounds: Sequence[int]) -> FeedInBracket:
    """Build the bracket fed by the losers of ``fed_rounds`` of a main bracket.

    ``main_entrants`` is the main field (byes follow from it); ``fed_rounds`` are main
    round numbers, any of ``1..rounds`` (the final included, as double elimination
    needs), in any order.
    """
    size = bracket_size(main_entrants)
    main_rounds = size.bit_length() - 1
    fed = _check_fed_rounds(fed_rounds, main_rounds)
    byes = main_round_one_byes(main_entrants)

    def main_loser(round_number: int, index: int) -> _Line:
        if round_number == 1 and index in byes:
            return _Line(None, frozenset())
        ref = MatchRef(round_number, index)
        return _Line(FromLoser(ref), frozenset({ref}))

    rounds: list[tuple[FeedMatch, ...]] = []
    loser_goes_to: dict[MatchRef, SlotRef] = {}
    winner_goes_to: dict[MatchRef, SlotRef] = {}
    entry_rounds: dict[int, int] = {}

    def play(pairs: list[tuple[_Line, _Line]]) -> list[_Line]:
        """Add a round of these pairs; return the lines their winners take."""
        number = len(rounds) + 1
        matches: list[FeedMatch] = []
        out: list[_Line] = []
        for index, (upper, lower) in enumerate(pairs):
            ref = MatchRef(number, index)
            for position, line in enumerate((upper, lower)):
                slot = SlotRef(number, index, position)
                if isinstance(line.source, FromLoser):
                    loser_goes_to[line.source.match] = slot
                elif isinstance(line.source, FromWinner):
                    winner_goes_to[line.source.match] = slot
            match = FeedMatch(ref, upper.source, lower.source)
            matches.append(match)
            origins = upper.origins | lower.origins
            out.append(_Line(None if match.is_void else FromWinner(ref), origins))
        rounds.append(tuple(matches))
        return out

    def halve(lines: list[_Line]) -> list[_Line]:
        """Pair neighbouring lines: a round of matches, or none if nobody would play in it."""
        pairs = [(lines[2 * k], lines[2 * k + 1]) for k in range(len(lines) // 2)]
        if any(upper.source is not None and lower.source is not None for upper, lower in pairs):
            return play(pairs)
        return [
            _Line(
                upper.source if upper.source is not None else lower.source,
                upper.origins | lower.origins,
            )
            for upper, lower in pairs
        ]

    first = fed[0]
    lines = [main_loser(first, index) for index in range(size >> first)]
    entry_rounds[first] = 1
    for round_number in fed[1:]:
        dropped = [main_loser(round_number, index) for index in range(size >> round_number)]
        while len(lines) > len(dropped):
            lines = halve(lines)
        mask = _least_rematch_mask(lines, round_number)
        entry_rounds[round_number] = len(rounds) + 1
        lines = play([(line, dropped[p ^ mask]) for p, line in enumerate(lines)])
    while len(lines) > 1:
        lines = halve(lines)
    return FeedInBracket(
        main_entrants,
        fed,
        tuple(rounds),
        entry_rounds,
        loser_goes_to,
        winner_goes_to,
        lines[0].source,
    )


def _check_fed_rounds(fed_rounds: Sequence[int], main_rounds: int) -> tuple[int, ...]:
    fed = tuple(sorted(set(fed_rounds)))
    if not fed:
        raise FormatError(
            "choose at least one main round to feed from", code="no-fed-rounds", field="rounds"
        )
    if len(fed) != len(fed_rounds):
        raise FormatError(
            f"fed rounds repeat: {list(fed_rounds)}", code="bad-fed-rounds", field="rounds"
        )
    for round_number in fed:
        if not 1 <= round_number <= main_rounds:
            raise FormatError(
                f"main round {round_number} does not exist: the main bracket has rounds "
                f"1..{main_rounds}",
                code="bad-fed-rounds",
                field="rounds",
            )
    return fed


def _least_rematch_mask(lines: Sequence[_Line], round_number: int) -> int:
    """The mask pairing survivors with main round ``round_number``'s losers most rematch-free.

    A main loser of match ``j`` in round ``r`` has beaten, in the main bracket, only
    losers of earlier-round matches inside its own subtree: main match ``(s, i)`` with
    ``i >> (r - s) == j``. A survivor whose possible origins include such a match may
    be a rematch.
    """
    count = len(lines)
    blocks = [
        {origin.index >> (round_number - origin.round) for origin in line.origins}
        if line.source is not None
        else set()
        for line in lines
    ]
    candidates = [count - 1, count // 2]
    candidates += [mask for mask in range(count - 1, -1, -1) if mask not in candidates]
    best_mask, best_clashes = candidates[0], count + 1
    for mask in candidates:
        clashes = 0
        for position, block in enumerate(blocks):
            if position ^ mask in block:
                clashes += 1
                if clashes >= best_clashes:
                    break
        if clashes < best_clashes:
            best_mask, best_clashes = mask, clashes
            if clashes == 0:
                break
    return best_mask
