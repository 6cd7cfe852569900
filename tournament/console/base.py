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
from django.http import HttpRequest, JsonResponse

from matches.errors import REFUSALS, AppError, refusal_status, refusal_text
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


def refusal_on_form(form: django_forms.Form, exc: AppError | RulesError | ValidationError) -> None:
    """Put a service's refusal on ``form``, next to the field it names."""
    field, message = service_error_message(exc)
    form.add_error(field if field in form.fields else None, message)
    if getattr(exc, "code", "") in CONFIRMABLE and hasattr(form, "ask_to_confirm"):
        form.ask_to_confirm()


def call_service[T](
    form: django_forms.Form | None, service: Callable[..., T], **kwargs: Any
) -> T | None:
    """Run ``service``; on a refusal put its message on ``form`` (or return None silently)."""
    try:
        return service(**kwargs)
    except (*REFUSALS, ValidationError) as exc:
        if form is not None:
            refusal_on_form(form, exc)
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


# ---- a report sent from the device's offline queue (static/js/director-offline.js) ------


def from_queue(request: HttpRequest) -> bool:
    """The match page's offline queue sends a kept form asking for JSON: it answers as the
    API does (``{"code", "message", "detail"}``), not with a page."""
    return request.headers.get("Accept", "").startswith("application/json")


def queue_done(*, replayed: bool) -> JsonResponse:
    """The kept form was recorded (``replayed``: it had been, with its key)."""
    return JsonResponse({"ok": True, "replayed": replayed}, status=201)


def queue_refused(exc: AppError | RulesError | ValidationError) -> JsonResponse:
    """The kept form was refused (a form's errors come as ``invalid_input``)."""
    _, message = service_error_message(exc)
    if isinstance(exc, ValidationError):
        body: dict[str, Any] = {"code": "invalid", "message": message, "detail": {}}
        return JsonResponse(body, status=400)
    detail = exc.detail if isinstance(exc, AppError) else exc.as_dict()
    answer = JsonResponse(
        {"code": exc.code, "message": message, "detail": detail}, status=refusal_status(exc)
    )
    if exc.replayed:  # the first answer to a form sent again with its key
        answer["Idempotent-Replayed"] = "true"
    return answer
