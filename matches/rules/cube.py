"""The doubling cube of one game: its value, its owner, a pending offer and its options.

A :class:`CubeState` is immutable; every cube action returns the next state or raises
the rules error that says why the action is not allowed.

>>> cube = CubeState()
>>> cube = cube.double(0).take(1)
>>> cube.value, cube.owner
(2, 1)
>>> cube.double(0)
Traceback (most recent call last):
...
matches.rules.errors.DoubleNotOwner: side 0 cannot double: side 1 owns the cube
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from .errors import (
    BadCubeValue,
    DoubleInCrawford,
    DoubleNotOwner,
    HollandViolation,
    IllegalCubeAction,
    MoneyOptionInMatch,
    OutOfTurn,
)


class OfferKind(StrEnum):
    """What the pending offer is: a double, a beaver of it, or a raccoon of the beaver.

    >>> [str(kind) for kind in OfferKind]
    ['double', 'beaver', 'raccoon']
    """

    DOUBLE = "double"
    BEAVER = "beaver"
    RACCOON = "raccoon"


class Offer(NamedTuple):
    """A cube offer waiting for an answer: who made it and what it is.

    >>> CubeState().double(1).offer
    Offer(by=1, kind=<OfferKind.DOUBLE: 'double'>)
    """

    by: int
    kind: OfferKind


class DropOutcome(NamedTuple):
    """The end of a game by a refused offer: the offerer wins the stake before it.

    >>> CubeState(value=4, owner=0).double(0).drop(1).points
    4
    """

    winner: int
    points: int


def is_power_of_two(value: int) -> bool:
    """Whether ``value`` is a cube value: 1, 2, 4, 8, ...

    >>> [v for v in range(0, 10) if is_power_of_two(v)]
    [1, 2, 4, 8]
    """
    return value >= 1 and value & (value - 1) == 0


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube in one game.

    ``value`` is the stake accepted so far; ``owner`` is ``None`` while the cube is
    centred. ``offer`` is a double (or beaver, raccoon) not yet answered. The options
    fix what the cube may do in this game: ``money`` play allows ``beavers``,
    ``raccoons`` and up to ``auto_double_limit`` automatic doubles; ``crawford``
    forbids every double; ``holland`` forbids a double before the doubler's third roll.
    ``turned`` says whether a double has been accepted (the Jacoby rule looks at it).

    >>> CubeState(value=3)
    Traceback (most recent call last):
    ...
    matches.rules.errors.BadCubeValue: a cube value must be a power of two, not 3
    """

    value: int = 1
    owner: int | None = None
    offer: Offer | None = None
    money: bool = False
    crawford: bool = False
    holland: bool = False
    beavers: bool = False
    raccoons: bool = False
    auto_double_limit: int = 0
    auto_doubles: int = 0
    turned: bool = False

    def __post_init__(self) -> None:
        if not is_power_of_two(self.value):
            raise BadCubeValue(f"a cube value must be a power of two, not {self.value}")
        if self.owner not in (None, 0, 1):
            raise IllegalCubeAction(f"the cube owner must be side 0, side 1 or none: {self.owner}")

    @property
    def centred(self) -> bool:
        """Whether the cube is in the middle (either player may double).

        >>> CubeState().centred
        True
        """
        return self.owner is None

    @property
    def proposed(self) -> int:
        """The stake the pending offer proposes (the value ``Doubles => N`` shows).

        >>> CubeState().double(1).proposed
        2
        """
        return self.value * 2

    def may_double(self, side: int) -> bool:
        """Whether ``side`` may double now, ignoring Holland (which needs the roll count).

        >>> CubeState(owner=1).may_double(0)
        False
        """
        return (
            self.offer is None and not self.crawford and (self.owner is None or self.owner == side)
        )

    def double(self, side: int, *, own_rolls: int | None = None) -> CubeState:
        """``side`` offers a double at the start of its turn.

        ``own_rolls`` is how many rolls ``side`` has played in this game; the Holland
        rule needs it.

        >>> CubeState(crawford=True).double(0)
        Traceback (most recent call last):
        ...
        matches.rules.errors.DoubleInCrawford: no double may be offered in the Crawford game
        >>> CubeState(holland=True).double(1, own_rolls=1)
        Traceback (most recent call last):
        ...
        matches.rules.errors.HollandViolation: Holland rule: side 1 may not double before playing two rolls in this post-Crawford game (has played 1)
        """
        if self.offer is not None:
            raise IllegalCubeAction(
                f"side {side} cannot double: a {self.offer.kind} by side {self.offer.by} "
                "is waiting for an answer",
                side=side,
            )
        if self.crawford:
            raise DoubleInCrawford("no double may be offered in the Crawford game", side=side)
        if self.owner is not None and self.owner != side:
            raise DoubleNotOwner(
                f"side {side} cannot double: side {self.owner} owns the cube", side=side
            )
        if self.holland and own_rolls is not None and own_rolls < 2:
            raise HollandViolation(
                f"Holland rule: side {side} may not double before playing two rolls in this "
                f"post-Crawford game (has played {own_rolls})",
                side=side,
            )
        return replace(self, offer=Offer(side, OfferKind.DOUBLE))

    def _answer(self, side: int, action: str) -> Offer:
        if self.offer is None:
            raise IllegalCubeAction(
                f"side {side} cannot {action}: no double was offered", side=side
            )
        if self.offer.by == side:
            raise OutOfTurn(
                f"side {side} cannot {action} its own {self.offer.kind}: side {1 - side} answers it",
                side=side,
            )
        return self.offer

    def take(self, side: int) -> CubeState:
        """``side`` accepts the pending offer; the stake doubles.

        After a double the taker owns the cube; after a beaver or a raccoon the
        beaverer keeps it.

        >>> CubeState(money=True, beavers=True).double(0).beaver(1).take(0)
        CubeState(value=4, owner=1, offer=None, money=True, crawford=False, holland=False, beavers=True, raccoons=False, auto_double_limit=0, auto_doubles=0, turned=True)
        """
        offer = self._answer(side, "take")
        owner = offer.by if offer.kind is OfferKind.BEAVER else side
        return replace(self, value=self.value * 2, owner=owner, offer=None, turned=True)

    def drop(self, side: int) -> DropOutcome:
        """``side`` refuses the pending offer and loses the stake before it.

        >>> CubeState(value=2, owner=1).double(1).drop(0)
        DropOutcome(winner=1, points=2)
        """
        offer = self._answer(side, "drop")
        return DropOutcome(offer.by, self.value)

    def beaver(self, side: int) -> CubeState:
        """``side``, just doubled, takes and at once redoubles, keeping the cube (money only).

        >>> CubeState().double(0).beaver(1)
        Traceback (most recent call last):
        ...
        matches.rules.errors.MoneyOptionInMatch: beavers are not allowed in match play
        """
        offer = self._answer(side, "beaver")
        if offer.kind is not OfferKind.DOUBLE:
            raise IllegalCubeAction(
                f"side {side} cannot beaver a {offer.kind}: only a double can be beavered",
                side=side,
            )
        if not self.money:
            raise MoneyOptionInMatch("beavers are not allowed in match play", side=side)
        if not self.beavers:
            raise MoneyOptionInMatch("beavers are not allowed in this session", side=side)
        return replace(self, value=self.value * 2, offer=Offer(side, OfferKind.BEAVER), turned=True)

    def raccoon(self, side: int) -> CubeState:
        """The original doubler, beavered, redoubles once more (money with raccoons only).

        >>> c = CubeState(money=True, beavers=True, raccoons=True).double(0).beaver(1)
        >>> c = c.raccoon(0).take(1)
        >>> c.value, c.owner
        (8, 1)
        """
        offer = self._answer(side, "raccoon")
        if offer.kind is not OfferKind.BEAVER:
            raise IllegalCubeAction(
                f"side {side} cannot raccoon a {offer.kind}: only a beaver can be raccooned",
                side=side,
            )
        if not self.money:
            raise MoneyOptionInMatch("raccoons are not allowed in match play", side=side)
        if not self.raccoons:
            raise MoneyOptionInMatch("raccoons are not allowed in this session", side=side)
        return replace(self, value=self.value * 2, offer=Offer(side, OfferKind.RACCOON))

    def auto_double(self) -> CubeState:
        """An opening throw of equal dice doubles the centred cube (money, within the limit).

        >>> CubeState(money=True, auto_double_limit=1).auto_double().value
        2
        >>> CubeState(money=True, auto_double_limit=1).auto_double().auto_double()
        Traceback (most recent call last):
        ...
        matches.rules.errors.MoneyOptionInMatch: no more automatic doubles: the limit is 1 a game
        """
        if not self.money:
            raise MoneyOptionInMatch("automatic doubles are not allowed in match play")
        if self.auto_doubles >= self.auto_double_limit:
            raise MoneyOptionInMatch(
                f"no more automatic doubles: the limit is {self.auto_double_limit} a game"
            )
        if self.owner is not None or self.offer is not None or self.turned:
            raise IllegalCubeAction("automatic doubles happen only before the first move")
        return replace(self, value=self.value * 2, auto_doubles=self.auto_doubles + 1)
