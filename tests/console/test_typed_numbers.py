"""Numbers as a director types them, in the page language's separators (``plain_number``):
whatever Django writes in a language reads back as the same number."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.formats import number_format
from hypothesis import given
from hypothesis import strategies as st

from tournament.console.forms.fields import AmountField, plain_number

LANGUAGES = ("en", "da", "de", "ja", "tr")
AMOUNTS = st.decimals(min_value=0, max_value=Decimal("9999999.99"), places=2)


@pytest.mark.parametrize("language", LANGUAGES)
@given(amount=AMOUNTS, grouped=st.booleans())
def test_an_amount_written_in_a_language_reads_back_in_it(
    language: str, amount: Decimal, grouped: bool
) -> None:
    with translation.override(language):
        written = number_format(amount, 2, force_grouping=grouped)
        assert AmountField(required=False).clean(written) == amount, written


@pytest.mark.parametrize(
    ("typed", "decimal", "group", "plain"),
    [
        ("12,50", ",", ".", "12.50"),
        ("12,50", ".", ",", "12.50"),  # a comma before two digits is no grouping
        ("1.200", ",", ".", "1200"),
        ("1,200", ".", ",", "1200"),
        ("1.200", ".", ",", "1.200"),  # left to the field: three decimals
        ("1.234.567,8", ",", ".", "1234567.8"),
        ("1,234,567.8", ".", ",", "1234567.8"),
        ("1 234,50", ",", ".", "1234.50"),
        ("1'234.50", ".", ",", "1234.50"),
        ("1.2.3", ".", ",", "1.2.3"),  # left to the field: not a number
    ],
)
def test_separators_are_read_as_the_language_writes_them(
    typed: str, decimal: str, group: str, plain: str
) -> None:
    assert plain_number(typed, decimal, group) == plain
