"""Reports per link per minute: the /r/<key>/ forms and the API's report endpoints.

One limit, ``settings.REPORT_LINK_RATE`` (e.g. ``120/min``), counted in the cache per
link: the account when one is signed in, else the player the private key names (the
URL's, ``X-Report-Key`` or a JSON body's ``key``; resolved as the lookup resolves it). A phone reporting a match never comes near it; a script replaying a
link is answered 429 with ``Retry-After`` before anything is parsed or stored.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext
from rest_framework.exceptions import ParseError
from rest_framework.throttling import BaseThrottle

from core.ratelimit import parse_rate, window_wait
from matches.access import key_holder


def rate() -> tuple[int, int]:
    """``REPORT_LINK_RATE`` as (requests, seconds)."""
    return parse_rate(settings.REPORT_LINK_RATE)


def link_wait(link: str) -> int | None:
    """Count one request for ``link``; seconds to wait if it is over the rate, else None."""
    return window_wait("report-rate", link, rate())


def _api_link(request: Any) -> str | None:
    """Whose count a report goes on; None for no credentials (answered 401, nothing stored).

    A signed-in user (session or token) is counted as the account whatever else the
    request carries: a director's role comes from the account and ignores a report key,
    so a new ``X-Report-Key`` each time must not buy a new count. Otherwise the private
    key (``X-Report-Key`` or a JSON body's ``key``).
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        # With the account's creation time: test databases reuse ids, production does not.
        return f"user:{user.pk}:{user.date_joined.timestamp()}"
    key = request.headers.get("X-Report-Key")
    if not key and request.content_type.startswith("application/json"):
        try:  # a JSON body may carry the key (multipart is left unread)
            data = request.data
        except ParseError:  # the view answers that
            data = None
        key = data.get("key") if isinstance(data, dict) else None
    if isinstance(key, str) and key.strip():
        return key_holder(key)
    return None


class ReportLinkThrottle(BaseThrottle):
    """DRF throttle for the report endpoints (POSTs only), per link."""

    def allow_request(self, request: Any, view: Any) -> bool:
        link = _api_link(request) if request.method == "POST" else None
        self._wait = link_wait(link) if link else None
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


def link_rate_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a /r/<key>/ view: 429 once the link is over the rate."""

    @functools.wraps(view)
    def limited(request: HttpRequest, key: str, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = link_wait(key_holder(key))
        if wait is not None:
            response = HttpResponse(
                ngettext(
                    "Too many reports from this link. Wait {wait} second and send it again.",
                    "Too many reports from this link. Wait {wait} seconds and send it again.",
                    wait,
                ).format(wait=wait)
                + "\n",
                status=429,
                content_type="text/plain; charset=utf-8",
            )
            response["Retry-After"] = str(wait)
            return response
        return view(request, key, *args, **kwargs)

    return limited
