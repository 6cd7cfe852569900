"""The public sign-up's limit per client address (``SIGNUP_RATE``), shared by the sign-up
page and ``POST /api/events/{id}/signup/``."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from core.ratelimit import parse_rate, window_wait
from tournament.web.login_throttle import address_group


def signup_wait(request: HttpRequest) -> int | None:
    """Count one sign-up from the client's address; seconds to wait if over the rate."""
    return window_wait("signup-rate", address_group(request), parse_rate(settings.SIGNUP_RATE))
