"""Round robin: everyone meets everyone once, scheduled by rounds; optional groups.

The schedule uses the circle method: with ``m`` places (the field, plus a bye when
it is odd), place 0 stays put while the others rotate one step per round; in each
round place ``i`` meets place ``m - 1 - i``. That gives ``m - 1`` rounds in which every
pair meets exactly once and, for an odd field, everyone sits out (has the bye)
exactly once.

Groups (pools) are filled by snake seeding: seeds 1..k go to groups 1..k, seeds
k+1..2k back from group k to group 1, and so on, so the groups are as even as the
seeds allow and their sizes differ by at most one.

>>> round_robin_schedule([1, 2, 3, 4])
[[(1, 4), (2, 3)], [(1, 3), (2, 4)], [(1, 2), (3, 4)]]
>>> round_robin_schedule([1, 2, 3])
[[(2, 3), (1, None)], [(1, 3), (2, None)], [(1, 2), (3, None)]]
>>> snake_groups([1, 2, 3, 4, 5, 6, 7], groups=3)
[[1, 6, 7], [2, 5], [3, 4]]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tournament.formats.errors import FormatError
from tournament.formats.slots import BYE, EntrantId, Pairing, Slot, check_unique


def round_robin_schedule(entrants: Sequence[EntrantId]) -> list[list[Pairing]]:
    """Every pair once, round by round; a player facing ``BYE`` sits the round out.

    Each pair lists the better seed first; within a round, real matches come first
    and the bye last.
    """
    players = _check_players(entrants)
    places = len(players) + len(players) % 2
    return [_round(players, number) for number in range(1, places)]


def round_robin_apart(
    entrants: Sequence[EntrantId], apart: Collection[frozenset[EntrantId]]
) -> tuple[list[list[Pairing]], int]:
    """``round_robin_schedule(entrants)`` with the pairs of ``apart`` kept out of round 1
    where they can be: the players are placed on the circle so that round 1 is a
    pairing with as few of them as possible (everyone still meets everyone: they meet
    in a later round). Returns the schedule and how many ``apart`` pairs round 1 has.

    >>> round_robin_schedule([1, 2, 3, 4])[0]
    [(1, 4), (2, 3)]
    >>> schedule, left = round_robin_apart([1, 2, 3, 4], [frozenset({1, 4})])
    >>> schedule[0], left, sorted(p for r in schedule for p in r) == sorted(
    ...     p for r in round_robin_schedule([1, 2, 3, 4]) for p in r)
    ([(1, 3), (2, 4)], 0, True)
    """
    players = _check_players(entrants)
    if not apart:
        return round_robin_schedule(players), 0
    from tournament.formats.pairing import weighted_pairings

    field = set(players)
    avoid: list[tuple[EntrantId, EntrantId]] = []
    for pair in apart:
        if len(pair) == 2 and pair <= field:
            a, b = sorted(pair)
            avoid.append((a, b))
    first = weighted_pairings(players, avoid=avoid)
    places: list[EntrantId | None] = [None] * (len(players) + len(players) % 2)
    m = len(places)
    start = 0
    if first.bye is not None:
        places[0], start = first.bye, 1
    for i, (a, b) in enumerate(first.pairings, start=start):
        places[i], places[m - 1 - i] = a, b
    order = [p for p in places if p is not None]
    seed = {player: k for k, player in enumerate(players)}
    schedule = []
    for pairings in round_robin_schedule(order):
        matches = [
            (a, b) if seed[a] < seed[b] else (b, a)
            for a, b in pairings
            if a is not None and b is not None
        ]
        byes = [pair for pair in pairings if pair[0] is None or pair[1] is None]
        schedule.append(sorted(matches, key=lambda pair: seed[pair[0]]) + byes)
    return schedule, len(first.avoided)


def round_robin_round(entrants: Sequence[EntrantId], number: int) -> list[Pairing]:
    """Round ``number`` (from 1) of ``round_robin_schedule(entrants)``, computed alone.

    >>> round_robin_round([1, 2, 3, 4], 2)
    [(1, 3), (2, 4)]
    """
    players = _check_players(entrants)
    rounds = len(players) + len(players) % 2 - 1
    if not 1 <= number <= rounds:
        raise FormatError(f"round {number} is outside 1..{rounds}", code="bad-round", field="round")
    return _round(players, number)


def _check_players(entrants: Sequence[EntrantId]) -> list[EntrantId]:
    players = check_unique(entrants)
    if len(players) < 2:
        raise FormatError(
            f"a round robin needs at least 2 players, got {len(players)}",
            code="too-few-entrants",
            field="entrants",
        )
    return players


def _round(players: list[EntrantId], number: int) -> list[Pairing]:
    """The circle method: place 0 stays, the others turn ``number - 1`` steps."""
    places: list[Slot] = [*players, BYE] if len(players) % 2 else list(players)
    m = len(places)
    turn = (number - 1) % (m - 1)
    rest = places[1:]
    places = [places[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    seed = {player: k for k, player in enumerate(players)}
    matches: list[Pairing] = []
    bye: list[Pairing] = []
    for i in range(m // 2):
        a, b = places[i], places[m - 1 - i]
        if a is BYE:
            bye.append((b, BYE))
        elif b is BYE:
            bye.append((a, BYE))
        else:
            matches.append((a, b) if seed[a] < seed[b] else (b, a))
    return matches + bye


def snake_groups(seeded: Sequence[EntrantId], *, groups: int) -> list[list[EntrantId]]:
    """Split a seeded list (best first) into ``groups`` groups by snake seeding."""
    players = check_unique(seeded, field="seeded")
    if groups < 1 or 2 * groups > len(players):
        raise FormatError(
            f"{len(players)} players cannot make {groups} groups of at least 2",
            code="bad-group-count",
            field="groups",
        )
    result: list[list[EntrantId]] = [[] for _ in range(groups)]
    for k, player in enumerate(players):
        lap, step = divmod(k, groups)
        result[step if lap % 2 == 0 else groups - 1 - step].append(player)
    return result


@dataclass(frozen=True)
class RoundRobinGroup:
    """One group: its players (best seed first) and its schedule by rounds."""

    number: int
    players: tuple[EntrantId, ...]
    rounds: tuple[tuple[Pairing, ...], ...]


def grouped_round_robin(seeded: Sequence[EntrantId], *, groups: int = 1) -> list[RoundRobinGroup]:
    """Snake the field into groups and schedule each; groups are numbered from 1.

    Round ``r`` of the event is round ``r`` of every group. A group of ``s`` players
    plays ``s - 1`` rounds when ``s`` is even, ``s`` when odd; a group with fewer rounds
    is idle in the event's last rounds.

    >>> [g.players for g in grouped_round_robin([1, 2, 3, 4, 5], groups=2)]
    [(1, 4, 5), (2, 3)]
    >>> [len(g.rounds) for g in grouped_round_robin([1, 2, 3, 4, 5], groups=2)]
    [3, 1]
    """
    return [
        RoundRobinGroup(
            number, tuple(players), tuple(tuple(r) for r in round_robin_schedule(players))
        )
        for number, players in enumerate(snake_groups(seeded, groups=groups), start=1)
    ]
