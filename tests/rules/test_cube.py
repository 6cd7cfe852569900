"""The doubling cube: transitions, who may double, and the codes of every refusal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.rules.cube import CubeState, OfferKind, is_power_of_two
from matches.rules.errors import (
    BadCubeValue,
    DoubleInCrawford,
    DoubleNotOwner,
    HollandViolation,
    IllegalCubeAction,
    MoneyOptionInMatch,
    OutOfTurn,
    RulesError,
)

MONEY = CubeState(money=True, beavers=True, raccoons=True)


def test_a_taken_double_doubles_the_stake_and_gives_the_taker_the_cube() -> None:
    cube = CubeState().double(0)
    assert cube.offer is not None
    assert cube.offer.kind is OfferKind.DOUBLE
    assert (cube.value, cube.proposed) == (1, 2)
    taken = cube.take(1)
    assert (taken.value, taken.owner, taken.offer, taken.turned) == (2, 1, None, True)


def test_redoubles_alternate_between_the_players() -> None:
    cube = CubeState().double(1).take(0).double(0).take(1).double(1).take(0)
    assert (cube.value, cube.owner) == (8, 0)


@pytest.mark.parametrize(
    ("cube", "side", "error", "code"),
    [
        (CubeState(owner=1, value=2), 0, DoubleNotOwner, "double-not-owner"),
        (CubeState(crawford=True), 0, DoubleInCrawford, "double-in-crawford"),
        (CubeState(crawford=True), 1, DoubleInCrawford, "double-in-crawford"),
        (CubeState().double(0), 1, IllegalCubeAction, "illegal-cube-action"),
    ],
)
def test_doubles_that_are_not_allowed(
    cube: CubeState, side: int, error: type[RulesError], code: str
) -> None:
    with pytest.raises(error) as caught:
        cube.double(side)
    assert caught.value.code == code
    assert caught.value.side == side


@pytest.mark.parametrize(("rolls", "allowed"), [(0, False), (1, False), (2, True), (5, True)])
def test_holland_needs_two_of_the_doublers_own_rolls(rolls: int, allowed: bool) -> None:
    cube = CubeState(holland=True)
    if allowed:
        assert cube.double(0, own_rolls=rolls).offer is not None
    else:
        with pytest.raises(HollandViolation) as caught:
            cube.double(0, own_rolls=rolls)
        assert caught.value.code == "holland"


def test_a_drop_loses_the_stake_before_the_refused_double() -> None:
    assert CubeState(value=4, owner=0).double(0).drop(1) == (0, 4)
    assert CubeState().double(1).drop(0) == (1, 1)


def test_answering_ones_own_double_is_out_of_turn() -> None:
    with pytest.raises(OutOfTurn):
        CubeState().double(0).take(0)
    with pytest.raises(OutOfTurn):
        CubeState().double(0).drop(0)


def test_take_or_drop_without_a_double() -> None:
    with pytest.raises(IllegalCubeAction, match="no double was offered"):
        CubeState().take(1)
    with pytest.raises(IllegalCubeAction):
        CubeState().drop(0)


def test_beaver_keeps_the_cube_with_the_beaverer() -> None:
    cube = MONEY.double(0).beaver(1)
    assert cube.offer is not None
    assert cube.offer.kind is OfferKind.BEAVER
    assert cube.value == 2  # the double is taken, the beaver offers 4
    assert cube.drop(0) == (1, 2)
    taken = cube.take(0)
    assert (taken.value, taken.owner) == (4, 1)


def test_raccoon_after_a_beaver() -> None:
    cube = MONEY.double(0).beaver(1).raccoon(0)
    assert cube.drop(1) == (0, 4)
    assert (cube.take(1).value, cube.take(1).owner) == (8, 1)


@pytest.mark.parametrize(
    ("cube", "message"),
    [
        (CubeState(), "not allowed in match play"),
        (CubeState(money=True), "not allowed in this session"),
    ],
)
def test_beavers_are_money_options(cube: CubeState, message: str) -> None:
    with pytest.raises(MoneyOptionInMatch, match=message) as caught:
        cube.double(0).beaver(1)
    assert caught.value.code == "option-not-allowed"


def test_raccoons_need_the_option_and_a_beaver() -> None:
    with pytest.raises(MoneyOptionInMatch):
        CubeState(money=True, beavers=True).double(0).beaver(1).raccoon(0)
    with pytest.raises(IllegalCubeAction, match="only a beaver"):
        MONEY.double(0).raccoon(1)
    with pytest.raises(IllegalCubeAction, match="only a double"):
        MONEY.double(0).beaver(1).beaver(0)


def test_automatic_doubles_have_a_limit_and_keep_the_cube_centred() -> None:
    cube = CubeState(money=True, auto_double_limit=2).auto_double().auto_double()
    assert (cube.value, cube.owner, cube.turned) == (4, None, False)
    with pytest.raises(MoneyOptionInMatch):
        cube.auto_double()
    with pytest.raises(MoneyOptionInMatch, match="match play"):
        CubeState(auto_double_limit=1).auto_double()


def test_cube_values_are_powers_of_two() -> None:
    assert [v for v in range(70) if is_power_of_two(v)] == [1, 2, 4, 8, 16, 32, 64]
    with pytest.raises(BadCubeValue):
        CubeState(value=6)
    assert CubeState(value=128).value == 128  # no upper limit: faces stop at 64, stakes do not


actions = st.lists(
    st.tuples(st.sampled_from(["double", "take", "drop", "beaver", "raccoon"]), st.integers(0, 1)),
    max_size=12,
)


@given(actions)
def test_any_action_sequence_keeps_the_cube_consistent(steps: list[tuple[str, int]]) -> None:
    """Whatever is tried, a refusal is a RulesError and the state stays a valid cube."""
    cube = MONEY
    for name, side in steps:
        try:
            if name == "drop":
                winner, points = cube.drop(side)
                assert cube.offer is not None
                assert winner == cube.offer.by
                assert points == cube.value
                break
            nxt = getattr(cube, name)(side)
        except RulesError:
            continue
        assert is_power_of_two(nxt.value)
        assert nxt.value in (cube.value, cube.value * 2)
        if nxt.offer is None:
            assert nxt.owner in (0, 1)
        cube = nxt
