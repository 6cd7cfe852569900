"""How a built page is stored and sent: gzipped once when built, never per request.

A page is built as a dict: ``content`` (the main element's HTML, with ``LIVE_MARK``
where the live fragment goes), ``live`` (that fragment, if the page has one) or
``html`` (a standalone page: print sheets, slips). ``pack`` turns it into what the
cache keeps: the small ``head``, the gzipped ``live_gz``, and ``anon_gz``, the whole
page as an anonymous visitor sees it (header with "Log in", no token, no message),
gzipped. Spectators, most of the traffic, get ``anon_gz`` as it is: one cache read,
no template, a tenth of the bytes. Logged-in visitors get the shell rendered
around the content, as usual.
"""

from __future__ import annotations

import gzip
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

type Page = dict[str, Any]

LIVE_MARK = "<!--live-->"
SHELL = "public/shell.html"
HTML = "text/html; charset=utf-8"


def _gz(text: str) -> bytes:
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


def pack(page: Page) -> Page:
    """The cacheable form of a freshly built ``page``."""
    packed = {k: v for k, v in page.items() if k not in ("content", "live", "html")}
    if "html" in page:
        packed["html_gz"] = _gz(page["html"])
        return packed
    live = page.get("live", "")
    packed["head"] = page["content"]
    packed["live_gz"] = _gz(live) if live else b""
    full = page["content"].replace(LIVE_MARK, live)
    shell = {**packed, "content": full}
    anonymous = render_to_string(SHELL, {"page": shell, "user": AnonymousUser(), "messages": ()})
    packed["anon_gz"] = _gz(anonymous)
    return packed


def _accepts_gzip(request: HttpRequest) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "")


def _bytes_response(request: HttpRequest, compressed: bytes) -> HttpResponse:
    if _accepts_gzip(request):
        response = HttpResponse(compressed, content_type=HTML)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(compressed), content_type=HTML)
    patch_vary_headers(response, ["Accept-Encoding", "Cookie"])
    return edge_cacheable(request, response)


def edge_cacheable(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Let the proxy in front keep ``response`` for ``EDGE_CACHE_SECONDS`` when it is what
    every anonymous visitor gets (``X-Accel-Expires``, which nginx reads and never passes
    on). Only for a page the caller has already found public or visible to everyone:
    deploy/nginx.conf keys the copy on the URL (the live version included), gzip and the
    language, and never serves or stores one for a visitor with a session or a message."""
    seconds = settings.EDGE_CACHE_SECONDS
    if seconds > 0 and _plainly_anonymous(request):
        response["X-Accel-Expires"] = str(seconds)
    return response


def _plainly_anonymous(request: HttpRequest) -> bool:
    """No session and no pending message: the visitor sees the page as everyone does."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def page_response(request: HttpRequest, page: Page, version: str) -> HttpResponse:
    """The whole page for ``request``'s visitor."""
    if _plainly_anonymous(request):
        return _bytes_response(request, page["anon_gz"])
    live = gzip.decompress(page["live_gz"]).decode() if page["live_gz"] else ""
    shell = {**page, "content": page["head"].replace(LIVE_MARK, live)}
    response = render(request, SHELL, {"page": shell, "version": version})
    patch_vary_headers(response, ["Cookie"])
    return response


def live_response(request: HttpRequest, page: Page) -> HttpResponse:
    """The live fragment alone (what htmx swaps in)."""
    return _bytes_response(request, page["live_gz"])


def standalone_response(request: HttpRequest, page: Page) -> HttpResponse:
    """A page that is the same for everyone (print sheets, slips)."""
    return _bytes_response(request, page["html_gz"])
