"""The public sign-up's limit per client address (``SIGNUP_RATE``), shared by the sign-up
page and ``POST /api/events/{id}/signup/``."""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from matches.api.report_throttle import PERIODS
from tournament.web.login_throttle import address_group


def _rate() -> tuple[int, int]:
    count, _, period = settings.SIGNUP_RATE.partition("/")
    return int(count), PERIODS[period.strip()[:1]]


def signup_wait(request: HttpRequest) -> int | None:
    """Count one sign-up from the client's address; seconds to wait if over the rate."""
    limit, seconds = _rate()
    now = time.time()
    window = int(now // seconds)
    digest = hashlib.sha256(address_group(request).encode()).hexdigest()[:32]
    counter = f"signup-rate:{digest}:{window}"
    try:
        count = 1 if cache.add(counter, 1, seconds) else cache.incr(counter)
    except Exception:  # cache down: take the sign-up
        return None
    return None if count <= limit else max(1, int((window + 1) * seconds - now))
