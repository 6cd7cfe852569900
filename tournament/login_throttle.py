"""Logging in, throttled: by the client's real address and, per account, with backoff.

Every door that checks a password uses this: the HTML login, ``/admin/login/`` and the
API's token endpoint (tournament/api/auth.py).

- The address is the client's own (:func:`client_address`): ``REMOTE_ADDR``, or with
  ``NUM_PROXIES`` trusted proxies in front (nginx: 1) the address the nearest of them
  saw, read from the right of ``X-Forwarded-For``. A client cannot pick it by sending
  a header of its own, and visitors behind the one nginx are not counted as one.
  Too many failures from one address in a window and that address is refused.
- Per username, failures earn a refusal window that doubles with each failure past
  the first few (15 s, 30 s, 1 min ... up to 15 min) and is forgotten on a success.
  Anybody can still slow a director's logins down by guessing their name, but not
  lock every director out, and a guesser gets a few tries an hour, not millions.

Counts live in the cache (Redis in production, shared by every worker); with the
cache down nobody is refused.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from matches.client_address import client_address

#: Failed attempts allowed per address in a window.
ADDRESS_MAX_FAILURES = 20
ADDRESS_WINDOW_SECONDS = 600
#: Failures per username before the first refusal window; the first window; the longest.
USER_FREE_FAILURES = 5
USER_FIRST_DELAY = 15
USER_MAX_DELAY = 900
#: How long a username's failures are remembered without a new one.
USER_MEMORY_SECONDS = 24 * 3600


def _username_key(username: object) -> str:
    return "login:user:" + str(username or "").strip().casefold()[:150].encode().hex()


def _address_key(request: HttpRequest) -> str:
    return f"login:addr:{client_address(request)}"


def user_delay(failures: int) -> int:
    """Seconds a username is refused after ``failures`` failures in a row."""
    if failures < USER_FREE_FAILURES:
        return 0
    return min(USER_MAX_DELAY, USER_FIRST_DELAY * 2 ** (failures - USER_FREE_FAILURES))


def refusal(request: HttpRequest, username: object) -> int | None:
    """Seconds to wait before trying again, or None when the attempt may go ahead."""
    try:
        if int(cache.get(_address_key(request), 0)) >= ADDRESS_MAX_FAILURES:
            return ADDRESS_WINDOW_SECONDS
        if not str(username or "").strip():
            return None
        record = cache.get(_username_key(username))
    except Exception:  # cache down: do not lock everybody out
        return None
    if not record:
        return None
    wait = record["last"] + user_delay(record["failures"]) - time.time()
    return math.ceil(wait) if wait > 0 else None


def failure_record(request: HttpRequest, username: object) -> None:
    """Count a failed attempt against the address and the username."""
    try:
        key = _address_key(request)
        if not cache.add(key, 1, ADDRESS_WINDOW_SECONDS):
            cache.incr(key)
        if str(username or "").strip():
            user_key = _username_key(username)
            record = cache.get(user_key) or {"failures": 0}
            cache.set(
                user_key,
                {"failures": record["failures"] + 1, "last": time.time()},
                USER_MEMORY_SECONDS,
            )
    except Exception:
        return


def success_record(username: object) -> None:
    """A right password: the username's failures are forgotten."""
    try:
        cache.delete(_username_key(username))
    except Exception:
        return


def refused_message(wait: int) -> str:
    return f"Too many failed attempts. Wait {wait} seconds before trying again."


def _refused(response: HttpResponse, wait: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view, answering 429 while the address or the username is refused."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        username = request.POST.get("username", "")
        wait = refusal(request, username)
        if wait is not None:
            # Bound without the password, so that nothing is authenticated.
            form = self.get_form_class()(request, data={"username": username})
            form.add_error(None, refused_message(wait))
            return _refused(self.render_to_response(self.get_context_data(form=form)), wait)
        response = super().post(request, *args, **kwargs)
        if response.status_code == 302:
            success_record(username)
        else:  # the form came back: the attempt failed
            failure_record(request, username)
        return response


def throttled_login(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a login view (the admin's): refuse while throttled, count the outcome."""

    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        wait = refusal(request, username)
        if wait is not None:
            return _refused(
                HttpResponse(refused_message(wait), content_type="text/plain; charset=utf-8"),
                wait,
            )
        response = view(request, *args, **kwargs)
        if response.status_code == 302:
            success_record(username)
        else:
            failure_record(request, username)
        return response

    return wrapped
