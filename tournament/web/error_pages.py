"""Error pages: the API answers in its JSON error shape, everything else in a styled page.

Django's own error pages are bare ("403 Forbidden"); an API client that asks for a URL
that does not resolve (``/api/events/-1/``) or meets a crash must still get
``{"code", "message", "detail"}`` as ``api.md`` promises. A person gets a page of the
site that says what happened and what to do: the message a view raised
(``PermissionDenied("This report link is not valid.")``) when it wrote one for people.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.errors import AppError, lost_a_race

log = logging.getLogger(__name__)

#: Status -> (code in the API's shape, title, what to do) for the pages below.
PAGES: dict[int, tuple[str, Any, Any]] = {
    400: (
        "bad-request",
        gettext_lazy("This request could not be read"),
        gettext_lazy("Go back, check what you entered and try again."),
    ),
    401: (
        "not-authenticated",
        gettext_lazy("Please log in first"),
        gettext_lazy(
            "Directors: log in with your account. Players: open the private link your director gave you."
        ),
    ),
    403: (
        "forbidden",
        gettext_lazy("You may not open this page"),
        gettext_lazy(
            "If a director sent you this link, ask them for your link again. "
            "Directors: log in with your account."
        ),
    ),
    404: (
        "not-found",
        gettext_lazy("There is no such page"),
        gettext_lazy(
            "The address may be mistyped, or the page was removed. "
            "Start again from the list of tournaments."
        ),
    ),
    409: (
        "conflict",
        gettext_lazy("This changed while you were looking at it"),
        gettext_lazy("Reload the page to see where things stand, then try again."),
    ),
    503: (
        "busy",
        gettext_lazy("Somebody else was saving a change to the same things at that moment"),
        gettext_lazy(
            "Yours was undone and nothing of it was kept: go back and send the form again."
        ),
    ),
    500: (
        "server-error",
        gettext_lazy("Something went wrong on our side"),
        gettext_lazy(
            "Nothing was changed by this request unless the page said so. "
            "Try again in a moment; if it keeps happening, tell the director's table."
        ),
    ),
}

#: Messages Django writes for programmers, not for people: shown as the plain title instead.
_TECHNICAL = ("matches the given query", "Resolver404", "'path'", "'tried'")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _message(exception: BaseException | None) -> str:
    """The message a view gave its exception, when it is one written for a person."""
    if exception is None or not exception.args:
        return ""
    text = exception.args[0]
    if not isinstance(text, str) or any(t in text for t in _TECHNICAL):
        return ""
    return text


def _page(
    request: HttpRequest | None, status: int, message: str = "", **extra: Any
) -> HttpResponse:
    code, lazy_title, lazy_advice = PAGES[status]
    title, advice = str(lazy_title), str(lazy_advice)
    if request is not None and _is_api(request):
        return JsonResponse(
            {"code": code, "message": message or f"{title}.", "detail": {}}, status=status
        )
    context = {"status": status, "title": title, "message": message, "advice": advice, **extra}
    html: str
    try:
        html = loader.render_to_string(f"errors/{status}.html", context, request=request)
    except Exception:  # never let the error page itself fail
        log.exception("could not render the %s page", status)
        html = f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{advice}</p>"
    return HttpResponse(html, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400: JSON under /api/, the styled page elsewhere (Django's messages here are for
    programmers: a bad Host header, a malformed upload)."""
    return _page(request, 400)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """403: JSON under /api/; elsewhere the styled page, with a private link's own words.

    A refusal that knows the player (an event that is over) links to their results.
    """
    link = getattr(exception, "link", None)
    extra: dict[str, Any] = {}
    if link is not None:
        extra["results_url"] = reverse("link-results", args=[link.key])
    return _page(request, 403, _message(exception), **extra)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: JSON under /api/, the styled page elsewhere."""
    if _is_api(request):
        return JsonResponse(
            {"code": "not-found", "message": _("No such resource."), "detail": {}}, status=404
        )
    return _page(request, 404, _message(exception))


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under /api/, the styled page elsewhere (no database read: it may be down)."""
    if _is_api(request):
        return JsonResponse(
            {
                "code": "server-error",
                "message": _(
                    "Something went wrong on the server; nothing was changed by this "
                    "request unless its answer said so. Try again."
                ),
                "detail": {},
            },
            status=500,
        )
    return _page(None, 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page left open too long (or without cookies): say to reload it."""
    return _page(
        request,
        403,
        _(
            "This form has expired: go back, reload the page and send it again "
            "(cookies must be allowed for this site)."
        ),
    )


def busy(request: HttpRequest, exception: Exception) -> HttpResponse:
    """503 with ``Retry-After``: the database undid the request's transaction because it
    lost a race (a deadlock, a serialization failure). Not an outage, and not a crash:
    logged as a warning, and the person is told to send the form again."""
    log.warning(
        "transaction undone by the database (%s) on %s %s: answered 503 busy",
        exception,
        request.method,
        request.path,
    )
    response = _page(request, 503)
    response["Retry-After"] = "1"
    return response


class AppErrorMiddleware:
    """A refusal (``AppError``) no view caught is answered with its status, never a 500:
    ``{"code", "message", "detail"}`` under /api/, a short page with the message elsewhere.
    A transaction the database undid because it lost a race (deadlock, serialization
    failure) is answered 503 busy (:func:`busy`), not the generic 500.

    The DRF views have their own handler (``tournament.api.errors``) and the console and
    player pages show refusals next to the form; this is the edge for every other view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError) and lost_a_race(exception):
            return busy(request, exception)
        if not isinstance(exception, AppError):
            return None
        if _is_api(request):
            return JsonResponse(exception.as_dict(), status=exception.status)
        if exception.status == 403:  # as Django's refusals: a private link's own words
            return forbidden(request, exception)
        if exception.status == 404:
            return not_found(request, exception)
        status = exception.status if exception.status in PAGES else 400
        return _page(request, status, exception.message)
