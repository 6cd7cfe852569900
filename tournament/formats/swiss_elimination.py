"""The elimination Swiss: a Swiss in which a player is out at ``N`` losses.

Every round pairs the players still alive (fewer than ``N`` losses) by record: the
fewest losses first, then the most wins (a bye counts as a win), closest records
together, no rematch while one can be avoided, the bye to one of the lowest records
among the players with the fewest byes (byes counted per player: no second bye until
every player alive has had one, no third before every other has had a second); the
pairing itself is ``pairing.weighted_pairings``, whose bye rule comes before the
rematch. A player's ``N``-th loss puts them out in that round. ``next_stage`` says
what follows: the event is over when at most one player is alive (the champion), or
(``places_paid`` and the playoff switch) when no more players are alive than places
are paid; else the Wisconsin knockout after its rounds, the three-player playoff when
three players are alive with identical records (``elimination_playoff``), or a Swiss
round. The director may end it at any time between rounds.

Final places follow from the playoff, if any (its players first), then the round of
elimination (the later, the better; the players alive at the end before everyone),
then the record (wins, then fewer losses); equal on both, players share the places
(``final_places``: with cashing on the last loss, the players out in the round the
field dropped to the places paid share whatever their records).

>>> rounds = [[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 2), (3, None)]]
>>> table = elimination_records([1, 2, 3, 4], rounds, losses_to_eliminate=2)
>>> [(e, r.wins, r.losses, r.alive, r.eliminated_in_round) for e, r in table.items()]
[(1, 3, 0, True, None), (2, 1, 2, False, 3), (3, 2, 1, True, None), (4, 0, 2, False, 2)]
>>> {e: str(p) for e, p in sorted(elimination_places(table).items())}
{1: '1st', 2: '3rd', 3: '2nd', 4: '4th'}
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournament.formats.elimination_playoff import KNOCKOUT, THREE_PLAYER
from tournament.formats.errors import FormatError
from tournament.formats.pairing import Pair, PairingResult, Progress, weighted_pairings
from tournament.formats.places import Place, places_by_key
from tournament.formats.slots import EntrantId

MIN_LOSSES, MAX_LOSSES, DEFAULT_LOSSES = 2, 6, 3

#: One round's decided matches: ``(winner, loser)``, the loser ``None`` for a bye.
type RoundResults = Sequence[tuple[EntrantId, EntrantId | None]]


@dataclass(frozen=True)
class EliminationRecord:
    """A player's record and whether they are still in."""

    wins: int
    losses: int
    eliminated_in_round: int | None

    @property
    def alive(self) -> bool:
        return self.eliminated_in_round is None


