"""The application's refusals: plain exceptions that know nothing of HTTP frameworks.

The tree lives below both apps; ``matches.errors`` adds the rules engine's errors to it
(``REFUSALS``, ``refusal_text``).

Services raise them; one handler at each edge turns them into an answer: the API's
exception handler (``tournament.api.errors.exception_handler``) into
``{"code", "message", "detail"}`` with :attr:`AppError.status`, the HTML views into a
message next to the field ``detail["field"]`` names.
"""

from __future__ import annotations

from typing import Any


class AppError(Exception):
    """A request the application refuses: a short ``code``, a ``message`` for a person,
    a JSON-able ``detail`` (``field`` names the input at fault) and the HTTP ``status``."""

    status = 400
    default_code = "invalid"
    #: The answer to a report sent again with its ``Idempotency-Key`` (nothing stored).
    replayed = False

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        **detail: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        if status is not None:
            self.status = status
        self.detail: dict[str, Any] = detail

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """The refusal as the API answers it."""
        return {"code": self.code, "message": self.message, "detail": self.detail}


class Invalid(AppError):
    """Bad input or a business rule refused it (400)."""


class NotAuthenticated(AppError):
    """No credentials: log in, send a token or use a private link (401)."""

    status = 401
    default_code = "not-authenticated"


class Forbidden(AppError):
    """The actor may not do this (403)."""

    status = 403
    default_code = "forbidden"


class NotFound(AppError):
    """No such thing (404)."""

    status = 404
    default_code = "not-found"


class Conflict(AppError):
    """The state changed under the client, e.g. the game is already recorded (409)."""

    status = 409
    default_code = "conflict"


def refuse(message: str, *, code: str, field: str | None = None, **detail: Any) -> Invalid:
    """A 400 refusal naming the input field it is about, when there is one."""
    if field is not None:
        detail["field"] = field
    return Invalid(message, code=code, **detail)


def first_message(detail: Any) -> str:
    """The first field error of a form's or serializer's errors, as ``field: message``."""
    if isinstance(detail, dict) and detail:
        key, value = next(iter(detail.items()))
        inner = first_message(value)
        return inner if key in ("non_field_errors", "__all__") else f"{key}: {inner}"
    if isinstance(detail, list) and detail:
        return first_message(detail[0])
    return str(detail)


def invalid_input(errors: dict[str, Any]) -> Invalid:
    """Field errors of the input (a serializer's ``errors``) as one 400 refusal: the first
    one is the message, all of them the detail."""
    error = Invalid(first_message(errors), code="invalid")
    error.detail = _plain(errors)
    return error


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value) if isinstance(value, str) else value


#: SQLSTATE class 40, "transaction rollback": a deadlock (40P01) or a serialization
#: failure (40001). The database is fine; this transaction lost a race and was undone.
TRANSACTION_ROLLBACK = "40"


def lost_a_race(exc: BaseException) -> bool:
    """Whether ``exc`` is PostgreSQL undoing a transaction that lost a race (not an outage)."""
    sqlstate = getattr(exc.__cause__, "sqlstate", None) or ""
    return sqlstate.startswith(TRANSACTION_ROLLBACK)
