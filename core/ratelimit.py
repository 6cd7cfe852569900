"""The one fixed-window rate counter: requests per subject per window, counted in the cache.

Used for reports per link (``REPORT_LINK_RATE``), sign-ups per address (``SIGNUP_RATE``)
and the rejected reports per link whose content is stored (``REPORT_REJECTED_KEPT_PER_HOUR``,
``matches.services.report_budget``). A cache that is down refuses nothing.
"""

from __future__ import annotations

import hashlib
import time

from django.core.cache import cache

from core.redis_cache import cache_client, script_run

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

#: One round trip on Redis: count, and start the window's expiry with its first request.
_COUNT_LUA = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""


def _count(counter: str, seconds: int) -> int:
    """Count one request under ``counter`` (a cache key, expiring after ``seconds``)."""
    client = cache_client()
    if client is None:  # local memory: two calls, no round trip
        return 1 if cache.add(counter, 1, seconds) else cache.incr(counter)
    return int(script_run(client, _COUNT_LUA, [cache.make_and_validate_key(counter)], [seconds]))


def parse_rate(text: str) -> tuple[int, int]:
    """A rate such as ``120/min`` as (requests, seconds)."""
    count, _, period = text.partition("/")
    return int(count), PERIODS[period.strip()[:1]]


def window_wait(prefix: str, subject: str, rate: tuple[int, int]) -> int | None:
    """Count one request of ``subject`` under ``prefix``; seconds to wait if that is over
    ``rate`` (requests, seconds) in the current window, else None."""
    limit, seconds = rate
    now = time.time()
    window = int(now // seconds)
    # The subject as a digest: it may come from the client and hold any character.
    digest = hashlib.sha256(subject.encode(errors="surrogatepass")).hexdigest()[:32]
    counter = f"{prefix}:{digest}:{window}"
    try:
        count = _count(counter, seconds)
    except Exception:  # cache down: refuse nothing
        return None
    if count <= limit:
        return None
    return max(1, int((window + 1) * seconds - now))
