"""Which language a request is answered in (issue 30).

In this order: the signed-in account's preference, else the visitor's choice remembered
in the ``django_language`` cookie (the switcher on every page posts to
:func:`set_language`), else the browser's ``Accept-Language`` among the offered
``LANGUAGES``, else the default language of the tournament the URL names (``/t/<slug>/``,
the console's ``/director/t/<slug>/``, a private link ``/r/<key>/``), else English.

URLs carry no language prefix: every shareable link works in every language, and
responses say ``Vary: Accept-Language, Cookie``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import JavaScriptCatalog

from tournament.models import PlayerLink, Tournament, User
from tournament.pages.caching import lookup

OFFERED = {code for code, _ in settings.LANGUAGES}


#: In ``request.META``: no choice, account or browser language named one.
LANGUAGE_OPEN = "bgd.language_open"


def offered(code: str | None) -> str | None:
    """``code`` as one of the offered languages (``da-DK`` -> ``da``), or ``None``."""
    if not code:
        return None
    code = code.strip().lower().replace("_", "-")
    if code in OFFERED:
        return code
    base = code.split("-")[0]
    return base if base in OFFERED else None


def from_accept_language(header: str) -> str | None:
    """The first language of an ``Accept-Language`` header that is offered."""
    for accept_lang, _q in translation.trans_real.parse_accept_lang_header(header):
        if accept_lang == "*":
            break
        if found := offered(accept_lang):
            return found
    return None


def language_asked_for(request: HttpRequest) -> str:
    """The language the request answers in when the visitor chose it (account, cookie or
    browser), else ``""``: a default the page fell back to says nothing of the reader."""
    if request.META.get(LANGUAGE_OPEN):
        return ""
    return translation.get_language() or ""


def chosen_language(request: HttpRequest) -> str | None:
    """The account's preference, the cookie or the browser's: ``None`` if none is offered."""
    user = getattr(request, "user", None)
    if (
        user is not None
        and user.is_authenticated
        and (found := offered(getattr(user, "language", "")))
    ):
        return found
    if found := offered(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)):
        return found
    return from_accept_language(request.headers.get("Accept-Language", ""))


def tournament_language(kwargs: dict[str, Any]) -> str | None:
    """The default language of the tournament a URL's arguments name, if any (kept in
    memory a minute, as the pages' slug lookups are: a cached page costs no query)."""
    if slug := kwargs.get("slug"):
        code = lookup(
            f"language:slug:{slug}",
            lambda: (
                Tournament.objects.filter(slug=slug).values_list("language", flat=True).first()
                or ""
            ),
        )
    elif key := kwargs.get("key"):
        code = lookup(
            f"language:key:{key}",
            lambda: (
                PlayerLink.objects.filter(key=key)
                .values_list("tournament__language", flat=True)
                .first()
                or ""
            ),
        )
    else:
        return None
    return offered(code)


class LanguageMiddleware:
    """Activate the request's language (module docstring) for the view and its templates."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = chosen_language(request)
        # Nobody chose: the view's tournament may give its default (process_view).
        request.META[LANGUAGE_OPEN] = code is None
        code = code or settings.LANGUAGE_CODE
        translation.activate(code)
        request.LANGUAGE_CODE = code
        try:
            response = self.get_response(request)
        finally:
            language = translation.get_language()
            translation.deactivate()
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", language)
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]
    ) -> None:
        if request.META.get(LANGUAGE_OPEN) and (code := tournament_language(kwargs)):
            translation.activate(code)
            request.LANGUAGE_CODE = code


@csrf_exempt  # only sets a cookie (and the account's preference): no token on cached pages
def set_language(request: HttpRequest) -> HttpResponse:
    """The switcher's target: remember the language, go back to the page it was on."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    nxt = request.POST.get("next") or request.headers.get("Referer") or "/"
    if not url_has_allowed_host_and_scheme(
        nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        nxt = "/"
    response = HttpResponseRedirect(nxt)
    code = offered(request.POST.get("language"))
    if code is None:
        return response
    user = request.user
    if user.is_authenticated and getattr(user, "language", None) != code:
        User.objects.filter(pk=user.pk).update(language=code)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
    )
    return response


#: The site's own strings only (locale/, LOCALE_PATHS): not the admin's.
_catalog = JavaScriptCatalog.as_view(domain="djangojs", packages=["tournament"])


def javascript_catalog(request: HttpRequest, lang: str) -> HttpResponseBase:
    """The scripts' strings in ``lang`` (``gettext``, ``interpolate``...): a script served
    from the site itself, as the Content-Security-Policy wants. The language is in the
    URL (the page names its own), so the answer is the same for everyone and kept a day."""
    with translation.override(offered(lang) or settings.LANGUAGE_CODE):
        response = _catalog(request)
    patch_cache_control(response, public=True, max_age=86400)
    return response
