"""Versioned cache keys for public pages: bump a version to invalidate every page of it.

Pages of an event (bracket, standings, match pages) are cached under keys that
contain the event's version; accepting a result bumps the version, so stale
pages are never served and nothing has to enumerate keys to delete.
"""

from __future__ import annotations

from django.core.cache import cache

VERSION_TTL = 60 * 60 * 24 * 30


def _version_key(scope: str, ident: int | str) -> str:
    return f"v:{scope}:{ident}"


def version(scope: str, ident: int | str) -> int:
    """The current version of ``scope`` ``ident`` (e.g. ``("event", 7)``)."""
    key = _version_key(scope, ident)
    value = cache.get(key)
    if value is None:
        cache.add(key, 1, VERSION_TTL)
        value = cache.get(key, 1)
    return int(value)


def bump(scope: str, ident: int | str) -> None:
    """Invalidate every page cached under ``scope`` ``ident``."""
    key = _version_key(scope, ident)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 2, VERSION_TTL)


def page_key(name: str, scope: str, ident: int | str, *parts: object) -> str:
    """A cache key for page ``name`` that changes whenever ``scope`` ``ident`` is bumped."""
    tail = ":".join(str(p) for p in parts)
    return f"page:{name}:{scope}:{ident}:{version(scope, ident)}:{tail}"


def invalidate_event(event_id: int, tournament_id: int | None = None) -> None:
    """An event's result changed: its pages and its tournament's pages are stale."""
    bump("event", event_id)
    if tournament_id is not None:
        bump("tournament", tournament_id)
    bump("site", 0)
