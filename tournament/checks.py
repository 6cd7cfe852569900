"""System checks: refuse to run the site without a secret key when DEBUG is off."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

MISSING_SECRET_KEY = "SECRET_KEY must be set when DEBUG is off."


def has_secret_key() -> bool:
    """Whether a secret key is configured (Django raises when an empty one is read)."""
    try:
        return bool(settings.SECRET_KEY)
    except ImproperlyConfigured:
        return False


def require_secret_key() -> None:
    """Raise unless a secret key is configured (called by the WSGI/ASGI entry points)."""
    if not has_secret_key():
        raise ImproperlyConfigured(MISSING_SECRET_KEY)


@register()
def secret_key_check(app_configs: Any, **kwargs: Any) -> list[Error]:
    if has_secret_key():
        return []
    return [
        Error(
            MISSING_SECRET_KEY,
            hint="Set SECRET_KEY, or DEBUG=1 for development.",
            id="tournament.E001",
        )
    ]
