"""The tournament's refusals: the application's plain errors (:mod:`matches.errors`).

Services raise them and know nothing of HTTP frameworks; the API's exception handler
(``tournament.api.errors``) and the console's forms turn them into answers.
"""

from __future__ import annotations

from matches.errors import AppError, Conflict, Forbidden, Invalid, NotFound

__all__ = ["AppError", "Conflict", "DomainError", "Forbidden", "Invalid", "NotFound"]

#: A business rule refused the request (HTTP 400 unless ``status`` says otherwise).
DomainError = Invalid
