"""Fuzzing both readers and the checker: bad input is a RulesError, never a crash.

Mutations of real gnubg files (``tests/mutations.py``: bytes flipped, inserted,
deleted; lines dropped, repeated or swapped; the file cut short) and generated text.
``read_mat``/``read_sgf`` may only raise the engine's errors; ``check_match_data``
may not raise at all.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.rules.check import check_match_data
from matches.rules.errors import RulesError
from matches.rules.matfile import read_mat
from matches.rules.sgf import read_sgf
from tests.mutations import mutate

CORPUS = Path(__file__).resolve().parent.parent / "data" / "gnubg"
SOURCES = {
    "mat": [p.read_bytes() for p in sorted(CORPUS.glob("*.mat"))[::5]],
    "sgf": [p.read_bytes() for p in sorted(CORPUS.glob("*.sgf"))[::5]],
}
READERS = {"mat": read_mat, "sgf": read_sgf}


def assert_engine_errors_only(fmt: str, data: bytes) -> None:
    with contextlib.suppress(RulesError):
        READERS[fmt](data)
    report = check_match_data(data)  # must not raise
    assert report.valid or report.errors
    for error in report.errors:
        assert set(error) == {"code", "message", "game", "move", "side"}


@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_random_byte_mutations_of_real_files(fmt: str) -> None:
    rng = random.Random(20261121)
    for n in range(400):
        source = SOURCES[fmt][n % len(SOURCES[fmt])]
        assert_engine_errors_only(fmt, mutate(source, rng, rng.randint(1, 6)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["mat", "sgf"]), st.data())
def test_hypothesis_mutations(fmt: str, data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(SOURCES[fmt]))
    seed = data.draw(st.integers(0, 2**32 - 1))
    count = data.draw(st.integers(1, 12))
    assert_engine_errors_only(fmt, mutate(source, random.Random(seed), count))


mat_lines = st.lists(
    st.one_of(
        st.sampled_from(
            [
                " 5 point match",
                " Game 1",
                " Game 2",
                " A : 0      B : 0",
                " A : 1      B : 0",
                "  1) 31: 8/5 6/5                 42: 8/4 6/4",
                "  2)  Doubles => 2                Takes",
                "  2)  Doubles => 2                Drops",
                "      Wins 1 point",
                "                                  Wins 2 points",
                "  3) 66: bar/19* 6/off            ???",
                '; [Site "x"]',
            ]
        ),
        st.text(max_size=60),
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(mat_lines)
def test_generated_mat_text(lines: list[str]) -> None:
    assert_engine_errors_only("mat", "\n".join(lines).encode("utf-8", "surrogatepass"))


sgf_parts = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "(",
                ")",
                ";",
                "GM[6]",
                "MI[length:5]",
                "PW[A]",
                "PB[B]",
                "RE[W+1]",
                "W[52mhxv]",
                "B[21lnab]",
                "W[double]",
                "B[take]",
                "B[drop]",
                "PL[W]DI[52]",
                "CV[2]",
                "RE[B+3R]",
                "W[66yszz]",
                "AE[a:y]",
                "[",
                "]",
                "\\",
            ]
        ),
        st.text(max_size=12),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(sgf_parts)
def test_generated_sgf_text(parts: list[str]) -> None:
    assert_engine_errors_only("sgf", "".join(parts).encode("utf-8", "surrogatepass"))
