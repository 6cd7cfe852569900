"""The formats' one exception: a ``ValueError`` with a stable ``code`` and the input ``field``.

The API turns it into HTTP 400 with ``{"code", "message", "detail": {"field": ...}}``.

>>> err = FormatError("a bracket needs at least 2 entrants, got 1", code="too-few-entrants",
...                   field="entrants")
>>> isinstance(err, ValueError), err.code, err.field
(True, 'too-few-entrants', 'entrants')
>>> err.as_dict()["message"]
'a bracket needs at least 2 entrants, got 1'
"""

from __future__ import annotations


class FormatError(ValueError):
    """Bad input to a draw, bracket, pairing or ranking function."""

    def __init__(self, message: str, *, code: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field

    def as_dict(self) -> dict[str, str | None]:
        """The error as the API shows it."""
        return {"code": self.code, "message": self.message, "field": self.field}
