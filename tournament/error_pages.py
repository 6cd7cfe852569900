"""Error pages: the API answers in its JSON error shape, everything else in HTML.

Django's own 404/500 pages are HTML; an API client that asks for a URL that does not
resolve (``/api/events/-1/``) or meets a crash must still get
``{"code", "message", "detail"}`` as ``api.md`` promises.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


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
