"""Pure-Python tournament formats: draws, brackets, pairings and standings.

Nothing here imports Django: every function takes plain values (entrant ids are
opaque integers, seeded lists are best first) and returns plain values, so the
formats can be tested and benchmarked alone. Bad input raises ``FormatError`` (a
``ValueError`` with a stable ``code`` and the offending ``field``).

Modules:
``slots`` (shared types), ``single_elimination``, ``feed_in`` (a bracket fed by
another's losers), ``consolation`` (Main -> Consolation, Last Chance),
``double_elimination``, ``swiss`` (with ``matching``, its perfect-matching oracle),
``round_robin``, ``standings`` and ``draw``.
"""

from tournament.formats.consolation import (
    consolation_bracket,
    consolation_entrants,
    last_chance_bracket,
)
from tournament.formats.double_elimination import (
    DoubleEliminationBracket,
    Stage,
    StageMatch,
    StageSlot,
)
from tournament.formats.draw import (
    Draw,
    DrawEntrant,
    DrawMethod,
    EventFormat,
    make_draw,
    rerun,
    verify,
)
from tournament.formats.errors import FormatError
from tournament.formats.feed_in import FeedInBracket, FeedMatch, FromLoser, FromWinner
from tournament.formats.round_robin import (
    RoundRobinGroup,
    grouped_round_robin,
    round_robin_round,
    round_robin_schedule,
    snake_groups,
)
from tournament.formats.single_elimination import (
    SingleEliminationBracket,
    bracket_rounds,
    bracket_size,
    first_round,
    round_name,
    seed_order,
    winner_goes_to,
)
from tournament.formats.slots import BYE, EntrantId, MatchRef, Pairing, Slot, SlotRef
from tournament.formats.standings import (
    TIEBREAKS,
    MatchResult,
    StandingRow,
    rank_entrants,
)
from tournament.formats.swiss import SwissRound, swiss_pairings

__all__ = [
    "BYE",
    "TIEBREAKS",
    "DoubleEliminationBracket",
    "Draw",
    "DrawEntrant",
    "DrawMethod",
    "EntrantId",
    "EventFormat",
    "FeedInBracket",
    "FeedMatch",
    "FormatError",
    "FromLoser",
    "FromWinner",
    "MatchRef",
    "MatchResult",
    "Pairing",
    "RoundRobinGroup",
    "SingleEliminationBracket",
    "Slot",
    "SlotRef",
    "Stage",
    "StageMatch",
    "StageSlot",
    "StandingRow",
    "SwissRound",
    "bracket_rounds",
    "bracket_size",
    "consolation_bracket",
    "consolation_entrants",
    "first_round",
    "grouped_round_robin",
    "last_chance_bracket",
    "make_draw",
    "rank_entrants",
    "rerun",
    "round_name",
    "round_robin_round",
    "round_robin_schedule",
    "seed_order",
    "snake_groups",
    "swiss_pairings",
    "verify",
    "winner_goes_to",
]
