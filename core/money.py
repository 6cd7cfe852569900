"""Money as its reader writes it: an amount in a tournament's currency (an ISO 4217 code)
in the active language's conventions, from Babel's CLDR data ("€20", "20 €", "DKK 200",
"￥2,000"). Without a currency an amount is written as the pages always wrote it."""

from __future__ import annotations

import copy
import functools
import unicodedata
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency, get_currency_symbol, list_currencies
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils.translation import get_language, to_locale

#: The Babel locale of a site language whose plain code is not the convention meant: the
#: English pages write dates the British way ("29 Nov 2026"), and so money ("US$20").
BABEL_LOCALES = {"en": "en_GB"}

CENT = Decimal("0.01")


@functools.cache
def _currencies() -> frozenset[str]:
    return frozenset(list_currencies())


def is_currency(code: str) -> bool:
    """Whether ``code`` is a currency's ISO 4217 code (three capitals) that Babel knows."""
    return len(code) == 3 and code.isascii() and code.isupper() and code in _currencies()


@functools.cache
def _locale(language: str) -> Locale:
    code = to_locale(language)
    try:
        return Locale.parse(BABEL_LOCALES.get(code, code))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(BABEL_LOCALES["en"])


def _spaced(text: str, symbol: str) -> str:
    """CLDR's currency spacing, which Babel leaves out: a no-break space between digits
    and a symbol of letters ("DKK 200", not "DKK200"); "€20" and "20 kr." stay as they are."""
    at = text.find(symbol) if symbol else -1
    if at < 0:
        return text
    before, after = text[:at], text[at + len(symbol) :]
    if after[:1].isdigit() and not unicodedata.category(symbol[-1]).startswith(("S", "Z")):
        after = "\xa0" + after
    if before[-1:].isdigit() and not unicodedata.category(symbol[0]).startswith(("S", "Z")):
        before += "\xa0"
    return before + symbol + after


def money(amount: Any, currency: str = "") -> str:
    """``amount`` in ``currency`` as the active language writes money: whole amounts
    without decimals ("€20"), others with two ("€12.50"), grouped as the language groups.

    No currency: the amount as ``floatformat:"-2g"`` writes it ("1,200", "12.50"); no
    amount (``None``, ``""``): an empty string.
    """
    if amount is None or amount == "":
        return ""
    if not currency:
        return str(floatformat(amount, "-2g"))
    try:
        exact = Decimal(str(amount))
        value = exact.quantize(CENT, rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError):
        return ""
    locale = _locale(get_language() or settings.LANGUAGE_CODE)
    pattern = locale.currency_formats["standard"]
    if exact == exact.to_integral_value():  # as floatformat tells a whole amount
        pattern = copy.copy(pattern)  # Babel's own stays as it is
        pattern.frac_prec = (0, 0)
    text = format_currency(value, currency, format=pattern, locale=locale, currency_digits=False)
    return _spaced(text, get_currency_symbol(currency, locale))
