"""The two endings of an elimination Swiss played after its Swiss rounds, a round at a time.

**The three-player playoff**, when three players are left alive with identical records
(the form of the backgammon opens): the seeds A, B and C (the standings' order, by the
tie-breaks) play

1. A against B;
2. the loser of match 1 against C;
3. the final: the winner of match 1 against the winner of match 2.

The final's winner is 1st, its loser 2nd, the loser of match 2 3rd. Nobody is out
after one loss: the loser of match 1 can still win the event by winning matches 2 and 3.

**The Wisconsin ending** (``wisconsin_after_rounds`` R): after R Swiss rounds, the
players still alive play a single-elimination knockout, seeded by losses (fewest first,
then the record and the tie-breaks), the byes to the top seeds. Places follow the round
each player lost in: the final's loser 2nd, the semi-final losers share 3rd-4th...

Either way the playoff's players take the places above everyone out in the Swiss.
A player who is gone (withdrawn) loses their next playoff match by a bye to the other.

>>> a, b, c = 1, 2, 3
>>> three_player_next([a, b, c], [])
[(1, 2)]
>>> three_player_next([a, b, c], [[b]])  # b beat a: a meets c
[(1, 3)]
>>> three_player_next([a, b, c], [[b], [c]])  # c beat a: the final, b against c
[(2, 3)]
>>> three_player_next([a, b, c], [[b], [c], [c]]) is None
True
>>> three_player_exits([a, b, c], [[b], [c], [c]])  # c 1st, b 2nd, a 3rd
{1: 2, 2: 3, 3: None}
>>> knockout_next([1, 2, 3, 4, 5], [])
[(1, None), (4, 5), (2, None), (3, None)]
>>> knockout_next([1, 2, 3, 4, 5], [[1, 5, 2, 3]])
[(1, 5), (2, 3)]
>>> knockout_exits([1, 2, 3, 4, 5], [[1, 5, 2, 3], [1, 3], [3]])
{1: 3, 2: 2, 3: None, 4: 1, 5: 2}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tournament.formats.errors import FormatError
from tournament.formats.single_elimination import bracket_rounds, first_round, round_name
from tournament.formats.slots import BYE, EntrantId, Pairing, check_unique

THREE_PLAYER = "three-player"
KNOCKOUT = "knockout"
KINDS = (THREE_PLAYER, KNOCKOUT)

#: Each playoff round decided so far, its matches' winners in slot order (``None``: a
#: match nobody played, two players gone).
type Winners = Sequence[Sequence[EntrantId | None]]


def _check(winners: Winners, rounds: int) -> None:
    if len(winners) > rounds:
        raise FormatError(
            f"the playoff has {rounds} rounds, not {len(winners)}",
            code="bad-playoff",
            field="rounds",
        )


def _sides(seeds: Sequence[EntrantId], winners: Winners) -> list[list[Pairing]]:
    """The three-player playoff's matches so far and next: who meets whom in each."""
    a, b, c = seeds
    rounds: list[list[Pairing]] = [[(a, b)]]
    if winners:
        w1 = winners[0][0]
        l1 = b if w1 == a else a if w1 == b else BYE
        rounds.append([(l1, c)])
        if len(winners) > 1:
            rounds.append([(w1, winners[1][0])])
    return rounds


def _other(pair: Pairing, winner: EntrantId | None) -> EntrantId | None:
    one, two = pair
    if winner is None:
        return None
    return two if winner == one else one if winner == two else None


def three_player_next(seeds: Sequence[EntrantId], winners: Winners) -> list[Pairing] | None:
    """The next round of the three-player playoff (one match), or ``None`` when the
    final is decided. ``seeds``: A, B and C; ``winners``: each round's winner so far."""
    seeds = check_unique(seeds, field="seeds")
    if len(seeds) != 3:
        raise FormatError(
            f"the three-player playoff has 3 players, not {len(seeds)}",
            code="bad-playoff",
            field="seeds",
        )
    _check(winners, 3)
    if len(winners) == 3:
        return None
    return _sides(seeds, winners)[len(winners)]


def three_player_exits(seeds: Sequence[EntrantId], winners: Winners) -> dict[EntrantId, int | None]:
    """The playoff round each player went out in (``None``: still in, or the winner)."""
    exits: dict[EntrantId, int | None] = dict.fromkeys(seeds)
    sides = _sides(seeds, winners)
    for number in (2, 3):
        if len(winners) >= number:
            loser = _other(sides[number - 1][0], winners[number - 1][0])
            if loser is not None:
                exits[loser] = number
    return exits


