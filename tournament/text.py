"""What a name may contain: one pure check, for the model's validators and the services."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

#: Joiners some scripts need inside a word (Persian, Indic); other format characters
#: (bidi overrides and isolates, zero-width spaces) are refused.
ALLOWED_FORMAT = frozenset("\u200c\u200d")


def text_problem(text: str, what: str = "A name") -> str | None:
    """Why ``text`` cannot be a name (line breaks, tabs, bidi or other control
    characters), or None. Used for names and clubs by every way players arrive."""
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") or (category == "Cf" and char not in ALLOWED_FORMAT):
            line_break = char in "\r\n\x0b\x0c\x85\u2028\u2029"
            template = PROBLEMS.get((what, line_break))
            if template is None:
                kind = "a line break" if line_break else "a control character"
                return f"{what} may not contain {kind} (U+{ord(char):04X})."
            return _(template).format(code=f"{ord(char):04X}")
    return None


#: The problems in words, by what the text is and whether the character is a line break.
PROBLEMS = {
    ("A name", True): gettext_noop("A name may not contain a line break (U+{code})."),
    ("A name", False): gettext_noop("A name may not contain a control character (U+{code})."),
    ("A club", True): gettext_noop("A club may not contain a line break (U+{code})."),
    ("A club", False): gettext_noop("A club may not contain a control character (U+{code})."),
}
