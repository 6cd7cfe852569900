"""What a name may contain: one pure check, for the model's validators and the services."""

from __future__ import annotations

import unicodedata

#: Joiners some scripts need inside a word (Persian, Indic); other format characters
#: (bidi overrides and isolates, zero-width spaces) are refused.
ALLOWED_FORMAT = frozenset("\u200c\u200d")


def text_problem(text: str, what: str = "A name") -> str | None:
    """Why ``text`` cannot be a name (line breaks, tabs, bidi or other control
    characters), or None. Used for names and clubs by every way players arrive."""
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") or (category == "Cf" and char not in ALLOWED_FORMAT):
            kind = (
                "a line break" if char in "\r\n\x0b\x0c\x85\u2028\u2029" else "a control character"
            )
            return f"{what} may not contain {kind} (U+{ord(char):04X})."
    return None
