"""System checks: refuse to run the site without a secret key of its own when DEBUG is off;
``check --deploy`` warns of the admin at its default path.

A key that was ever published (the old ``deploy/env.example`` one, placeholders) signs
nothing safely: every deployment that kept it shares it with the world.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

MISSING_SECRET_KEY = "SECRET_KEY must be set when DEBUG is off."
EXAMPLE_SECRET_KEY = "SECRET_KEY is an example value: generate one of your own (deploy/DEPLOY.md)."

#: Keys that were published, or placeholders people leave in (compared case-insensitively).
PUBLISHED_KEYS = frozenset(
    {
        "change-me-to-a-long-random-string",
        "change-me",
        "changeme",
        "secret",
        "dev-only-insecure-key",
    }
)


def has_secret_key() -> bool:
    """Whether a secret key is configured (Django raises when an empty one is read)."""
    try:
        return bool(settings.SECRET_KEY)
    except ImproperlyConfigured:
        return False


def is_example_key() -> bool:
    """Whether the configured key is a published example (only refused when DEBUG is off)."""
    key = str(settings.SECRET_KEY).strip().lower()
    return not settings.DEBUG and (key in PUBLISHED_KEYS or key.startswith("change-me"))


def require_secret_key() -> None:
    """Raise unless a secret key of the site's own is configured (WSGI/ASGI entry points)."""
    if not has_secret_key():
        raise ImproperlyConfigured(MISSING_SECRET_KEY)
    if is_example_key():
        raise ImproperlyConfigured(EXAMPLE_SECRET_KEY)


@register()
def secret_key_check(app_configs: Any, **kwargs: Any) -> list[Error]:
    if not has_secret_key():
        return [
            Error(
                MISSING_SECRET_KEY,
                hint="Set SECRET_KEY, or DEBUG=1 for development.",
                id="tournament.E001",
            )
        ]
    if is_example_key():
        return [
            Error(
                EXAMPLE_SECRET_KEY,
                hint="python -c 'import secrets; print(secrets.token_urlsafe(50))'",
                id="tournament.E002",
            )
        ]
    return []


DEFAULT_ADMIN_PATH = "admin/"


@register(Tags.security, deploy=True)
def admin_path_check(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """``check --deploy``: the admin at the default ``/admin/`` is where every scanner looks."""
    if settings.ADMIN_PATH == DEFAULT_ADMIN_PATH:
        return [
            Warning(
                "The admin is at the default path /admin/, where every scanner tries it.",
                hint="Set ADMIN_PATH to a path of your own (say ops-<random>/) or to off "
                "(deploy/DEPLOY.md).",
                id="tournament.W001",
            )
        ]
    return []
