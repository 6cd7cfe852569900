"""Prize money: the pool, the payout split over final places, shares rounded to a unit.

The pool is the entry fee times the paid entries, plus any added money. The split
gives each place its percent of the pool (1st, 2nd, ...); entrants who share places
(``Place(3, 4)``) share the percents of those places equally. Each amount is rounded
down to the director's unit (1, 5, 10...), so nothing is paid out that is not in the
pool; what rounding and an unallotted percent leave over is the stated remainder.

>>> from tournament.formats.places import Place
>>> pool = prize_pool(entry_fee=Decimal(20), paid_entries=14, added=Decimal(50))
>>> pool
Decimal('330')
>>> places = {"ann": Place(1, 1), "bob": Place(2, 2), "cy": Place(3, 4), "dee": Place(3, 4)}
>>> pay = payouts(places, pool=pool, split=[50, 30, 10, 10], unit=5)
>>> {k: str(v) for k, v in pay.amounts.items()}
{'ann': '165', 'bob': '95', 'cy': '30', 'dee': '30'}
>>> pay.paid_out, pay.remainder
(Decimal('320'), Decimal('10'))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal

from tournament.formats.errors import FormatError
from tournament.formats.places import Place

#: The rounding units a director chooses from.
UNITS = (1, 5, 10)


@dataclass(frozen=True)
class Payout:
    """Each prize winner's amount (places that win nothing are left out), the pool, what
    is paid out and what is left (``pool == paid_out + remainder``)."""

    amounts: dict[Hashable, Decimal]
    pool: Decimal
    paid_out: Decimal
    remainder: Decimal


def prize_pool(
    *, entry_fee: Decimal | None, paid_entries: int, added: Decimal = Decimal(0)
) -> Decimal:
    """The prize pool: the fee of each paid entry plus added money.

    >>> prize_pool(entry_fee=None, paid_entries=8)
    Decimal('0')
    >>> prize_pool(entry_fee=Decimal("12.50"), paid_entries=-1)
    Traceback (most recent call last):
    ...
    tournament.formats.errors.FormatError: paid entries cannot be negative: -1
    """
    if paid_entries < 0:
        raise FormatError(
            f"paid entries cannot be negative: {paid_entries}", code="invalid", field="paid"
        )
    if (entry_fee or 0) < 0 or added < 0:
        raise FormatError("fees and added money cannot be negative", code="invalid", field="pool")
    return (entry_fee or Decimal(0)) * paid_entries + added


def _floor(amount: Decimal, unit: Decimal) -> Decimal:
    return (amount / unit).to_integral_value(rounding=ROUND_FLOOR) * unit


def payouts[K: Hashable](
    places: Mapping[K, Place],
    *,
    pool: Decimal,
    split: Sequence[float | int | Decimal],
    unit: int | Decimal = 1,
) -> Payout:
    """Share ``pool`` by ``split`` (percents by place) among ``places``; see the module.

    >>> payouts({"a": Place(1, 2), "b": Place(1, 2)}, pool=Decimal(100), split=[70, 30])
    Payout(amounts={'a': Decimal('50'), 'b': Decimal('50')}, pool=Decimal('100'), paid_out=Decimal('100'), remainder=Decimal('0'))
    >>> payouts({"a": Place(1, 1)}, pool=Decimal(10), split=[60, 50])
    Traceback (most recent call last):
    ...
    tournament.formats.errors.FormatError: the payout split adds up to 110%: 100% at most
    """
    unit_ = Decimal(str(unit))
    if unit_ <= 0:
        raise FormatError(f"a rounding unit is above 0, not {unit}", code="invalid", field="unit")
    percents = [Decimal(str(p)) for p in split]
    if any(p < 0 for p in percents) or sum(percents, Decimal(0)) > 100:
        raise FormatError(
            f"the payout split adds up to {sum(percents, Decimal(0)):g}%: 100% at most",
            code="invalid",
            field="payout_split",
        )
    sharing: dict[Place, list[K]] = {}
    for entrant, place in places.items():
        sharing.setdefault(place, []).append(entrant)
    amounts: dict[Hashable, Decimal] = {}
    for place, entrants in sorted(sharing.items()):
        percent = sum(percents[place.best - 1 : place.worst], Decimal(0))
        each = _floor(pool * percent / 100 / len(entrants), unit_)
        if each > 0:
            for entrant in entrants:
                amounts[entrant] = each
    paid_out = sum(amounts.values(), Decimal(0))
    return Payout(amounts, pool, paid_out, pool - paid_out)
