"""Guards at the edge of every request, before any view runs.

- :class:`NulQueryMiddleware`: a NUL character in a query parameter (``?q=%00``) is
  answered 400 naming the parameter. PostgreSQL refuses NUL in text, so such a value
  reaching a query was a 500; no parameter of the site can use one.
- :class:`PrivateLinkNoStoreMiddleware`: pages under a private link (``/r/<key>/``)
  and the pages that show private links (``/me/``, the console's and the API's player
  links) are marked ``Cache-Control: no-store``, so neither a shared cache nor the
  browser's history keeps a page that acts for a player. They also send
  ``Referrer-Policy: strict-origin``: a request made from such a page (an API call,
  a stylesheet) names only the site as its referrer, not the key, so the key is not
  written to logs that record referrers (nginx's error log does). Not ``no-referrer``:
  the browser would then send ``Origin: null`` with a form, and CSRF refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

#: The private report links' prefix (matches/urls.py).
PRIVATE_PREFIX = "/r/"
#: Pages that show private links: a player's own page, the console's and the API's
#: player links (tournament/console/urls.py, tournament/api/urls.py).
SHOWS_LINKS = re.compile(r"^/me/|^/(director|api/tournaments)/(t/)?[^/]+/player-links/")


class NulQueryMiddleware:
    """400 for a query string with a NUL character in a name or value."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "%00" in request.META.get("QUERY_STRING", "") or "\x00" in request.META.get(
            "QUERY_STRING", ""
        ):
            bad = sorted(
                {
                    name.replace("\x00", "\\0")
                    for name, values in request.GET.lists()
                    if "\x00" in name or any("\x00" in v for v in values)
                }
            )
            if bad:
                message = _("A query parameter may not contain a NUL character.")
                if request.path.startswith("/api/"):
                    return JsonResponse(
                        {
                            "code": "invalid",
                            "message": f"{bad[0]}: {message}",
                            "detail": {name: [message] for name in bad},
                        },
                        status=400,
                    )
                return HttpResponse(
                    f"{', '.join(bad)}: {message}\n",
                    status=400,
                    content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)


class PrivateLinkNoStoreMiddleware:
    """``Cache-Control: no-store`` (and friends) and ``Referrer-Policy: strict-origin`` on
    every ``/r/`` response and every page that shows private links."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(PRIVATE_PREFIX) or SHOWS_LINKS.match(request.path):
            add_never_cache_headers(response)
            response.headers["Referrer-Policy"] = "strict-origin"
        return response
