"""Django's Redis cache, building one Redis client per connection pool instead of per call.

``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every ``get``, ``add`` or
``incr``; building one costs more CPU than the round trip it serves (a tenth of a game
report's, bench/RESULTS.md). Django names ``get_client`` as the place for a custom client.
Caches are per thread in Django, so each thread keeps its own clients.
"""

from __future__ import annotations

from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    """A ``RedisCacheClient`` that keeps the client it builds for each pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, redis.Redis] = {}  # by id() of their pool; pools live on

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # The pool as Django picks it (the stubs do not declare the method).
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = redis.Redis(connection_pool=pool)
        return client


class ReusingRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with :class:`ReusingRedisCacheClient`."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    def raw_client(self) -> Any:
        """The Redis client for writes, for pipelines the cache API does not offer."""
        return self._cache.get_client(write=True)
