"""The refusals a report may meet: the application's error tree (:mod:`core.errors`, below
both apps) and the rules engine's errors, and how each reads to a person."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import (
    TRANSACTION_ROLLBACK,
    AppError,
    Conflict,
    Forbidden,
    Invalid,
    NotAuthenticated,
    NotFound,
    first_message,
    invalid_input,
    lost_a_race,
    refuse,
)
from matches.rules.errors import RulesError
from matches.rules_text import translated

__all__ = [
    "REFUSALS",
    "TRANSACTION_ROLLBACK",
    "AppError",
    "Conflict",
    "Forbidden",
    "Invalid",
    "NotAuthenticated",
    "NotFound",
    "first_message",
    "invalid_input",
    "lost_a_race",
    "refusal_status",
    "refusal_text",
    "refuse",
]


#: Everything a report may be refused with: the rules engine's errors and the application's.
REFUSALS = (RulesError, AppError)


def refusal_text(exc: Exception) -> str:
    """A refusal for a person, in the active language: the message, and where for a rules
    error (the engine writes English: :mod:`matches.rules_text` translates it)."""
    if isinstance(exc, RulesError):
        where = []
        if exc.game is not None:
            where.append(_("game {game}").format(game=exc.game))
        if exc.move is not None:
            where.append(_("move {move}").format(move=exc.move))
        text = translated(exc.message)
        message = text[:1].upper() + text[1:]
        if where:
            return _("{message} ({where}).").format(message=message, where=", ".join(where))
        return _("{message}.").format(message=message)
    if isinstance(exc, AppError):
        return exc.message
    return str(exc)


def refusal_status(exc: Exception) -> int:
    """The HTTP status of a refusal (a rules error is bad input: 400)."""
    return exc.status if isinstance(exc, AppError) else 400
