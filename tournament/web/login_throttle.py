"""Logging in, throttled: by the client's real address and, per account, with backoff.

Every door that checks a password uses this: the HTML login, ``/admin/login/`` and the
API's token endpoint (tournament/api/auth.py).

- The address is the client's own (:func:`client_address`): ``REMOTE_ADDR``, or with
  ``NUM_PROXIES`` trusted proxies in front (nginx: 1) the address the nearest of them
  saw, read from the right of ``X-Forwarded-For``. A client cannot pick it by sending
  a header of its own, and visitors behind the one nginx are not counted as one. An
  IPv6 address counts as its /64 (one host holds a whole /64). Only failures for names
  that do not exist count against the address (a sprayer of made-up names): too many in
  a window and the address is slowed, not blocked. Each attempt from it then waits
  ``ADDRESS_SLOW_SECONDS`` and is still checked: a right password logs in (a director
  on the venue's Wi-Fi whose account is not itself under attack is never refused for
  others' failures), a wrong one, or an unknown name, is answered 429 alike (the answer
  tells no name from another).
- Per account, failures earn a refusal window that doubles with each failure past
  the first few (15 s, 30 s, 1 min ... up to 15 min) and is forgotten on a success.
  The account is the username as Django's login form reads it (NFKC, then casefold):
  look-alike spellings (fullwidth, mathematical bold) that log in as the account are
  counted as it.
- A browser the account logged in from before (a signed cookie) is let past both
  limits: a guesser, even one on the director's own address (the venue's Wi-Fi),
  cannot keep its owner out. An address (its /64) the account logged in from before
  has a backoff of its own: a guesser elsewhere cannot lock the account out of it, but
  everyone behind it is still slowed per account by the failures made from it.

Counts are cache counters (``add``/``incr``, atomic in Redis: parallel guesses are all
counted), shared by every worker; with the cache down nobody is refused.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
import unicodedata
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from core.http import client_address

#: Failed attempts for names that do not exist allowed per address in a window; then
#: each attempt from the address is slowed by ``ADDRESS_SLOW_SECONDS``.
ADDRESS_MAX_FAILURES = 20
ADDRESS_WINDOW_SECONDS = 600
ADDRESS_SLOW_SECONDS = 1.0
#: Failures per username before the first refusal window; the first window; the longest.
USER_FREE_FAILURES = 5
USER_FIRST_DELAY = 15
USER_MAX_DELAY = 900
#: How long a username's failures are remembered without a new one.
USER_MEMORY_SECONDS = 24 * 3600
#: How long an address or a browser an account logged in from stays known.
KNOWN_SECONDS = 90 * 24 * 3600
#: The signed cookie naming the accounts (digests) that logged in from a browser; how many.
KNOWN_COOKIE = "login_known"
KNOWN_COOKIE_SALT = "tournament.web.login_throttle.known"
KNOWN_COOKIE_ACCOUNTS = 5


def account_name(username: object) -> str:
    """A username as the throttle knows it: normalised as Django's login form normalises
    it before authenticating (NFKC), then case-folded (and NFKC again: folding can undo
    it), so that every spelling that logs in as one account is one count."""
    name = unicodedata.normalize("NFKC", str(username or "")).strip()
    return unicodedata.normalize("NFKC", name.casefold())[:150]


def _account(username: object) -> str:
    """A username as a cache and cookie key (``account_name``, a digest: any characters)."""
    name = account_name(username)
    return hashlib.sha256(name.encode(errors="surrogatepass")).hexdigest()[:32]


def address_group(request: HttpRequest) -> str:
    """The client's address as throttles count it: IPv4 itself, IPv6 its /64."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _address_key(request: HttpRequest) -> str:
    return f"login:addr:{address_group(request)}"


def _failures_key(username: object) -> str:
    return f"login:user:{_account(username)}:failures"


def _last_key(username: object) -> str:
    return f"login:user:{_account(username)}:last"


def _address_digest(request: HttpRequest) -> str:
    return hashlib.sha256(address_group(request).encode()).hexdigest()[:32]


def _known_key(request: HttpRequest, username: object) -> str:
    return f"login:known:{_account(username)}:{_address_digest(request)}"


def _local_failures_key(request: HttpRequest, username: object) -> str:
    """The account's failures made from this address (its /64)."""
    return f"login:user:{_account(username)}:{_address_digest(request)}:failures"


def _local_last_key(request: HttpRequest, username: object) -> str:
    return f"login:user:{_account(username)}:{_address_digest(request)}:last"


def _counted(key: str, timeout: int) -> int:
    """Add one to a cache counter, atomically; its new value."""
    if cache.add(key, 1, timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout)
        return 1


def user_delay(failures: int) -> int:
    """Seconds a username is refused after ``failures`` failures in a row."""
    if failures < USER_FREE_FAILURES:
        return 0
    return min(USER_MAX_DELAY, int(USER_FIRST_DELAY * 2 ** (failures - USER_FREE_FAILURES)))


def _cookie_accounts(request: HttpRequest) -> list[str]:
    try:
        value = request.get_signed_cookie(
            KNOWN_COOKIE, default="", salt=KNOWN_COOKIE_SALT, max_age=KNOWN_SECONDS
        )
    except Exception:  # tampered or unreadable: a stranger
        return []
    return [a for a in str(value).split(":") if a]


def known_browser(request: HttpRequest, username: object) -> bool:
    """Whether the account logged in before from this browser (a valid signed cookie)."""
    return bool(account_name(username)) and _account(username) in _cookie_accounts(request)


