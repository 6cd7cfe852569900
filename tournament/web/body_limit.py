"""Refuse an oversized upload before anything reads its body.

Django's CSRF check reads ``request.POST`` (parsing a whole multipart upload to a
temporary file) before a view can look at ``Content-Length``. This middleware sits
in front of it: a request that declares more than a match file's limit (plus room
for the form around it) is answered 413 unread. API requests without a session are
left to their view, which refuses them unread too and stores the attempt.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from core.http import declared_length, declares_too_much
from matches.services.records import file_too_large, max_file_bytes


class BodyLimitMiddleware:
    """413 for bodies over ``MATCH_FILE_MAX_BYTES`` + the envelope, before CSRF reads them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if declares_too_much(request, max_file_bytes()):
            length = declared_length(request)
            api = request.path.startswith("/api/")
            if not api or settings.SESSION_COOKIE_NAME in request.COOKIES:
                error = file_too_large(length)
                if api:
                    return JsonResponse(error.as_dict(), status=error.status)
                return HttpResponse(
                    f"{error.message}\n",
                    status=error.status,
                    content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)
