"""Whole public pages in the cache, under ``page_cache``'s versioned keys.

A page is stored as a small dict (its title, its body HTML, its live fragment,
whether its tournament is public), packed by ``delivery.pack``: nothing personal is
ever cached (a logged-in visitor's header is rendered per request). A result
accepted for an event bumps that event's version (``tournament.tasks.pages`` and the
``advance_match`` task), so the next request builds the page afresh. The TTL is
only a safety net for changes that bump nothing (a director renaming an event).

If the cache is down the page is built on every request: slower, never wrong.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, cast

from django.core.cache import cache
from django.utils import translation

from tournament import page_cache
from tournament.pages.delivery import Page, pack

log = logging.getLogger(__name__)

#: Seconds a page may be served without a version bump.
PAGE_TTL = 60
#: Seconds a build may hold its lock, and how long other workers wait for it.
BUILD_LOCK_TTL = 10
BUILD_WAIT = 3.0
#: Seconds a slug -> id lookup is kept (slugs rarely change).
LOOKUP_TTL = 60
#: Pages and lookups each worker process also keeps in memory (most recently used).
LOCAL_SIZE = 64
#: Seconds a worker keeps a page in memory (bounds the harm if the shared cache is
#: flushed and versions start again at 1 under the same keys).
LOCAL_TTL = 10


class _Local:
    """A small in-process LRU in front of the shared cache.

    Safe for pages because their keys carry the versions, which are read from the
    shared cache on every request: a bumped version means a new key, never a stale
    page. A page served from here costs one shared-cache round trip (the versions).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self.lock:
            item = self.items.get(key)
            if item is None:
                return None
            if item[0] < time.monotonic():
                del self.items[key]
                return None
            self.items.move_to_end(key)
            return item[1]

    def put(self, key: str, value: Any, ttl: float) -> None:
        with self.lock:
            self.items[key] = (time.monotonic() + ttl, value)
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


local = _Local(LOCAL_SIZE)


def current_versions(scopes: Sequence[tuple[str, int | str]]) -> list[int]:
    """The versions of ``scopes`` in one cache round trip; all 0 when the cache is down.

    Reads the keys ``page_cache`` keeps (``version_key``) together; a scope never
    bumped yet gets its first version from ``page_cache.version``.
    """
    try:
        keys = [page_cache.version_key(scope, ident) for scope, ident in scopes]
        found = cache.get_many(keys)
        return [
            int(found[key]) if key in found else page_cache.version(scope, ident)
            for key, (scope, ident) in zip(keys, scopes, strict=True)
        ]
    except Exception:
        log.warning("cache unreachable reading versions of %s", scopes, exc_info=True)
        return [0 for _ in scopes]


def cached_page(
    name: str,
    scope: str,
    ident: int | str,
    build: Callable[[str], Page],
    *parts: object,
    also: Sequence[tuple[str, int | str]] = (),
) -> tuple[Page, str]:
    """The page ``name`` of ``scope`` ``ident`` and the version token it was built for.

    Each language has its own copy under its own key, all under the same versions.
    ``also`` lists other scopes the page shows (a Main page draws its Consolation):
    bumping any of them rebuilds the page too. ``build(token)`` makes the page on a
    miss; ``parts`` tell variants apart. The token (the versions joined by ``-``) is
    in the page's cache key and is what live fragments poll with. Two cache round
    trips for a page served from the cache: the versions, then the page (none for the
    page when this worker kept it in memory). A poller that is up to date still gets
    the page: whether the caller may see it (its tournament's facts) is decided before
    the versions are compared, so a private page answers a stranger like a missing one.
    """
    versions = current_versions([(scope, ident), *also])
    token = "-".join(str(v) for v in versions)
    if not all(versions):
        return pack(build("")), ""
    tail = ":".join(str(p) for p in parts)
    # One copy per language (the request's, tournament.web.language); the versions are
    # the same for every language, so one bump invalidates them all at once.
    language = translation.get_language() or "en"
    key = f"page:{name}:{scope}:{ident}:{token}:{language}:{tail}"
    page = local.get(key)
    if page is not None:
        return page, token
    try:
        page = cache.get(key)
    except Exception:
        log.warning("cache unreachable reading %s", key, exc_info=True)
        return pack(build(token)), token
    if page is None:
        page = _build_once(key, lambda: pack(build(token)))
    local.put(key, page, LOCAL_TTL)
    return page, token


def _build_once(key: str, make: Callable[[], Page]) -> Page:
    """Build the page under ``key`` in one worker while the others wait for it.

    When a result is accepted every spectator's next poll misses at once; without
    this each worker would build the same 1,024-player page side by side.
    """
    lock = f"{key}:building"
    try:
        mine = cache.add(lock, 1, BUILD_LOCK_TTL)
    except Exception:
        mine = True
    if not mine:
        deadline = time.monotonic() + BUILD_WAIT
        while time.monotonic() < deadline:
            time.sleep(0.05)
            try:
                page = cache.get(key)
            except Exception:
                break
            if page is not None:
                return cast(dict[str, Any], page)
    try:
        page = make()
        try:
            cache.set(key, page, PAGE_TTL)
        except Exception:
            log.warning("cache unreachable writing %s", key, exc_info=True)
        return page
    finally:
        if mine:
            try:
                cache.delete(lock)
            except Exception:
                log.warning("cache unreachable releasing %s", lock, exc_info=True)


def lookup(key: str, find: Callable[[], Any]) -> Any:
    """A small, slowly changing lookup (slug -> ids): in memory, else found and kept."""
    found = local.get(key)
    if found is None:
        found = find()
        local.put(key, found, LOOKUP_TTL)
    return found


def clear_caches() -> None:
    """Empty this site's keys in the shared cache and this process's copy (tests: each
    database reuses ids). Other keys in the same Redis (other runs') are left alone."""
    page_cache.clear_own_keys()
    local.clear()