def check_losses(value: object) -> int:
    """``losses_to_eliminate`` checked: a whole number from 2 to 6."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not MIN_LOSSES <= value <= MAX_LOSSES
    ):
        raise FormatError(
            f"losses to eliminate is a whole number from {MIN_LOSSES} to {MAX_LOSSES}",
            code="invalid",
            field="losses_to_eliminate",
        )
    return value


def elimination_records(
    entrants: Sequence[EntrantId],
    rounds: Sequence[RoundResults],
    *,
    losses_to_eliminate: int,
    strict: bool = True,
) -> dict[EntrantId, EliminationRecord]:
    """Each entrant's wins, losses and round of elimination from the rounds' results
    (round 1 first). A result naming a player already out is refused (``strict``;
    otherwise counted, as a director's correction may leave it)."""
    limit = check_losses(losses_to_eliminate)
    wins = dict.fromkeys(entrants, 0)
    losses = dict.fromkeys(entrants, 0)
    out: dict[EntrantId, int] = {}
    for number, results in enumerate(rounds, start=1):
        for winner, loser in results:
            for player in (winner, loser):
                if player is not None and player not in wins:
                    raise FormatError(
                        f"round {number}: player {player} is not in the event",
                        code="bad-result",
                        field="results",
                    )
                if strict and player is not None and player in out:
                    raise FormatError(
                        f"round {number}: player {player} was out in round {out[player]}",
                        code="bad-result",
                        field="results",
                    )
            wins[winner] += 1
            if loser is not None:
                losses[loser] += 1
                if losses[loser] == limit and loser not in out:
                    out[loser] = number
    return {e: EliminationRecord(wins[e], losses[e], out.get(e)) for e in entrants}


def pairing_scores(records: Mapping[EntrantId, EliminationRecord]) -> dict[EntrantId, float]:
    """The score groups of the pairing: fewer losses first, then more wins."""
    return {e: -1000.0 * r.losses + r.wins for e, r in records.items()}


def elimination_pairings(
    ranked: Sequence[EntrantId],
    records: Mapping[EntrantId, EliminationRecord],
    *,
    played: Iterable[Pair] = (),
    had_bye: Collection[EntrantId] = (),
    byes: Mapping[EntrantId, int] | None = None,
    forbidden: Iterable[Pair] = (),
    avoid: Iterable[Pair] = (),
    also: Collection[EntrantId] = (),
    progress: Progress | None = None,
) -> PairingResult:
    """Pair the players of ``ranked`` (standings order) who are alive, and those of
    ``also`` (players on the last loss kept one more round by the director).

    ``byes``: how many byes each player has had (else each of ``had_bye`` one): the
    bye goes to one of those with the fewest, so no second bye until every player
    paired has had one, and no third before every other has had a second."""
    alive = [e for e in ranked if records[e].alive or e in also]
    if len(alive) < 2:
        raise FormatError(
            f"{len(alive)} player(s) alive: nobody left to pair", code="finished", field="round"
        )
    counts = dict(byes) if byes is not None else dict.fromkeys(had_bye, 1)
    scores = pairing_scores({e: records[e] for e in alive})
    return weighted_pairings(
        alive,
        scores=scores,
        played=played,
        bye_counts=counts,
        forbidden=forbidden,
        avoid=avoid,
        progress=progress,
    )


def alive_count(records: Mapping[EntrantId, EliminationRecord]) -> int:
    return sum(r.alive for r in records.values())


def is_over(
    records: Mapping[EntrantId, EliminationRecord], *, places_paid: int | None = None
) -> bool:
    """At most one player alive; or, with the playoff switch at ``places_paid``, no
    more players alive than places paid."""
    alive = alive_count(records)
    return alive <= 1 or (places_paid is not None and alive <= places_paid)


#: What an elimination Swiss plays next (``next_stage``).
SWISS, OVER = "swiss", "over"


def next_stage(
    records: Mapping[EntrantId, EliminationRecord],
    *,
    rounds_played: int,
    places_paid: int | None = None,
    three_player_playoff: bool = True,
    wisconsin_after_rounds: int | None = None,
) -> str:
    """What follows the Swiss rounds played: ``"over"`` (``is_over``, ``places_paid``
    being the playoff switch's), the Wisconsin ``"knockout"`` once ``rounds_played``
    reaches ``wisconsin_after_rounds``, the ``"three-player"`` playoff when three
    players are alive with identical records (wins and losses), else a ``"swiss"`` round.

    >>> three = {1: EliminationRecord(2, 2, None), 2: EliminationRecord(2, 2, None),
    ...          3: EliminationRecord(2, 2, None), 4: EliminationRecord(1, 3, 3)}
    >>> next_stage(three, rounds_played=4)
    'three-player'
    >>> next_stage(three, rounds_played=4, three_player_playoff=False)
    'swiss'
    >>> next_stage(three, rounds_played=4, wisconsin_after_rounds=4)
    'knockout'
    >>> next_stage(three, rounds_played=4, places_paid=3)
    'over'
    """
    alive = [r for r in records.values() if r.alive]
    if is_over(records, places_paid=places_paid):
        return OVER
    if wisconsin_after_rounds is not None and rounds_played >= wisconsin_after_rounds:
        return KNOCKOUT
    if three_player_playoff and len(alive) == 3 and len({(r.wins, r.losses) for r in alive}) == 1:
        return THREE_PLAYER
    return SWISS


def bubble_round(
    records: Mapping[EntrantId, EliminationRecord], places_paid: int | None
) -> int | None:
    """The round in which the field dropped to the places paid: the first after which
    no more players were alive than places paid (``None``: it never did, or the field
    was never larger).

    >>> records = {1: EliminationRecord(3, 0, None), 2: EliminationRecord(2, 2, 3),
    ...            3: EliminationRecord(1, 2, 3), 4: EliminationRecord(0, 2, 2)}
    >>> bubble_round(records, 2), bubble_round(records, 1), bubble_round(records, 4)
    (3, 3, None)
    """
    if places_paid is None or len(records) <= places_paid:
        return None
    out_by_round: dict[int, int] = {}
    for r in records.values():
        if r.eliminated_in_round is not None:
            out_by_round[r.eliminated_in_round] = out_by_round.get(r.eliminated_in_round, 0) + 1
    left = len(records)
    for number in sorted(out_by_round):
        left -= out_by_round[number]
        if left <= places_paid:
            return number
    return None


def cashing(
    records: Mapping[EntrantId, EliminationRecord],
    *,
    losses_to_eliminate: int,
    places_paid: int | None,
    last_loss_cashes: bool = False,
) -> int:
    """How many players are in the money as things stand: once no more players are alive
    than ``places_paid``, those whose place (``final_places``) starts within the places
    paid; 0 before, or without ``places_paid``. (``losses_to_eliminate`` is kept for the
    callers; the records already say who is out.)

    >>> records = {1: EliminationRecord(3, 0, None), 2: EliminationRecord(2, 2, 3),
    ...            3: EliminationRecord(1, 2, 3), 4: EliminationRecord(0, 2, 2)}
    >>> [cashing(records, losses_to_eliminate=2, places_paid=2, last_loss_cashes=on)
    ...  for on in (False, True)]
    [2, 3]
    """
    del losses_to_eliminate
    if places_paid is None or alive_count(records) > places_paid:
        return 0
    places = final_places(records, places_paid=places_paid, last_loss_cashes=last_loss_cashes)
    return sum(place.best <= places_paid for place in places.values())


def elimination_places(
    records: Mapping[EntrantId, EliminationRecord],
    *,
    playoff: Mapping[EntrantId, int | None] | None = None,
    shared_round: int | None = None,
) -> dict[EntrantId, Place]:
    """Places by the round of elimination (players alive first), then wins, then losses.

    ``playoff``: the playoff round each playoff player went out in (``None``: still in,
    or its winner); they take the places above everyone else, by how far they got.
    ``shared_round``: the players out in that round share their places whatever
    their records (``final_places``, cashing on the last loss)."""
    playoff = playoff or {}
    last = max((r.eliminated_in_round or 0 for r in records.values()), default=0) + 1
    stages = [stage for stage in playoff.values() if stage is not None]
    top = max(stages, default=0) + 1

    def key(e: EntrantId) -> tuple[int, ...]:
        if e in playoff:
            stage = playoff[e]
            return (1, top if stage is None else stage, 0, 0)
        r = records[e]
        out = r.eliminated_in_round or last
        if shared_round is not None and out == shared_round:
            return (0, out, 0, 0)
        return (0, out, r.wins, -r.losses)

    return places_by_key({e: key(e) for e in records})


def final_places(
    records: Mapping[EntrantId, EliminationRecord],
    *,
    places_paid: int | None = None,
    last_loss_cashes: bool = False,
    playoff: Mapping[EntrantId, int | None] | None = None,
) -> dict[EntrantId, Place]:
    """The event's places (``elimination_places``). With ``last_loss_cashes``, the
    players out in the round in which the field dropped to ``places_paid``
    (``bubble_round``: all of them were on their last loss) share their places, so
    they share equally what those places pay; without it, their records order them
    like everyone else, and the best records among them take the paid places left.

    >>> records = {1: EliminationRecord(3, 0, None), 2: EliminationRecord(2, 2, 3),
    ...            3: EliminationRecord(1, 2, 3), 4: EliminationRecord(0, 2, 2)}
    >>> {e: str(p) for e, p in final_places(records, places_paid=2).items()}
    {1: '1st', 2: '2nd', 3: '3rd', 4: '4th'}
    >>> {e: str(p) for e, p in final_places(records, places_paid=2, last_loss_cashes=True).items()}
    {1: '1st', 2: '2nd-3rd', 3: '2nd-3rd', 4: '4th'}
    """
    shared = bubble_round(records, places_paid) if last_loss_cashes else None
    return elimination_places(records, playoff=playoff, shared_round=shared)
