"""Versioned cache keys for public pages: bump a version to invalidate every page of it.

Pages of an event (bracket, standings, match pages) are cached under keys that
contain the event's version; accepting a result bumps the version, so stale
pages are never served and nothing has to enumerate keys to delete.
"""

from __future__ import annotations

import logging
from functools import partial

import redis
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from core.redis_cache import cache_client, script_run

log = logging.getLogger(__name__)

VERSION_TTL = 60 * 60 * 24 * 30


def version_key(scope: str, ident: int | str) -> str:
    """The cache key holding the version of ``scope`` ``ident`` (read many at once with get_many)."""
    return f"v:{scope}:{ident}"


def version(scope: str, ident: int | str) -> int:
    """The current version of ``scope`` ``ident`` (e.g. ``("event", 7)``)."""
    key = version_key(scope, ident)
    value = cache.get(key)
    if value is None:
        cache.add(key, 1, VERSION_TTL)
        value = cache.get(key, 1)
    return int(value)


def bump(scope: str, ident: int | str) -> None:
    """Invalidate every page cached under ``scope`` ``ident``."""
    key = version_key(scope, ident)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 2, VERSION_TTL)


#: :func:`bump_many` on Redis: each version created at 1 if missing (with the versions'
#: TTL), then incremented. One ``EVALSHA`` (redis-py's ``Script`` loads it again after a
#: Redis restart): a pipeline's client object and six packed commands cost more CPU
#: than the report that bumps them (bench/RESULTS.md, issue 27).
_BUMP_LUA = """
for _, key in ipairs(KEYS) do
  redis.call('SET', key, 1, 'EX', ARGV[1], 'NX')
  redis.call('INCR', key)
end
return #KEYS
"""


def bump_many(*scopes: tuple[str, int | str]) -> None:
    """Bump several versions at once: one round trip to Redis, :func:`bump` each otherwise.

    On Redis each version is created at 1 if missing (``SET NX``, with the versions' TTL)
    and then incremented, so a missing one becomes 2 as with :func:`bump`.
    """
    client = _redis_client()
    if client is None:
        for scope, ident in scopes:
            bump(scope, ident)
        return
    keys = [cache.make_and_validate_key(version_key(scope, ident)) for scope, ident in scopes]
    script_run(client, _BUMP_LUA, keys, [VERSION_TTL])


def _redis_client() -> redis.Redis | None:
    """The default cache's own client (``core.redis_cache.cache_client``: its server, its
    pool, its connection options), or ``None`` when the cache is not Redis."""
    client: redis.Redis | None = cache_client()
    return client


def clear_own_keys() -> None:
    """Delete every key of the default cache's ``KEY_PREFIX``, never other keys
    (``core.redis_cache.RedisCache.clear``; local memory: this process's own)."""
    cache.clear()


def page_key(name: str, scope: str, ident: int | str, *parts: object) -> str:
    """A cache key for page ``name`` that changes whenever ``scope`` ``ident`` is bumped,
    one per language (the active one): a bump invalidates every language at once."""
    tail = ":".join(str(p) for p in parts)
    language = translation.get_language() or "en"
    return f"page:{name}:{scope}:{ident}:{version(scope, ident)}:{language}:{tail}"


def invalidate_event(event_id: int, tournament_id: int | None = None) -> None:
    """An event's result changed: its pages and its tournament's pages are stale."""
    scopes: list[tuple[str, int | str]] = [("event", event_id), ("site", 0)]
    if tournament_id is not None:
        scopes.insert(1, ("tournament", tournament_id))
    bump_many(*scopes)


def invalidate_event_on_commit(event_id: int, tournament_id: int) -> None:
    """Invalidate an event's pages once the current transaction commits (a cache outage is logged)."""
    transaction.on_commit(partial(_invalidate_quietly, event_id, tournament_id), robust=True)


def _invalidate_quietly(event_id: int, tournament_id: int) -> None:
    try:
        invalidate_event(event_id, tournament_id)
    except Exception:
        log.warning("could not invalidate pages of event %s", event_id, exc_info=True)


def invalidate_tournament_on_commit(tournament_id: int, event_ids: list[int]) -> None:
    """A tournament's details changed (name, dates...): once the transaction commits, its
    pages, the site's lists and every page of its events (which show them) are stale."""

    def bump_all() -> None:
        try:
            bump_many(
                ("tournament", tournament_id),
                ("site", 0),
                *(("event", event_id) for event_id in event_ids),
            )
        except Exception:
            log.warning("could not invalidate pages of tournament %s", tournament_id, exc_info=True)

    transaction.on_commit(bump_all, robust=True)
