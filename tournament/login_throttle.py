"""The HTML login, throttled: after too many failed attempts from one address or for
one username, further attempts are refused for a while without checking a password.

The API's token endpoint has DRF's throttle (10 a minute); this is the same limit
for the login form, kept in the cache (Redis in production, shared by every worker).
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

#: Failed attempts allowed per window, per address and per username.
MAX_FAILURES = 10
WINDOW_SECONDS = 60


def _keys(request: HttpRequest) -> list[str]:
    address = request.META.get("REMOTE_ADDR", "")
    username = str(request.POST.get("username", "")).strip().casefold()[:150]
    keys = [f"login-fail:ip:{address}"]
    if username:
        keys.append(f"login-fail:user:{username}")
    return keys


def _failures(key: str) -> int:
    try:
        return int(cache.get(key, 0))
    except Exception:  # cache down: do not lock everybody out
        return 0


def _count_failure(key: str) -> None:
    try:
        if not cache.add(key, 1, WINDOW_SECONDS):
            cache.incr(key)
    except Exception:
        return


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view, answering 429 once an address or username has failed too often."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        keys = _keys(request)
        if any(_failures(key) >= MAX_FAILURES for key in keys):
            # Bound without the password, so that nothing is authenticated.
            form = self.get_form_class()(
                request, data={"username": request.POST.get("username", "")}
            )
            form.add_error(None, "Too many failed attempts. Wait a minute before trying again.")
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            return response
        response = super().post(request, *args, **kwargs)
        if response.status_code != 302:  # the form came back: the attempt failed
            for key in keys:
                _count_failure(key)
        return response
