"""Whole public pages in the cache, under ``page_cache``'s versioned keys.

A page is stored as a small dict (its title, its body HTML, its live fragment,
whether its tournament is public); the per-visitor shell (header, login link) is
rendered around it on every request, so nothing personal is ever cached. A result
accepted for an event bumps that event's version (``tournament.receivers`` and the
``match_completed`` task), so the next request builds the page afresh. The TTL is
only a safety net for changes that bump nothing (a director renaming an event).

If the cache is down the page is built on every request: slower, never wrong.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.core.cache import cache

from tournament import page_cache

log = logging.getLogger(__name__)

#: Seconds a page may be served without a version bump.
PAGE_TTL = 60
#: Seconds a slug -> id lookup is kept (slugs rarely change).
LOOKUP_TTL = 300

type Page = dict[str, Any]


def current_version(scope: str, ident: int | str) -> int:
    """The version of ``scope`` ``ident``, or 0 when the cache cannot be reached."""
    try:
        return page_cache.version(scope, ident)
    except Exception:
        log.warning("cache unreachable reading version %s:%s", scope, ident, exc_info=True)
        return 0


def cached_page(
    name: str,
    scope: str,
    ident: int | str,
    build: Callable[[str], Page],
    *parts: object,
    also: Sequence[tuple[str, int | str]] = (),
) -> tuple[Page, str]:
    """The page ``name`` of ``scope`` ``ident`` and the version token it was built for.

    ``also`` lists other scopes the page shows (a Main page draws its Consolation):
    bumping any of them rebuilds the page too. ``build(token)`` makes the page on a
    miss; ``parts`` tell variants apart. The token is what live fragments poll with.
    """
    versions = [current_version(scope, ident), *(current_version(s, i) for s, i in also)]
    token = "-".join(str(v) for v in versions)
    if not all(versions):
        return build(""), ""
    key = page_cache.page_key(name, scope, ident, *versions[1:], *parts)
    try:
        page = cache.get(key)
    except Exception:
        log.warning("cache unreachable reading %s", key, exc_info=True)
        return build(token), token
    if page is None:
        page = build(token)
        try:
            cache.set(key, page, PAGE_TTL)
        except Exception:
            log.warning("cache unreachable writing %s", key, exc_info=True)
    return page, token


def lookup(key: str, find: Callable[[], Any]) -> Any:
    """A small, slowly changing lookup (slug -> ids) kept in the cache."""
    try:
        found = cache.get(key)
    except Exception:
        return find()
    if found is None:
        found = find()
        try:
            cache.set(key, found, LOOKUP_TTL)
        except Exception:
            log.warning("cache unreachable writing %s", key, exc_info=True)
    return found
