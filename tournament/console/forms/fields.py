"""Fields and bases the console's forms share: number lists, amounts, tie-breaks, dates, locked settings, confirmations."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import get_format
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournament.selectors import TIEBREAKS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_CSV_BYTES = 1_000_000


class IntListField(forms.CharField):
    """A comma- or space-separated list of whole numbers, e.g. ``11, 11, 13, 17``."""

    def __init__(self, *, minimum: int = 1, **kwargs: Any) -> None:
        self.minimum = minimum
        kwargs.setdefault("max_length", 200)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value

    def clean(self, value: Any) -> list[int]:
        text = super().clean(value)
        if not text:
            return []
        numbers = []
        for part in re.split(r"[\s,;]+", text.strip()):
            if not part:
                continue
            if not part.isdigit():
                raise ValidationError(
                    _("“{part}” is not a whole number.").format(part=part), code="invalid"
                )
            number = int(part)
            if number < self.minimum:
                raise ValidationError(
                    _("Each number must be at least {self_minimum}.").format(
                        self_minimum=self.minimum
                    ),
                    code="min",
                )
            numbers.append(number)
        return numbers


class NumberListField(forms.CharField):
    """A comma- or space-separated list of numbers of 0 or more, e.g. ``50, 30, 12.5``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 200)
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(f"{v:g}" for v in value)
        return value

    def clean(self, value: Any) -> list[float | int]:
        text = super().clean(value)
        numbers: list[float | int] = []
        for part in re.split(r"[\s,;]+", (text or "").strip()):
            if not part:
                continue
            try:
                number = float(part)
            except ValueError:
                raise ValidationError(
                    _("“{part}” is not a number.").format(part=part), code="invalid"
                ) from None
            if not number >= 0 or number == float("inf"):
                raise ValidationError(_("Each number must be 0 or more."), code="min")
            numbers.append(int(number) if number.is_integer() else number)
        return numbers


#: What may group digits besides the language's own separator: spaces and apostrophes.
_SPACES = re.compile(r"[\s\u00a0\u202f'\u2019]")


def plain_number(text: str, decimal: str, group: str) -> str:
    """A number as typed in a language whose separators are ``decimal`` and ``group``,
    written with a point and no grouping ("12,50" -> "12.50", "1.200" -> "1200" in
    German). Both marks: the last one is the decimal one ("1.200,50", "1,200.50"). One
    mark: grouping if it is the language's group mark before groups of three digits,
    else the decimal mark, either way round ("12,50" is 12.50 in English too, never
    1250); what is left ambiguous ("1.200" in English) keeps three decimals, which an
    amount refuses. Anything else is returned for the field to refuse."""
    text = _SPACES.sub("", text)
    if "," in text and "." in text:
        point = text[max(text.rfind(","), text.rfind("."))]
        return text.replace("." if point == "," else ",", "").replace(point, ".")
    for mark in ",.":
        if mark not in text:
            continue
        head, *groups = text.split(mark)
        grouped = head.lstrip("+-").isdigit() and all(len(g) == 3 and g.isdigit() for g in groups)
        if mark == group and grouped:
            return text.replace(mark, "")
        return text.replace(mark, ".") if len(groups) == 1 else text
    return text


class _TypedInTheLanguage(forms.Field):
    """A number box read and shown in the active language's separators. A text box with
    a decimal keypad: a browser's number box drops a comma it does not expect, and
    "12,50" would arrive as 1250."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)
        self.widget.is_localized = True

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            decimal, group = get_format("DECIMAL_SEPARATOR"), get_format("THOUSAND_SEPARATOR")
            value = plain_number(value.strip(), str(decimal), str(group))
        return super().to_python(value)


class AmountField(_TypedInTheLanguage, forms.DecimalField):
    """An amount of money, in cents at most: "12,50", "12.50", "1.200" (German)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 9)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(**kwargs)


class LocalFloatField(_TypedInTheLanguage, forms.FloatField):
    """A number with decimals, such as a rating: "1650,5" or "1650.5"."""


