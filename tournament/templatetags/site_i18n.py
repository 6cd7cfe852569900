"""Template helpers for the site's languages: the switcher's list, words the engines
write in English that the pages show in the reader's language, and money as the reader
writes it."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.translation import gettext_lazy

from core.money import money as money_text
from matches.rules_text import double_answer, translated
from tournament.place_words import place_words

register = template.Library()

#: Cube actions as GNU Backgammon's figures name them (``matches.analysis.figures``).
CUBE_ACTIONS = {
    "double": gettext_lazy("double"),
    "no double": gettext_lazy("no double"),
    "take": gettext_lazy("take"),
    "pass": gettext_lazy("pass"),
    "drop": gettext_lazy("drop"),
}


@register.simple_tag
def offered_languages() -> list[tuple[str, str]]:
    """The offered languages, each by its own name (``English``, ``Dansk``, ``日本語``):
    never translated, so that a reader finds their language whatever the page's is."""
    return list(settings.LANGUAGES)


@register.filter
def cube_action(value: str) -> str:
    """A cube action of the analysis in the active language; a checker play as it is."""
    return str(CUBE_ACTIONS.get(value, value))


@register.filter
def answer(value: str) -> str:
    """How a stored double was answered (``take``, ``drop``...) in the active language."""
    return double_answer(str(value or ""))


@register.filter
def engine_text(value: str) -> str:
    """A refusal the rules engine wrote (in English, as stored) in the active language."""
    return translated(str(value or ""))


@register.filter
def place(value: object) -> str:
    """``{{ row.place|place }}``: a final place as the active language writes it."""
    return place_words(value)


@register.filter
def money(amount: Any, currency: str = "") -> str:
    """``{{ amount|money:t.currency }}``: an amount in the tournament's currency as the
    active language writes money ("€20", "20 €"); without one, as ``floatformat:"-2g"``."""
    return money_text(amount, currency or "")
