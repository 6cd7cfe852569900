"""Single elimination: bracket size, standard seed placement, byes, and where winners go.

The bracket has ``bracket_size(n)`` lines, the next power of two. Seeds are placed
in the standard order (``seed_order``): in round 1 seed ``s`` meets seed
``size + 1 - s``, and the halves and quarters are balanced so that seeds 1 and 2
can meet only in the final, seeds 1 to 4 only from the semi-finals on, and so on.

Missing entrants are the highest seed numbers, so the byes go to the top seeds:
with 37 entrants in a 64-line bracket, seeds 1 to 27 have a bye (they face the
absent seeds 64 down to 38). Because more than half of the lines are filled, a bye
never meets a bye.

The winner of match ``(round r, index k)`` goes to round ``r + 1``, match ``k // 2``,
upper line when ``k`` is even, lower line when odd (``winner_goes_to``).

>>> first_round([101, 102, 103, 104, 105])
[(101, None), (104, 105), (102, None), (103, None)]
>>> [round_name(r, bracket_rounds(37)) for r in range(1, bracket_rounds(37) + 1)]
['Round of 64', 'Round of 32', 'Round of 16', 'Quarter-final', 'Semi-final', 'Final']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournament.formats.errors import FormatError
from tournament.formats.slots import BYE, EntrantId, MatchRef, Pairing, SlotRef, check_unique

MIN_ENTRANTS = 2


def bracket_size(n: int) -> int:
    """The number of lines in a bracket for ``n`` entrants: the next power of two.

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 37, 64, 65)]
    [2, 4, 4, 8, 64, 64, 128]
    """
    if n < MIN_ENTRANTS:
        raise FormatError(
            f"a bracket needs at least {MIN_ENTRANTS} entrants, got {n}",
            code="too-few-entrants",
            field="entrants",
        )
    return 1 << (n - 1).bit_length()


def bracket_rounds(n: int) -> int:
    """The number of rounds a bracket for ``n`` entrants plays.

    >>> [bracket_rounds(n) for n in (2, 3, 8, 9, 37, 1024)]
    [1, 2, 3, 4, 6, 10]
    """
    return bracket_size(n).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """Seed numbers (from 1) line by line down a bracket of ``size`` lines.

    Adjacent pairs meet in round 1; each seed ``s`` meets ``size + 1 - s``.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    >>> seed_order(16)
    [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    """
    if size < MIN_ENTRANTS or size & (size - 1):
        raise FormatError(
            f"a bracket size must be a power of two of at least 2, got {size}",
            code="bad-bracket-size",
            field="size",
        )
    order = [1]
    while len(order) < size:
        lines = 2 * len(order)
        order = [seed for top in order for seed in (top, lines + 1 - top)]
    return order


def first_round(seeded_ids: Sequence[EntrantId]) -> list[Pairing]:
    """Round-1 pairings for entrants listed best seed first; byes fill the missing seeds.

    Each pairing puts the better seed on the upper line; the pairings run down the
    bracket sheet, so pairing ``k`` is match ``MatchRef(1, k)``.

    >>> first_round([1, 2, 3])
    [(1, None), (2, 3)]
    >>> first_round([10, 20, 30, 40, 50, 60])
    [(10, None), (40, 50), (20, None), (30, 60)]
    """
    entrants = check_unique(seeded_ids, field="seeded_ids")
    size = bracket_size(len(entrants))
    order = seed_order(size)
    pairings: list[Pairing] = []
    for k in range(0, size, 2):
        upper, lower = order[k], order[k + 1]
        pairings.append((_entrant_at(entrants, upper), _entrant_at(entrants, lower)))
    return pairings


def _entrant_at(entrants: Sequence[EntrantId], seed: int) -> EntrantId | None:
    return entrants[seed - 1] if seed <= len(entrants) else BYE


def matches_in_round(n: int, round_number: int) -> int:
    """How many matches round ``round_number`` of a bracket for ``n`` entrants has.

    >>> [matches_in_round(37, r) for r in range(1, 7)]
    [32, 16, 8, 4, 2, 1]
    """
    rounds = bracket_rounds(n)
    if not 1 <= round_number <= rounds:
        raise FormatError(
            f"round {round_number} is outside 1..{rounds}", code="bad-round", field="round"
        )
    return bracket_size(n) >> round_number


def winner_goes_to(match: MatchRef) -> SlotRef:
    """Where the winner of ``match`` plays next (the caller knows when ``match`` is the final).

    >>> winner_goes_to(MatchRef(1, 5))
    SlotRef(round=2, index=2, position=1)
    """
    return SlotRef(match.round + 1, match.index // 2, match.index % 2)


def round_name_for_matches(matches: int) -> str:
    """A round's name from how many matches it has.

    >>> [round_name_for_matches(m) for m in (1, 2, 4, 8, 16)]
    ['Final', 'Semi-final', 'Quarter-final', 'Round of 16', 'Round of 32']
    """
    names = {1: "Final", 2: "Semi-final", 4: "Quarter-final"}
    return names.get(matches, f"Round of {2 * matches}")


def distinct_round_names(match_counts: Sequence[int]) -> tuple[str, ...]:
    """Names of rounds with these numbers of matches, first round first, never twice the
    same: of rounds that would share a name, the last keeps it and the earlier ones are
    called by their number.

    >>> distinct_round_names([4, 4, 2, 1])
    ('Round 1', 'Quarter-final', 'Semi-final', 'Final')
    >>> distinct_round_names([2, 4, 4, 2, 2, 1])
    ('Round 1', 'Round 2', 'Quarter-final', 'Round 4', 'Semi-final', 'Final')
    """
    names = [round_name_for_matches(count) for count in match_counts]
    for number, name in enumerate(names, start=1):
        if name in names[number:]:
            names[number - 1] = f"Round {number}"
    return tuple(names)


def round_name(round_number: int, total_rounds: int) -> str:
    """The name of round ``round_number`` in a bracket of ``total_rounds`` rounds.

    >>> round_name(1, 4), round_name(4, 4)
    ('Round of 16', 'Final')
    """
    if not 1 <= round_number <= total_rounds:
        raise FormatError(
            f"round {round_number} is outside 1..{total_rounds}", code="bad-round", field="round"
        )
    return round_name_for_matches(1 << (total_rounds - round_number))


def bye_winners(pairings: Sequence[Pairing]) -> list[tuple[SlotRef, EntrantId]]:
    """Round-1 byes resolved: the round-2 place each bye's entrant takes without playing.

    >>> bye_winners(first_round([1, 2, 3]))
    [(SlotRef(round=2, index=0, position=0), 1)]
    """
    advanced: list[tuple[SlotRef, EntrantId]] = []
    for k, (upper, lower) in enumerate(pairings):
        present = [entrant for entrant in (upper, lower) if entrant is not BYE]
        if len(present) == 1:
            advanced.append((winner_goes_to(MatchRef(1, k)), present[0]))
    return advanced


@dataclass(frozen=True)
class SingleEliminationBracket:
    """A seeded single-elimination bracket: its size, rounds and round-1 pairings.

    >>> bracket = SingleEliminationBracket.build([7, 8, 9, 10, 11])
    >>> bracket.size, bracket.rounds, bracket.byes
    (8, 3, 3)
    >>> bracket.round_names
    ('Quarter-final', 'Semi-final', 'Final')
    """

    seeded: tuple[EntrantId, ...]
    first_round: tuple[Pairing, ...]

    @classmethod
    def build(cls, seeded_ids: Sequence[EntrantId]) -> SingleEliminationBracket:
        """Seed ``seeded_ids`` (best first) into a bracket."""
        return cls(tuple(seeded_ids), tuple(first_round(seeded_ids)))

    @property
    def size(self) -> int:
        """Lines on the bracket sheet."""
        return 2 * len(self.first_round)

    @property
    def rounds(self) -> int:
        """Rounds to play, the final included."""
        return self.size.bit_length() - 1

    @property
    def byes(self) -> int:
        """Empty lines in round 1."""
        return self.size - len(self.seeded)

    @property
    def round_names(self) -> tuple[str, ...]:
        """Each round's name, round 1 first."""
        return tuple(round_name(r, self.rounds) for r in range(1, self.rounds + 1))

    def matches_in_round(self, round_number: int) -> int:
        """How many matches round ``round_number`` has."""
        return matches_in_round(len(self.seeded), round_number)

    def winner_goes_to(self, match: MatchRef) -> SlotRef | None:
        """Where the winner of ``match`` plays next; ``None`` after the final."""
        if match.round >= self.rounds:
            return None
        return winner_goes_to(match)
