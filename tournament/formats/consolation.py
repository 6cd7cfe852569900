"""Main -> Consolation feed, and the Last Chance bracket.

How backgammon events run it (the ABT/USBGF "progressive consolation"): players
who lose early in the Main drop into the Consolation; the director picks which
Main rounds feed it, usually rounds 1 and 2. Losers of the first fed round pair off
in Consolation round 1; losers of a later fed round skip ahead ("progressive": their
Main win is worth a bye) and enter the Consolation round that has exactly as many
survivors as they are, each meeting one survivor. With rounds ``[1, 2]`` that is
Consolation round 2, so (when the Main has no byes) Consolation round ``k`` is
played alongside Main round ``k + 1`` and nobody waits. Newcomers are laid against survivors so that nobody
meets straight away someone they have just beaten in the Main (see ``feed_in``).

A Main round-1 bye produces no loser: its Consolation line is a bye. A
Consolation round in which nobody would play is left out, so the Consolation is
sized for the players it receives: from a 37-player Main (27 byes) with rounds
``[1, 2]``, the 5 round-1 losers go straight into Consolation round 1, played
alongside Main round 3, against 5 of the 16 round-2 losers; the other 11 have a
bye. The Main final cannot feed the Consolation (its loser is the runner-up).

The Last Chance is a separate single-elimination event with its own entries,
typically players already out of the Main and Consolation plus late arrivals:
``last_chance_bracket`` seeds whoever enters, in the order given.

>>> c = consolation_bracket(main_entrants=16, fed_rounds=[1, 2])
>>> c.entry_rounds
{1: 1, 2: 2}
>>> [len(matches) for matches in c.rounds], c.round_names[-1]
([4, 4, 2, 1], 'Final')
>>> c.loser_goes_to[MatchRef(1, 3)], c.loser_goes_to[MatchRef(2, 0)]
(SlotRef(round=1, index=1, position=1), SlotRef(round=2, index=3, position=1))
"""

from __future__ import annotations

from collections.abc import Sequence

from tournament.formats.errors import FormatError
from tournament.formats.feed_in import FeedInBracket, build_feed_in, main_round_one_byes
from tournament.formats.single_elimination import (
    SingleEliminationBracket,
    bracket_rounds,
    bracket_size,
)
from tournament.formats.slots import EntrantId, MatchRef, SlotRef

__all__ = [
    "MatchRef",
    "SlotRef",
    "consolation_bracket",
    "consolation_entrants",
    "last_chance_bracket",
]


def consolation_entrants(*, main_entrants: int, fed_rounds: Sequence[int]) -> int:
    """How many players the Consolation will receive (Main byes produce none).

    >>> consolation_entrants(main_entrants=37, fed_rounds=[1, 2])
    21
    """
    size = bracket_size(main_entrants)
    byes = len(main_round_one_byes(main_entrants))
    return sum((size >> r) - (byes if r == 1 else 0) for r in set(fed_rounds))


def consolation_bracket(*, main_entrants: int, fed_rounds: Sequence[int]) -> FeedInBracket:
    """The Consolation fed by the losers of ``fed_rounds`` of a Main of ``main_entrants``.

    Returns the structure: ``rounds`` (each match's two sources: a Main loser, an
    earlier Consolation winner, or a bye), ``loser_goes_to`` (Main ``MatchRef`` ->
    Consolation ``SlotRef``), ``winner_goes_to`` (within the Consolation) and
    ``entry_rounds`` (Main round -> Consolation round).

    >>> consolation_bracket(main_entrants=8, fed_rounds=[3])
    Traceback (most recent call last):
    ...
    tournament.formats.errors.FormatError: Main round 3 is the final: its loser is the runner-up
    """
    rounds = bracket_rounds(main_entrants)
    for round_number in fed_rounds:
        if round_number == rounds:
            raise FormatError(
                f"Main round {round_number} is the final: its loser is the runner-up",
                code="bad-fed-rounds",
                field="rounds",
            )
    bracket = build_feed_in(main_entrants=main_entrants, fed_rounds=fed_rounds)
    entrants = consolation_entrants(main_entrants=main_entrants, fed_rounds=fed_rounds)
    if entrants < 2:
        raise FormatError(
            f"Main rounds {sorted(fed_rounds)} of a {main_entrants}-player Main produce "
            f"{entrants} loser(s): a Consolation needs at least 2",
            code="too-few-entrants",
            field="rounds",
        )
    return bracket


def last_chance_bracket(entrants: Sequence[EntrantId]) -> SingleEliminationBracket:
    """A Last Chance bracket of whoever entered, seeded in the order given.

    >>> last_chance_bracket([41, 42, 43]).first_round
    ((41, None), (42, 43))
    """
    return SingleEliminationBracket.build(entrants)
