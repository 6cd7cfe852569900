"""Django's Redis cache, with one client object per connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache
call; redis-py fills ~170 response callbacks in each constructor, which cost a game
report more CPU than the ``SET NX`` it sends (``bench/profile_reports.py``, issue 27).
A client is thread-safe and its pool already survives a fork (it checks its pid), so
one client per pool is kept and reused. :func:`cache_client` hands it to the code that
needs Redis itself (the page versions' bump, the rate counter).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    """Django's client with ``get_client`` memoized per pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # its pools and client class are private, not in django-stubs
        pool = django._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = django._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` reusing its clients, whose
    ``clear`` deletes its own keys only."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def clear(self) -> None:
        """Delete every key of this cache's ``KEY_PREFIX``, never other keys.

        Django's ``clear`` flushes the whole Redis database: the keys, Celery queues and
        rate counters of every site (or test run) sharing it. A test that called it
        reset another xdist worker's rate counter mid-test (a 429 expected, a 400 got).
        """
        client = self._cache.get_client(write=True)
        # Django's keys are "<KEY_PREFIX>:<version>:<key>"; glob characters escaped.
        prefix = "".join(f"[{c}]" if c in "*?[]\\" else c for c in self.key_prefix)
        batch: list[bytes] = []
        for key in client.scan_iter(match=prefix + ":*", count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.unlink(*batch)
                batch.clear()
        if batch:
            client.unlink(*batch)


def cache_client() -> Any | None:
    """The default cache's redis-py client for the server it writes to (its pool, its
    connection options), or ``None`` when that cache is not Redis: for the few commands
    Django's cache API has no word for (a Lua script, a key scan)."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, DjangoRedisCache):
        return None
    cache_impl: Any = backend  # Django's client object is private, not in django-stubs
    return cache_impl._cache.get_client(write=True)


#: Lua scripts by their text (``redis.commands.core.Script``: its SHA, loaded on a server
#: the first time it is missing there). Never by client object: clients come and go with
#: the cache's settings, and a new one may reuse a freed one's ``id``.
_scripts: dict[str, Any] = {}


def script_run(client: Any, lua: str, keys: list[str], args: list[Any]) -> Any:
    """Run ``lua`` on ``client``'s server: one ``EVALSHA`` round trip."""
    script = _scripts.get(lua)
    if script is None:
        script = _scripts[lua] = client.register_script(lua)
    return script(keys=keys, args=args, client=client)
