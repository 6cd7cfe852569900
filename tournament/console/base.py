"""What the console's views share: the signed-in request, and refusals shown to a person.

The views are thin: they parse a form, check access, call a service, render.
Access: every page needs a login; a tournament is found only among those the user
directs (staff see all), so another tournament's pages answer 404. A service's
refusal (an ``AppError`` or a rules error) is shown next to the field it names, with HTTP 400.
Pages work without JavaScript; htmx only swaps a row or refreshes the grid in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from matches.errors import REFUSALS, AppError, refusal_text
from matches.rules.errors import RulesError
from tournament.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """A request to a ``login_required`` view: its user is signed in."""

    user: User


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def service_error_message(exc: AppError | RulesError | ValidationError) -> tuple[str | None, str]:
    """The field a refusal names (if any) and its message for a person."""
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            field, errors = next(iter(exc.message_dict.items()))
            return (None if field == "__all__" else field), " ".join(errors)
        return None, " ".join(exc.messages)
    if isinstance(exc, AppError):
        named = exc.detail.get("field")
        return (str(named) if named else None), exc.message
    return None, refusal_text(exc)


#: Refusals that a tick box on the form can overrule (the form's ``ask_to_confirm`` shows it).
CONFIRMABLE = frozenset({"unlikely-score", "possible-duplicate"})


def call_service[T](
    form: django_forms.Form | None, service: Callable[..., T], **kwargs: Any
) -> T | None:
    """Run ``service``; on a refusal put its message on ``form`` (or return None silently)."""
    try:
        return service(**kwargs)
    except (*REFUSALS, ValidationError) as exc:
        field, message = service_error_message(exc)
        if form is not None:
            form.add_error(field if field in form.fields else None, message)
            if getattr(exc, "code", "") in CONFIRMABLE and hasattr(form, "ask_to_confirm"):
                form.ask_to_confirm()
        return None


def call_button_service[T](
    request: HttpRequest, service: Callable[..., T], **kwargs: Any
) -> T | None:
    """Run ``service`` for a button without a form; a refusal becomes an error message."""
    try:
        return service(**kwargs)
    except (*REFUSALS, ValidationError) as exc:
        _, message = service_error_message(exc)
        messages.error(request, message)
        return None
