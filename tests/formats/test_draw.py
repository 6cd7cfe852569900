"""The draw: reproducible from its seed and its public log, for every method and format."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.draw import DrawEntrant, make_draw, rerun, verify
from tournament.formats.errors import FormatError
from tournament.formats.single_elimination import first_round
from tournament.formats.slots import BYE

FORMATS = ["single-elimination", "double-elimination", "swiss", "round-robin"]


def field(n: int, seed: int = 0) -> list[DrawEntrant]:
    rng = random.Random(seed)
    return [
        DrawEntrant(1000 + k, f"Player {k}", rng.choice([None, 1500.0, rng.uniform(900, 2100)]))
        for k in range(n)
    ]


names = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), max_size=20
)
entrant_lists = st.lists(
    st.builds(
        DrawEntrant,
        id=st.integers(min_value=-(10**9), max_value=10**9),
        name=names,
        rating=st.one_of(
            st.none(), st.floats(allow_nan=False, allow_infinity=False), st.integers(-3000, 3000)
        ),
    ),
    min_size=2,
    max_size=40,
    unique_by=lambda e: e.id,
)


@settings(max_examples=150, deadline=None)
@given(entrant_lists, st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from(FORMATS))
def test_same_seed_same_draw(people: list[DrawEntrant], seed: int, fmt: str) -> None:
    first = make_draw(people, method="random", seed=seed, format=fmt)
    again = make_draw(list(reversed(people)), method="random", seed=seed, format=fmt)
    assert again.order == first.order  # the entrants' input order does not matter
    assert again.first_round == first.first_round
    assert sorted(first.order) == sorted(e.id for e in people)
    assert first.seed == seed


@settings(max_examples=150, deadline=None)
@given(
    entrant_lists,
    st.sampled_from(["random", "rating", "manual"]),
    st.sampled_from(FORMATS),
    st.randoms(use_true_random=False),
)
def test_the_log_reruns_to_the_same_draw(
    people: list[DrawEntrant], method: str, fmt: str, rnd: random.Random
) -> None:
    order = [e.id for e in people]
    rnd.shuffle(order)
    draw = make_draw(
        people,
        method=method,
        seed=rnd.randrange(2**40) if method == "random" else None,
        order=order if method == "manual" else None,
        format=fmt,
    )
    assert verify(draw.log)
    assert rerun(draw.log) == draw


def test_seed_is_drawn_and_recorded_when_missing() -> None:
    draw = make_draw(field(20), method="random")
    assert isinstance(draw.seed, int)
    assert f"seed: {draw.seed}" in draw.log.splitlines()
    assert rerun(draw.log).order == draw.order


def test_different_seeds_usually_differ() -> None:
    orders = {make_draw(field(16), method="random", seed=s).order for s in range(20)}
    assert len(orders) == 20


def test_rating_order_with_ties_and_unrated() -> None:
    people = [
        DrawEntrant(5, "bob", 1600),
        DrawEntrant(3, "Alice", 1600),
        DrawEntrant(9, "alice", 1600),
        DrawEntrant(1, "Zed", None),
        DrawEntrant(2, "Amy", 1800),
        DrawEntrant(4, "Ann", None),
    ]
    draw = make_draw(people, method="rating")
    # 1800 first; the 1600s by name ignoring case, then id; the unrated last, by name.
    assert draw.order == (2, 3, 9, 5, 4, 1)


def test_manual_order_is_kept_and_checked() -> None:
    people = field(5)
    order = [1004, 1000, 1003, 1001, 1002]
    assert make_draw(people, method="manual", order=order).order == tuple(order)
    for bad in ([1004, 1000, 1003, 1001], [1004, 1000, 1003, 1001, 1001], None):
        with pytest.raises(FormatError) as err:
            make_draw(people, method="manual", order=bad)
        assert err.value.code in ("bad-order", "duplicate-entrant")


def test_first_round_follows_the_format() -> None:
    people = field(6)
    order = [e.id for e in people]
    single = make_draw(people, method="manual", order=order)
    assert list(single.first_round) == first_round(order)
    swiss = make_draw(people, method="manual", order=order, format="swiss")
    assert swiss.first_round == ((1000, 1003), (1001, 1004), (1002, 1005))
    robin = make_draw(people[:5], method="manual", order=order[:5], format="round-robin")
    assert robin.first_round[-1][1] is BYE


def test_log_shows_everything_needed() -> None:
    people = [
        DrawEntrant(7, "Zoë  O'Neil #2 v rating=9", 1712.5),
        DrawEntrant(8, "", None),
        DrawEntrant(9, " spaced ", 1500),
    ]
    draw = make_draw(people, method="random", seed=42)
    lines = draw.log.splitlines()
    assert lines[:4] == ["draw-log v1", "format: single-elimination", "method: random", "seed: 42"]
    assert "  #7 rating=1712.5 Zoë  O'Neil #2 v rating=9" in lines
    assert "  #8 rating=- " in lines
    assert lines[lines.index("first round: 2") + 1].startswith("  1. #")
    assert rerun(draw.log) == draw


def test_tampered_log_fails_verification() -> None:
    draw = make_draw(field(12), method="random", seed=7)
    lines = draw.log.splitlines()
    at = lines.index("order: 12")
    one, two = lines[at + 1].split(". ", 1), lines[at + 2].split(". ", 1)
    lines[at + 1], lines[at + 2] = f"{one[0]}. {two[1]}", f"{two[0]}. {one[1]}"
    swapped = "\n".join(lines)
    assert not verify(swapped)
    assert not verify(draw.log.replace("seed: 7", "seed: 8"))
    assert verify(draw.log + "\n")  # a trailing newline is not a difference


@pytest.mark.parametrize(
    "log",
    [
        "",
        "hello",
        "draw-log v1\nformat: swiss",
        "draw-log v1\nformat: swiss\nmethod: random\n"
        "seed: x\nentrants: 0\norder: 0\nfirst round: 0",
        "draw-log v1\nformat: swiss\nmethod: random\nseed: 1\nentrants: 2\n  #1 rating=- A\n"
        "order: 0\nfirst round: 0",
    ],
)
def test_garbage_logs_are_refused(log: str) -> None:
    with pytest.raises(FormatError) as err:
        rerun(log)
    assert err.value.code == "bad-draw-log"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"method": "lottery"}, "bad-method"),
        ({"method": "random", "format": "ladder"}, "bad-format"),
        ({"method": "rating", "seed": 3}, "bad-seed"),
        ({"method": "random", "seed": "3"}, "bad-seed"),
        ({"method": "random", "order": [1000, 1001]}, "bad-order"),
    ],
)
def test_bad_requests(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(FormatError) as err:
        make_draw(field(2), **kwargs)  # type: ignore[arg-type]
    assert err.value.code == code


def test_bad_entrants() -> None:
    with pytest.raises(FormatError):
        make_draw([DrawEntrant(1, "A")], method="rating")
    with pytest.raises(FormatError):
        make_draw([DrawEntrant(1, "A"), DrawEntrant(1, "B")], method="rating")
    with pytest.raises(FormatError):
        make_draw([DrawEntrant(1, "A\nB"), DrawEntrant(2, "C")], method="rating")
    with pytest.raises(FormatError):
        make_draw([DrawEntrant(1, "A", float("nan")), DrawEntrant(2, "C")], method="rating")


def test_thousand_and_twenty_four() -> None:
    draw = make_draw(field(1024), method="random", seed=2026)
    assert len(draw.first_round) == 512
    assert BYE not in {s for p in draw.first_round for s in p}
    assert verify(draw.log)