def known_address(request: HttpRequest, username: object) -> bool:
    """Whether the account logged in before from this address (its /64)."""
    try:
        return bool(cache.get(_known_key(request, username)))
    except Exception:
        return False


def _name_exists(username: object) -> bool:
    """Whether an account has this username (as the login form reads it, any case)."""
    name = unicodedata.normalize("NFKC", str(username or "")).strip()
    if not name:
        return False
    try:
        return bool(get_user_model()._default_manager.filter(username__iexact=name).exists())
    except Exception:  # the database is down: count it, as before
        return False


def address_slowed(request: HttpRequest, username: object) -> bool:
    """Whether this attempt comes from an address past its limit of failures for names
    that do not exist (a known browser is never slowed). The caller waits
    ``ADDRESS_SLOW_SECONDS``, checks the password, and answers a failure 429."""
    if known_browser(request, username):
        return False
    try:
        return int(cache.get(_address_key(request), 0)) >= ADDRESS_MAX_FAILURES
    except Exception:
        return False


def slow_down() -> None:
    time.sleep(ADDRESS_SLOW_SECONDS)


def refusal(request: HttpRequest, username: object) -> int | None:
    """Seconds to wait before trying again, or None when the attempt may go ahead.

    A known browser goes ahead; anyone else waits out the account's backoff: from an
    address the account logged in from, the failures made from that address; from
    anywhere else, all of them. (An address' failures slow it: :func:`address_slowed`.)
    """
    if known_browser(request, username):
        return None
    try:
        if not account_name(username):
            return None
        if known_address(request, username):
            keys = [_local_failures_key(request, username), _local_last_key(request, username)]
        else:
            keys = [_failures_key(username), _last_key(username)]
        found = cache.get_many(keys)
    except Exception:  # cache down: do not lock everybody out
        return None
    failures = int(found.get(keys[0], 0))
    last = found.get(keys[1])
    if not failures or last is None:
        return None
    wait = float(last) + user_delay(failures) - time.time()
    return math.ceil(wait) if wait > 0 else None


def failure_record(request: HttpRequest, username: object) -> None:
    """Count a failed attempt against the account (overall, and from this address), and
    against the address when no account has that name."""
    try:
        if not _name_exists(username):
            _counted(_address_key(request), ADDRESS_WINDOW_SECONDS)
        if account_name(username):
            now = time.time()
            for key, last in (
                (_failures_key(username), _last_key(username)),
                (_local_failures_key(request, username), _local_last_key(request, username)),
            ):
                _counted(key, USER_MEMORY_SECONDS)
                cache.touch(key, USER_MEMORY_SECONDS)  # remembered from the latest failure
                cache.set(last, now, USER_MEMORY_SECONDS)
    except Exception:
        return


def success_record(
    username: object, request: HttpRequest | None = None, response: HttpResponse | None = None
) -> None:
    """A right password: the username's failures are forgotten, and the address (and with
    a response, the browser, by a signed cookie) is known to the account from now on."""
    try:
        cache.delete_many([_failures_key(username), _last_key(username)])
        if request is not None:
            cache.delete_many(
                [_local_failures_key(request, username), _local_last_key(request, username)]
            )
            cache.set(_known_key(request, username), 1, KNOWN_SECONDS)
    except Exception:
        pass
    if request is not None and response is not None:
        accounts = [a for a in _cookie_accounts(request) if a != _account(username)]
        accounts = [_account(username), *accounts][:KNOWN_COOKIE_ACCOUNTS]
        response.set_signed_cookie(
            KNOWN_COOKIE,
            ":".join(accounts),
            salt=KNOWN_COOKIE_SALT,
            max_age=KNOWN_SECONDS,
            httponly=True,
            secure=settings.SESSION_COOKIE_SECURE,
            samesite="Lax",
        )


def refused_message(wait: int) -> str:
    return ngettext(
        "Too many failed attempts. Wait {wait} second before trying again.",
        "Too many failed attempts. Wait {wait} seconds before trying again.",
        wait,
    ).format(wait=wait)


def _refused(response: HttpResponse, wait: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view, answering 429 while the username is refused, and to a failed
    attempt from a slowed address."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        username = request.POST.get("username", "")
        wait = refusal(request, username)
        if wait is None:
            slowed = address_slowed(request, username)
            if slowed:
                slow_down()
            response = super().post(request, *args, **kwargs)
            if response.status_code == 302:
                success_record(username, request, response)
                return response
            failure_record(request, username)  # the form came back: the attempt failed
            if not slowed:
                return response
            wait = ADDRESS_WINDOW_SECONDS
        # Bound without the password, so that nothing is authenticated.
        form = self.get_form_class()(request, data={"username": username})
        form.add_error(None, refused_message(wait))
        return _refused(self.render_to_response(self.get_context_data(form=form)), wait)


def throttled_login(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a login view (the admin's): refuse while throttled, count the outcome."""

    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        wait = refusal(request, username)
        if wait is None:
            slowed = address_slowed(request, username)
            if slowed:
                slow_down()
            response = view(request, *args, **kwargs)
            if response.status_code == 302:
                success_record(username, request, response)
                return response
            failure_record(request, username)
            if not slowed:
                return response
            wait = ADDRESS_WINDOW_SECONDS
        return _refused(
            HttpResponse(refused_message(wait), content_type="text/plain; charset=utf-8"),
            wait,
        )

    return wrapped
