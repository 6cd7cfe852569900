"""The API's JSON parser, with a nesting limit.

Python's ``json`` recurses once per level: a body of a hundred thousand ``[`` raises
``RecursionError``, which DRF's parser does not catch (a 500). This parser answers
such bodies, and anything nested deeper than any request of the API needs, with 400.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: Deeper than any request body of the API (a match report: 4 levels).
MAX_DEPTH = 32


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests lists/objects more than ``limit`` levels (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class DepthLimitedJSONParser(JSONParser):
    """JSON, refused with 400 when nested more than ``MAX_DEPTH`` levels."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(
                _("JSON parse error - nested more than {MAX_DEPTH} levels.").format(
                    MAX_DEPTH=MAX_DEPTH
                )
            ) from None
        if too_deep(data):
            raise ParseError(
                _("JSON parse error - nested more than {MAX_DEPTH} levels.").format(
                    MAX_DEPTH=MAX_DEPTH
                )
            )
        return data
