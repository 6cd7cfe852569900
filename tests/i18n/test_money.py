"""Money in the tournament's currency, written the way the reader's language writes money
(the ``|money`` filter, Babel's CLDR data): "€20" in English, "20 €" in German, "200 kr."
in Danish, "￥2,000" in Japanese. A tournament without a currency shows its amounts as the
pages always did (``floatformat:"-2g"``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.utils import translation

from tournament.templatetags.site_i18n import money

NBSP = "\xa0"


@pytest.mark.parametrize(
    ("language", "amount", "currency", "shown"),
    [
        ("en", Decimal("20"), "EUR", "€20"),
        ("en", Decimal("20.00"), "EUR", "€20"),  # whole: no decimals, as -2g wrote it
        ("en", Decimal("1200"), "EUR", "€1,200"),
        ("en", Decimal("12.50"), "EUR", "€12.50"),
        ("en", Decimal("200"), "DKK", f"DKK{NBSP}200"),  # letters kept apart from digits
        ("en", Decimal("2000"), "JPY", "JP¥2,000"),
        ("en", 5, "EUR", "€5"),  # the prize rounding unit is a whole number
        ("de", Decimal("20"), "EUR", f"20{NBSP}€"),
        ("de", Decimal("1200.5"), "EUR", f"1.200,50{NBSP}€"),
        ("de", Decimal("200"), "DKK", f"200{NBSP}DKK"),
        ("de", Decimal("2000"), "JPY", f"2.000{NBSP}¥"),
        ("da", Decimal("200"), "DKK", f"200{NBSP}kr."),
        ("da", Decimal("12.50"), "EUR", f"12,50{NBSP}€"),
        ("da", Decimal("1200"), "DKK", f"1.200{NBSP}kr."),
        ("ja", Decimal("2000"), "JPY", "￥2,000"),
        ("ja", Decimal("12.50"), "EUR", "€12.50"),
        ("ja", Decimal("200"), "DKK", f"DKK{NBSP}200"),
        ("tr", Decimal("1200"), "EUR", "€1.200"),
    ],
)
def test_an_amount_is_written_in_the_readers_conventions(
    language: str, amount: Any, currency: str, shown: str
) -> None:
    with translation.override(language):
        assert money(amount, currency) == shown


@pytest.mark.parametrize(
    ("language", "amount", "shown"),
    [
        ("en", Decimal("1200"), "1,200"),
        ("en", Decimal("12.50"), "12.50"),
        ("en", Decimal("20.00"), "20"),
        ("de", Decimal("1200"), "1.200"),
        ("de", Decimal("12.50"), "12,50"),
        ("ja", 5, "5"),
        ("en", 0, "0"),
    ],
)
def test_without_a_currency_an_amount_is_written_as_before(
    language: str, amount: Any, shown: str
) -> None:
    from django.template.defaultfilters import floatformat

    with translation.override(language):
        assert money(amount, "") == shown == floatformat(amount, "-2g")


@pytest.mark.parametrize("currency", ["EUR", ""])
def test_no_amount_is_an_empty_string(currency: str) -> None:
    assert money(None, currency) == money("", currency) == ""
