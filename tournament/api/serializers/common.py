"""What the entity modules share: the reader, partial changes, a reason."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


def reader(serializer: serializers.Serializer[Any]) -> Any:
    """The user the serializer answers (``context["request"]``), or ``None``."""
    request = serializer.context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def all_optional(
    fields: dict[str, serializers.Field[Any, Any, Any, Any]],
) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    """A create serializer's fields for a partial change: a field not sent keeps its value."""
    for field in fields.values():
        field.required = False
        field.default = serializers.empty
    return fields


class ReasonSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
