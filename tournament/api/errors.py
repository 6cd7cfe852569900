"""One handler turns every API error into ``{"code", "message", "detail"}`` (see api.md).

The application's own refusals are :class:`matches.errors.AppError` and its subclasses.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from matches.errors import AppError, first_message, lost_a_race
from matches.rules.errors import RulesError
from matches.rules_text import translated

log = logging.getLogger(__name__)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Shape errors as api.md fixes them; rules errors keep the engine's code and location."""
    if isinstance(exc, RulesError):
        message = translated(exc.message)  # the engine writes English; the code stays so
        return Response(
            {
                "code": exc.code,
                "message": message,
                "detail": {**exc.as_dict(), **exc.data, "message": message},
            },
            status=status.HTTP_400_BAD_REQUEST,
            headers={"Idempotent-Replayed": "true"} if exc.replayed else None,
        )
    if isinstance(exc, AppError):
        set_rollback()
        headers = {}
        view = context.get("view")
        if exc.status == 401 and view is not None:
            # As DRF does for its own 401: say which credentials the API takes.
            headers["WWW-Authenticate"] = view.get_authenticate_header(context["request"])
        if exc.replayed:  # a report sent again with its Idempotency-Key
            headers["Idempotent-Replayed"] = "true"
        return Response(exc.as_dict(), status=exc.status, headers=headers or None)
    if isinstance(exc, OperationalError) and lost_a_race(exc):
        log.warning("transaction undone by the database (%s): answered 503 busy", exc)
        return Response(
            {
                "code": "busy",
                "message": _(
                    "Another change to the same matches was being saved at the same "
                    "moment, and yours was undone. Nothing of it was kept: send it again (a "
                    "game report sent again with its game_number is never counted twice)."
                ),
                "detail": {},
            },
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "1"},
        )
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is unreachable (restarting, failing over): ask the client to retry.
        return Response(
            {
                "code": "service-unavailable",
                "message": _(
                    "The database cannot be reached just now. Try again in a few seconds (a "
                    "game report sent again with its game_number is never counted twice)."
                ),
                "detail": {},
            },
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)  # our refusals say who may
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "invalid",
            "message": first_message(exc.detail),
            "detail": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {
            "code": str(code).replace("_", "-"),
            "message": str(exc.detail),
            "detail": {},
        }
    return response
