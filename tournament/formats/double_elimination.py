"""Double elimination: a winners bracket, a losers bracket and a grand final.

The winners bracket is an ordinary seeded single-elimination bracket (byes to the
top seeds). Every winners-bracket loser drops into the losers bracket
(``feed_in`` with every winners round fed): round-1 losers pair off, and the losers
of winners round ``r`` enter the losers round that has as many survivors as they
are, laid reversed, then halves swapped, and so on, whichever layout avoids
meeting a player they have just beaten. A second loss eliminates. Winners-bracket
byes leave losers-bracket lines empty, and a losers round in which nobody would
play is left out (see ``feed_in``): with 5 players the lone round-1 loser meets a
round-2 loser at once, and no losers-bracket match ever has nobody in it.

The grand final sets the winners-bracket champion (upper line) against the
losers-bracket champion (lower line). With ``reset`` (the default) a win by the
losers-bracket champion means both have lost once, so a second, deciding grand
final is played.

>>> d = DoubleEliminationBracket.build([1, 2, 3, 4, 5, 6, 7, 8])
>>> d.winners.rounds, len(d.losers.rounds)
(3, 4)
>>> d.loser_goes_to(StageMatch(Stage.WINNERS, 2, 0))
StageSlot(stage=Stage.LOSERS, round=2, index=1, position=1)
>>> d.winner_goes_to(StageMatch(Stage.LOSERS, 4, 0))
StageSlot(stage=Stage.GRAND_FINAL, round=1, index=0, position=1)
>>> d.after_grand_final(winner_position=1)
StageMatch(stage=Stage.GRAND_FINAL, round=2, index=0)
>>> [len(r) for r in DoubleEliminationBracket.build([1, 2, 3, 4, 5]).losers.rounds]
[2, 1, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournament.formats.errors import FormatError
from tournament.formats.feed_in import FeedInBracket, build_feed_in
from tournament.formats.single_elimination import SingleEliminationBracket
from tournament.formats.slots import EntrantId, MatchRef, SlotRef


class Stage(StrEnum):
    """The three parts of a double-elimination event."""

    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand-final"

    def __repr__(self) -> str:
        return f"Stage.{self.name}"


@dataclass(frozen=True, order=True, slots=True)
class StageMatch:
    """A match in one stage: round from 1, index from 0."""

    stage: Stage
    round: int
    index: int


@dataclass(frozen=True, order=True, slots=True)
class StageSlot:
    """A line of a match in one stage: ``position`` 0 upper, 1 lower."""

    stage: Stage
    round: int
    index: int
    position: int


_GRAND_FINAL_WINNERS_LINE = StageSlot(Stage.GRAND_FINAL, 1, 0, 0)
_GRAND_FINAL_LOSERS_LINE = StageSlot(Stage.GRAND_FINAL, 1, 0, 1)


@dataclass(frozen=True)
class DoubleEliminationBracket:
    """The whole structure and the routing of every winner and loser."""

    winners: SingleEliminationBracket
    losers: FeedInBracket
    reset: bool = True

    @classmethod
    def build(
        cls, seeded_ids: Sequence[EntrantId], *, reset: bool = True
    ) -> DoubleEliminationBracket:
        """Seed ``seeded_ids`` (best first) into a double-elimination bracket."""
        winners = SingleEliminationBracket.build(seeded_ids)
        losers = build_feed_in(
            main_entrants=len(winners.seeded), fed_rounds=range(1, winners.rounds + 1)
        )
        return cls(winners, losers, reset)

    @property
    def grand_final_rounds(self) -> int:
        """Grand-final matches at most: 2 with a reset, else 1."""
        return 2 if self.reset else 1

    def winner_goes_to(self, match: StageMatch) -> StageSlot | None:
        """Where the winner of ``match`` plays next; ``None`` after a grand final.

        After grand final 1, ask ``after_grand_final`` whether a reset is played.
        """
        self._check(match)
        ref = MatchRef(match.round, match.index)
        if match.stage is Stage.WINNERS:
            nxt = self.winners.winner_goes_to(ref)
            if nxt is None:
                return _GRAND_FINAL_WINNERS_LINE
            return StageSlot(Stage.WINNERS, nxt.round, nxt.index, nxt.position)
        if match.stage is Stage.LOSERS:
            if ref == self.losers.final:
                return _GRAND_FINAL_LOSERS_LINE
            slot = self.losers.winner_goes_to.get(ref)
            return None if slot is None else _losers_line(slot)
        return None

    def loser_goes_to(self, match: StageMatch) -> StageSlot | None:
        """Where the loser of ``match`` drops; ``None`` when that loss eliminates."""
        self._check(match)
        if match.stage is not Stage.WINNERS:
            return None
        ref = MatchRef(match.round, match.index)
        if not self.losers.rounds:
            return _GRAND_FINAL_LOSERS_LINE
        slot = self.losers.loser_goes_to.get(ref)
        return None if slot is None else _losers_line(slot)

    def after_grand_final(self, *, winner_position: int) -> StageMatch | None:
        """The reset match to play after grand final 1, or ``None`` when the event is over.

        ``winner_position`` is the line of grand final 1's winner (1 = losers-bracket
        champion).
        """
        if winner_position not in (0, 1):
            raise FormatError(
                f"a position is 0 or 1, got {winner_position}",
                code="bad-position",
                field="winner_position",
            )
        if self.reset and winner_position == 1:
            return StageMatch(Stage.GRAND_FINAL, 2, 0)
        return None

    def _check(self, match: StageMatch) -> None:
        if match.stage is Stage.WINNERS:
            counts = [self.winners.size >> r for r in range(1, self.winners.rounds + 1)]
        elif match.stage is Stage.LOSERS:
            counts = [len(matches) for matches in self.losers.rounds]
        else:
            counts = [1] * self.grand_final_rounds
        if not 1 <= match.round <= len(counts) or not 0 <= match.index < counts[match.round - 1]:
            raise FormatError(
                f"there is no {match.stage} match {match.round}.{match.index}",
                code="no-such-match",
                field="match",
            )


def _losers_line(slot: SlotRef) -> StageSlot:
    return StageSlot(Stage.LOSERS, slot.round, slot.index, slot.position)