def _knockout_sides(seeds: Sequence[EntrantId], winners: Winners) -> list[list[Pairing]]:
    """Who meets whom in each knockout round so far and the next (a round's winners
    padded with ``None`` up to its matches: undecided, or nobody)."""
    sides: list[list[Pairing]] = [first_round(seeds)]
    for decided in winners:
        padded = [*decided, *[None] * (len(sides[-1]) - len(decided))]
        sides.append([(padded[k], padded[k + 1]) for k in range(0, len(padded) - 1, 2)])
    return sides


def knockout_next(seeds: Sequence[EntrantId], winners: Winners) -> list[Pairing] | None:
    """The next round of the knockout seeded ``seeds`` (best first; byes to the top
    seeds), in bracket order, or ``None`` once the final is decided."""
    seeds = check_unique(seeds, field="seeds")
    total = bracket_rounds(len(seeds))
    _check(winners, total)
    if len(winners) == total:
        return None
    return _knockout_sides(seeds, winners)[len(winners)]


def knockout_exits(seeds: Sequence[EntrantId], winners: Winners) -> dict[EntrantId, int | None]:
    """The knockout round each player lost in (``None``: still in, or the champion)."""
    exits: dict[EntrantId, int | None] = dict.fromkeys(seeds)
    sides = _knockout_sides(seeds, winners)
    for number, decided in enumerate(winners, start=1):
        for pair, winner in zip(sides[number - 1], decided, strict=False):
            loser = _other(pair, winner)
            if loser is not None:
                exits[loser] = number
    return exits


def playoff_next(kind: str, seeds: Sequence[EntrantId], winners: Winners) -> list[Pairing] | None:
    """The next round of a playoff of ``kind`` (``None``: it is over)."""
    if kind == THREE_PLAYER:
        return three_player_next(seeds, winners)
    if kind == KNOCKOUT:
        return knockout_next(seeds, winners)
    raise FormatError(f"unknown playoff {kind!r}", code="bad-playoff", field="kind")


def playoff_exits(
    kind: str, seeds: Sequence[EntrantId], winners: Winners
) -> dict[EntrantId, int | None]:
    """Each playoff player's round out (``None``: still in, or the champion)."""
    if kind == THREE_PLAYER:
        return three_player_exits(seeds, winners)
    if kind == KNOCKOUT:
        return knockout_exits(seeds, winners)
    raise FormatError(f"unknown playoff {kind!r}", code="bad-playoff", field="kind")


def playoff_round_name(kind: str, seeds: Sequence[EntrantId], number: int) -> str:
    """The name of the playoff's round ``number`` (1 first), in English (the pages
    translate the round names they show).

    >>> [playoff_round_name(THREE_PLAYER, "abc", n) for n in (1, 2, 3)]
    ['Playoff 1', 'Playoff 2', 'Playoff final']
    >>> [playoff_round_name(KNOCKOUT, range(6), n) for n in (1, 2, 3)]
    ['Knockout: Quarter-final', 'Knockout: Semi-final', 'Knockout: Final']
    """
    if kind == THREE_PLAYER:
        return "Playoff final" if number == 3 else f"Playoff {number}"
    return f"Knockout: {round_name(number, bracket_rounds(len(seeds)))}"


def decided_pairing(
    pairing: Pairing, gone: Collection[EntrantId]
) -> tuple[EntrantId | None, EntrantId | None]:
    """A playoff pairing with the players who are gone taken off: a player left alone
    has a bye; both gone, the match is void."""
    one, two = pairing
    one = None if one is None or one in gone else one
    two = None if two is None or two in gone else two
    if one is None and two is not None:
        return two, None
    return one, two


def knockout_seeds(
    ranked: Sequence[EntrantId], losses: dict[EntrantId, int], wins: dict[EntrantId, int]
) -> list[EntrantId]:
    """The knockout's seeding: fewest losses first, then most wins, then ``ranked``'s
    order (the standings, by the tie-breaks).

    >>> knockout_seeds([1, 2, 3, 4], {1: 2, 2: 1, 3: 1, 4: 0}, {1: 5, 2: 3, 3: 4, 4: 3})
    [4, 3, 2, 1]
    """
    position = {e: k for k, e in enumerate(ranked)}
    return sorted(ranked, key=lambda e: (losses[e], -wins[e], position[e]))
