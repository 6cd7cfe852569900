"""Where a decided match sends its winner and its loser, from the pure formats' structures.

The database holds matches as (event, round bracket, round number, slot). The
formats module gives the routing: a single-elimination winner goes to
``(r + 1, k // 2)``; a Consolation is a feed-in bracket built from the Main's field
and the fed rounds; double elimination has winners, losers and grand-final stages.
The structures depend only on the Main's number of entrants, so they are rebuilt
(and cached) from it rather than stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Max

from tournament.formats.consolation import consolation_bracket
from tournament.formats.double_elimination import (
    DoubleEliminationBracket,
    Stage,
    StageMatch,
    StageSlot,
)
from tournament.formats.feed_in import FeedInBracket
from tournament.formats.single_elimination import bracket_rounds
from tournament.formats.slots import MatchRef
from tournament.models import Entry, Event, Round

STAGE_OF_BRACKET = {
    Round.Bracket.MAIN: Stage.WINNERS,
    Round.Bracket.LOSERS: Stage.LOSERS,
    Round.Bracket.FINAL: Stage.GRAND_FINAL,
}
BRACKET_OF_STAGE = {stage: bracket for bracket, stage in STAGE_OF_BRACKET.items()}


@dataclass(frozen=True, order=True)
class Seat:
    """One line of a match: ``position`` 0 is ``entry1``, 1 is ``entry2``."""

    event_id: int
    bracket: str
    round: int
    slot: int
    position: int


@dataclass(frozen=True)
class Outcome:
    """What a decided match does to its players."""

    winner_to: Seat | None = None
    loser_to: Seat | None = None
    champion: bool = False
    """The winner wins the event."""
    loser_out: bool = True
    """The loser is out of this event (possibly fed to another)."""
    void: tuple[Seat, ...] = field(default_factory=tuple)
    """Matches no longer needed (a grand-final reset when the winners' champion won)."""


@lru_cache(maxsize=64)
def feed_in(main_entrants: int, fed_rounds: tuple[int, ...]) -> FeedInBracket:
    """The Consolation fed by ``fed_rounds`` of a Main of ``main_entrants`` (cached)."""
    return consolation_bracket(main_entrants=main_entrants, fed_rounds=fed_rounds)


@lru_cache(maxsize=64)
def double_elimination(entrants: int) -> DoubleEliminationBracket:
    """A double-elimination structure for ``entrants`` players (cached; ids are 1..n)."""
    return DoubleEliminationBracket.build(list(range(1, entrants + 1)))


def main_entrants(event_id: int) -> int:
    """How many entrants the draw of ``event_id`` placed: the draw numbers them 1..n in
    ``Entry.seed`` (and clears the others'), and nobody joins an elimination event after
    its draw, so the highest seed is the field's size."""
    top = Entry.objects.filter(event_id=event_id).aggregate(top=Max("seed"))["top"]
    return int(top or 0)


class Router:
    """Routes decided matches of one event (and into the events it feeds)."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self._entrants: int | None = None
        self._fed: list[Event] | None = None

    @property
    def entrants(self) -> int:
        """The Main's field (the feeding event's, for a Consolation)."""
        if self._entrants is None:
            self._entrants = main_entrants(self.event.feeds_from_id or self.event.pk)
        return self._entrants

    @property
    def fed_events(self) -> list[Event]:
        """Events fed by this one's losers."""
        if self._fed is None:
            self._fed = list(Event.objects.filter(feeds_from=self.event))
        return self._fed

    def outcome(
        self, *, bracket: str, round_number: int, slot: int, winner_position: int
    ) -> Outcome:
        """Where the players of match ``(bracket, round_number, slot)`` go next."""
        event = self.event
        if event.format == Event.Format.DOUBLE_ELIMINATION:
            return self._double(bracket, round_number, slot, winner_position)
        if event.feeds_from_id is not None:
            return self._consolation(round_number, slot)
        return self._single(round_number, slot)

    def _single(self, round_number: int, slot: int) -> Outcome:
        loser_to: Seat | None = None
        for fed in self.fed_events:
            if round_number in (fed.feed_rounds or []):
                structure = feed_in(self.entrants, tuple(fed.feed_rounds))
                target = structure.loser_goes_to.get(MatchRef(round_number, slot))
                if target is not None:
                    loser_to = Seat(
                        fed.pk, Round.Bracket.MAIN, target.round, target.index, target.position
                    )
        if round_number >= bracket_rounds(self.entrants):
            return Outcome(champion=True, loser_to=loser_to)
        winner_to = Seat(self.event.pk, Round.Bracket.MAIN, round_number + 1, slot // 2, slot % 2)
        return Outcome(winner_to=winner_to, loser_to=loser_to)

    def _consolation(self, round_number: int, slot: int) -> Outcome:
        structure = feed_in(self.entrants, tuple(self.event.feed_rounds))
        ref = MatchRef(round_number, slot)
        if ref == structure.final:
            return Outcome(champion=True)
        target = structure.winner_goes_to.get(ref)
        if target is None:
            return Outcome()
        return Outcome(
            winner_to=Seat(
                self.event.pk, Round.Bracket.MAIN, target.round, target.index, target.position
            )
        )

    def _double(self, bracket: str, round_number: int, slot: int, winner_position: int) -> Outcome:
        structure = double_elimination(self.entrants)
        stage = STAGE_OF_BRACKET[Round.Bracket(bracket)]
        if stage is Stage.GRAND_FINAL:
            if round_number == 1:
                reset = structure.after_grand_final(winner_position=winner_position)
                if reset is not None:
                    # Both have lost once: the reset match, the same sides.
                    return Outcome(
                        winner_to=self._seat(reset.stage, reset.round, reset.index, 1),
                        loser_to=self._seat(reset.stage, reset.round, reset.index, 0),
                        loser_out=False,
                    )
                void: tuple[Seat, ...] = ()
                if structure.reset:
                    void = (self._seat(Stage.GRAND_FINAL, 2, 0, 0),)
                return Outcome(champion=True, void=void)
            return Outcome(champion=True)
        match = StageMatch(stage, round_number, slot)
        winner = structure.winner_goes_to(match)
        loser = structure.loser_goes_to(match)
        return Outcome(
            winner_to=None if winner is None else self._stage_seat(winner),
            loser_to=None if loser is None else self._stage_seat(loser),
            loser_out=loser is None,
        )

    def _stage_seat(self, slot: StageSlot) -> Seat:
        return self._seat(slot.stage, slot.round, slot.index, slot.position)

    def _seat(self, stage: Stage, round_number: int, index: int, position: int) -> Seat:
        return Seat(self.event.pk, BRACKET_OF_STAGE[stage], round_number, index, position)