class TiebreakSelects(forms.MultiWidget):
    """One select per tie-break place ("1st", "2nd"...), each listing the tie-breaks by
    their names. Posts ``<name>_0``, ``<name>_1``...; a single ``<name>`` (the names,
    comma-separated, as the form took them before) is still read."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        choices = [("", "—"), *TIEBREAKS.items()]
        widgets = [
            forms.Select(
                choices=choices,
                attrs={"aria-label": format_lazy(_("Tie-break {number}"), number=i + 1)},
            )
            for i in range(len(TIEBREAKS))
        ]
        super().__init__(widgets, attrs)

    def decompress(self, value: Any) -> list[str]:
        names = value if isinstance(value, list | tuple) else re.split(r"[\s,;]+", value or "")
        names = [n for n in names if n]
        return (names + [""] * len(self.widgets))[: len(self.widgets)]

    def value_from_datadict(  # type: ignore[override]  # the field takes one string
        self, data: Any, files: Any, name: str
    ) -> str:
        if name in data:
            return str(data.get(name) or "")
        chosen = super().value_from_datadict(data, files, name)
        return ", ".join(v for v in chosen if v)

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data and super().value_omitted_from_data(data, files, name)


class TiebreaksField(forms.CharField):
    """Tie-breaks in order, chosen by name in one select each (or typed, comma-separated,
    e.g. ``wins, head_to_head``, through the API's older shape)."""

    widget = TiebreakSelects

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 200)
        kwargs.setdefault(
            "help_text", _("First tie-break first; none chosen takes the default order.")
        )
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value)
        names = [part for part in re.split(r"[\s,;]+", (text or "").strip()) if part]
        unknown = [name for name in names if name not in TIEBREAKS]
        if unknown:
            raise ValidationError(
                _("Unknown tie-break(s): {join_unknown}.").format(join_unknown=", ".join(unknown)),
                code="invalid",
            )
        if len(set(names)) != len(names):
            raise ValidationError(_("A tie-break is named twice."), code="invalid")
        return names


class DateInput(forms.DateInput):
    """A browser date picker: its value is an ISO date whatever the locale."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class LockedBoundField(forms.BoundField):
    """A locked field shows (and its hidden input carries) the current value, even when a
    refused new one was posted: sending the page again then changes nothing locked."""

    def value(self) -> Any:
        return self.field.prepare_value(self.initial)


class LockedFieldsForm(forms.Form):
    """A settings form some of whose fields can no longer change.

    ``locked`` maps a field's name to the reason. A locked field is shown disabled
    with the reason as its help, and its current value travels in a hidden input
    (``_fields.html``), so the services see it unchanged; a changed value sent anyway
    is refused next to the field (by ``clean_<field>`` or the service), never dropped.
    """

    def __init__(
        self, *args: Any, locked: Mapping[str, StrOrPromise] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.locked = {
            name: reason for name, reason in (locked or {}).items() if name in self.fields
        }
        for name, reason in self.locked.items():
            field = self.fields[name]
            field.help_text = f"Locked: {reason}"
            field.widget.attrs["disabled"] = True
            field.required = False
            field.get_bound_field = (  # type: ignore[method-assign]
                lambda form, name, field=field: LockedBoundField(form, field, name)  # type: ignore[misc]
            )

    def locked_value_error(self, name: str, value: Any) -> None:
        """Refuse a new ``value`` for the locked field ``name`` (one the form itself holds)."""
        current = self.initial.get(name)
        if name in self.locked and value not in ("", None, current):
            raise ValidationError(
                _("This cannot change: {self_locked_name} It stays {current!r}.").format(
                    self_locked_name=self.locked[name], current=current
                ),
                code="locked",
            )


class AskToConfirm(forms.Form):
    """A hidden tick box, ``confirm_field``, that a refusal the director may overrule
    brings into sight (``call_service`` calls ``ask_to_confirm`` for those refusals)."""

    confirm_field = "confirm"
    confirm_label: StrOrPromise = ""
    confirm_help: StrOrPromise = ""

    def ask_to_confirm(self) -> None:
        """Show the tick box with its label."""
        field = self.fields[self.confirm_field]
        field.widget = forms.CheckboxInput()
        field.label = self.confirm_label
        field.help_text = self.confirm_help
        # shown with its new widget and label (Django's private cache, not in the stubs)
        self._bound_fields_cache.pop(self.confirm_field, None)  # type: ignore[attr-defined]


class ConfirmForm(forms.Form):
    """A confirmation button's form: no field, only the refusal of the service it runs."""
