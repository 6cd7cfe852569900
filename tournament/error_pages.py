"""Error pages: the API answers in its JSON error shape, everything else in HTML.

Django's own 404/500 pages are HTML; an API client that asks for a URL that does not
resolve (``/api/events/-1/``) or meets a crash must still get
``{"code", "message", "detail"}`` as ``api.md`` promises.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.views import defaults

from matches.errors import AppError


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/, the HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(
            {"code": "not-found", "message": "No such resource.", "detail": {}}, status=404
        )
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/, the HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(
            {
                "code": "server-error",
                "message": "Something went wrong on the server; nothing was changed by this "
                "request unless its answer said so. Try again.",
                "detail": {},
            },
            status=500,
        )
    return defaults.server_error(request)


class AppErrorMiddleware:
    """A refusal (``AppError``) no view caught is answered with its status, never a 500:
    ``{"code", "message", "detail"}`` under /api/, a short page with the message elsewhere.

    The DRF views have their own handler (``tournament.api_errors``) and the console and
    player pages show refusals next to the form; this is the edge for every other view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, AppError):
            return None
        if _is_api(request):
            return JsonResponse(exception.as_dict(), status=exception.status)
        return HttpResponse(
            f"<!doctype html><title>Refused</title><p>{escape(exception.message)}</p>",
            status=exception.status,
        )
