"""The fixed-window rate counter on Redis: one round trip a request, a window that expires,
and a cache moved to another Redis server counts there (its script loaded anew)."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings

from core.ratelimit import window_wait
from core.redis_cache import cache_client
from tests.matches.test_services_run import PrivateRedis

pytestmark = pytest.mark.services


class _Commands:
    """The commands the cache's Redis client sends inside the block."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.sent: list[str] = []

    def __enter__(self) -> list[str]:
        original = self.client.execute_command

        def counting(*args: object, **kwargs: object) -> object:
            self.sent.append(str(args[0]))
            return original(*args, **kwargs)

        self.client.execute_command = counting
        return self.sent

    def __exit__(self, *exc: object) -> None:
        del self.client.execute_command


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    redis = PrivateRedis()
    yield redis
    redis.stop()


def test_each_request_is_one_round_trip_and_the_window_expires() -> None:
    client = cache_client()
    assert client is not None
    window_wait("t-rate", uuid.uuid4().hex, (3, 60))  # the script loaded on this server
    subject = uuid.uuid4().hex
    with _Commands(client) as sent:
        waits = [window_wait("t-rate", subject, (3, 60)) for _ in range(5)]
    assert waits[:3] == [None, None, None]
    assert all(isinstance(w, int) and 1 <= w <= 60 for w in waits[3:])
    assert sent == ["EVALSHA"] * 5
    digest = hashlib.sha256(subject.encode()).hexdigest()[:32]
    (key,) = client.keys(cache.make_and_validate_key(f"t-rate:{digest}:*"))
    assert 0 < client.ttl(key) <= 60
    assert int(client.get(key)) == 5


def test_a_cache_on_another_server_counts_there(private_redis: PrivateRedis) -> None:
    subject = uuid.uuid4().hex
    window_wait("t-rate", subject, (1, 60))  # the script known on the usual server
    other = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": private_redis.url,
            "KEY_PREFIX": f"t-{uuid.uuid4().hex[:8]}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    with override_settings(CACHES=other):
        assert window_wait("t-rate", subject, (1, 60)) is None  # a new count there
        assert window_wait("t-rate", subject, (1, 60)) is not None
        client = cache_client()
        assert client is not None
        assert client.connection_pool.connection_kwargs["port"] == private_redis.port
    private_redis.stop()
    with override_settings(CACHES=other):
        assert window_wait("t-rate", uuid.uuid4().hex, (1, 60)) is None  # down: refuses nothing
