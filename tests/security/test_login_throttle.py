"""Logins are throttled by the client's real address and per account with backoff, on
every door: the token endpoint, the HTML login and /admin/login/."""

from __future__ import annotations

import itertools
import uuid

import pytest
import time_machine
from django.test import Client, override_settings

from core.http import client_address
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.web import login_throttle

pytestmark = pytest.mark.django_db

_hosts = itertools.count(1)


def _address() -> str:
    """A fresh address, so that failures counted by other tests do not interfere."""
    n = next(_hosts) + uuid.uuid4().int % 40000
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


def _name() -> str:
    return f"u-{uuid.uuid4().hex[:10]}"


def _token(client: Client, username: str, password: str, **headers: str) -> int:
    return client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        content_type="application/json",
        headers=headers,
    ).status_code


def test_a_new_forwarded_for_each_time_does_not_bypass_the_token_throttle() -> None:
    client = Client(REMOTE_ADDR=_address())
    codes = [_token(client, _name(), "wrong", X_Forwarded_For=_address()) for _ in range(12)]
    assert codes[:10] == [400] * 10
    assert codes[10:] == [429, 429]


@override_settings(NUM_PROXIES=1)
def test_behind_one_proxy_the_address_the_proxy_saw_counts() -> None:
    proxy = _address()  # every request comes from nginx
    attacker, director = _address(), _address()
    user = UserFactory(username=_name())
    client = Client(REMOTE_ADDR=proxy)
    # The attacker writes a header of their own; nginx appends the address it saw.
    codes = [
        _token(client, _name(), "wrong", X_Forwarded_For=f"{_address()}, {attacker}")
        for _ in range(11)
    ]
    assert codes[-1] == 429
    # Somebody else behind the same nginx is not refused.
    ok = _token(client, user.username, DEFAULT_PASSWORD, X_Forwarded_For=director)
    assert ok == 200


@override_settings(NUM_PROXIES=1)
def test_html_login_failures_from_one_visitor_do_not_lock_out_the_others() -> None:
    proxy = _address()
    director = UserFactory(username=_name())
    attacker = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=_address())
    for _ in range(login_throttle.ADDRESS_MAX_FAILURES):
        attacker.post("/accounts/login/", {"username": _name(), "password": "x"})
    assert (
        attacker.post("/accounts/login/", {"username": _name(), "password": "x"}).status_code == 429
    )
    visitor = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=_address())
    response = visitor.post(
        "/accounts/login/", {"username": director.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302


def test_the_client_address_reads_only_trusted_hops() -> None:
    from django.test import RequestFactory

    request = RequestFactory().get(
        "/", REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4"
    )
    with override_settings(NUM_PROXIES=0):
        assert client_address(request) == "172.18.0.5"
    with override_settings(NUM_PROXIES=1):
        assert client_address(request) == "1.2.3.4"
    with override_settings(NUM_PROXIES=2):
        assert client_address(request) == "6.6.6.6"


DOORS = ["/accounts/login/", "/admin/login/", "/api/auth/token/"]


def _attempt(door: str, client: Client, username: str, password: str) -> int:
    if door.startswith("/api/"):
        return _token(client, username, password)
    return client.post(door, {"username": username, "password": password}).status_code


def _outcomes(door: str) -> tuple[int, int]:
    """The status of a failed and of a successful attempt at ``door``."""
    return (400, 200) if door.startswith("/api/") else (200, 302)


@pytest.mark.parametrize("door", DOORS, ids=str)
def test_failures_for_a_username_earn_a_growing_wait_that_a_success_resets(door: str) -> None:
    user = UserFactory(username=_name(), is_staff=True)

    def attempt(password: str) -> int:
        client = Client(REMOTE_ADDR=_address())  # a new address each time: per account
        return _attempt(door, client, user.username, password)

    failed, success = _outcomes(door)
    with time_machine.travel("2030-01-01 12:00:00", tick=False) as clock:
        for _ in range(login_throttle.USER_FREE_FAILURES):
            assert attempt("wrong") == failed
        # Now a stranger is refused, even with the right password, for the first window ...
        assert attempt(DEFAULT_PASSWORD) == 429
        clock.shift(login_throttle.USER_FIRST_DELAY + 1)
        assert attempt("wrong") == failed
        # ... then for twice as long after the next failure.
        clock.shift(login_throttle.USER_FIRST_DELAY + 1)
        assert attempt(DEFAULT_PASSWORD) == 429
        clock.shift(login_throttle.USER_FIRST_DELAY)
        assert attempt(DEFAULT_PASSWORD) == success
        # The success forgot the failures: a wrong password is simply wrong again.
        assert attempt("wrong") == failed
        assert attempt(DEFAULT_PASSWORD) == success


@pytest.mark.parametrize("door", DOORS, ids=str)
def test_a_guesser_cannot_keep_a_director_out_of_an_address_they_logged_in_from(
    door: str,
) -> None:
    user = UserFactory(username=_name(), is_staff=True)
    home = _address()
    failed, success = _outcomes(door)
    with time_machine.travel("2030-01-01 12:00:00", tick=False) as clock:
        assert _attempt(door, Client(REMOTE_ADDR=home), user.username, DEFAULT_PASSWORD) == success
        # A guesser from anywhere else: one wrong guess every few minutes, for hours.
        for _ in range(30):
            clock.shift(login_throttle.USER_MAX_DELAY - 60)
            code = _attempt(door, Client(REMOTE_ADDR=_address()), user.username, "wrong")
            assert code in (failed, 429)
        # Strangers are refused, even with the right password ...
        stranger = _attempt(door, Client(REMOTE_ADDR=_address()), user.username, "x")
        assert stranger == 429
        # ... but the director, from the address they logged in from before, is not.
        assert _attempt(door, Client(REMOTE_ADDR=home), user.username, DEFAULT_PASSWORD) == success


@pytest.mark.parametrize("door", ["/accounts/login/", "/admin/login/"], ids=str)
def test_a_browser_that_logged_in_before_is_known_from_a_new_address(door: str) -> None:
    user = UserFactory(username=_name(), is_staff=True)
    browser = Client(REMOTE_ADDR=_address())
    with time_machine.travel("2030-01-01 12:00:00", tick=False):
        assert _attempt(door, browser, user.username, DEFAULT_PASSWORD) == 302
        known = browser.cookies[login_throttle.KNOWN_COOKIE].value
        browser.logout()  # the test client forgets every cookie: keep the one it would
        browser.cookies[login_throttle.KNOWN_COOKIE] = known
        for _ in range(login_throttle.USER_FREE_FAILURES + 3):
            _attempt(door, Client(REMOTE_ADDR=_address()), user.username, "wrong")
        assert _attempt(door, Client(REMOTE_ADDR=_address()), user.username, "x") == 429
        browser.defaults["REMOTE_ADDR"] = _address()  # the laptop on another network
        assert _attempt(door, browser, user.username, DEFAULT_PASSWORD) == 302
        # A forged cookie is no use.
        forger = Client(REMOTE_ADDR=_address())
        forger.cookies[login_throttle.KNOWN_COOKIE] = "0" + known
        for _ in range(login_throttle.USER_FREE_FAILURES + 3):
            _attempt(door, Client(REMOTE_ADDR=_address()), user.username, "wrong")
        assert _attempt(door, forger, user.username, DEFAULT_PASSWORD) == 429


def _v6() -> str:
    """A fresh /64 of the documentation prefix."""
    n = uuid.uuid4().int
    return f"2001:db8:{n % 65536:x}:{n // 65536 % 65536:x}"


@pytest.mark.parametrize("door", DOORS, ids=str)
def test_the_addresses_of_one_ipv6_64_count_as_one(door: str) -> None:
    net, other = _v6(), _v6()
    failed, _ = _outcomes(door)
    codes = [
        _attempt(door, Client(REMOTE_ADDR=f"{net}::{n + 1:x}"), _name(), "wrong")
        for n in range(login_throttle.ADDRESS_MAX_FAILURES + 1)
    ]
    assert codes[-1] == 429
    assert set(codes[:10]) == {failed}
    assert _attempt(door, Client(REMOTE_ADDR=f"{other}::1"), _name(), "wrong") == failed


def test_the_refusal_says_when_to_come_back() -> None:
    user = UserFactory(username=_name())
    with time_machine.travel("2030-01-01 12:00:00", tick=False):
        for _ in range(login_throttle.USER_FREE_FAILURES):
            Client(REMOTE_ADDR=_address()).post(
                "/accounts/login/", {"username": user.username, "password": "no"}
            )
        refused = Client(REMOTE_ADDR=_address()).post(
            "/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
        )
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(login_throttle.USER_FIRST_DELAY)
    assert "Too many failed attempts" in refused.content.decode()


@pytest.mark.services
def test_parallel_guesses_are_all_counted() -> None:
    """Guesses sent at once each count (atomic counters in Redis), so the wait after
    them is the one their number earns."""
    import threading

    from django.test import RequestFactory

    guesses = 11  # the longest wait: 15 s doubled six times is past 900 s
    assert login_throttle.user_delay(guesses) == login_throttle.USER_MAX_DELAY
    for _ in range(3):
        username = _name()
        gate = threading.Barrier(guesses)

        def guess(gate: threading.Barrier, username: str) -> None:
            request = RequestFactory().post("/", REMOTE_ADDR=_address())
            gate.wait()
            login_throttle.failure_record(request, username)

        threads = [threading.Thread(target=guess, args=(gate, username)) for _ in range(guesses)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stranger = RequestFactory().post("/", REMOTE_ADDR=_address())
        wait = login_throttle.refusal(stranger, username)
        assert wait is not None
        assert wait > login_throttle.USER_MAX_DELAY - 5


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _bold(text: str) -> str:
    """Mathematical bold letters and digits: NFKC makes them plain again."""

    def one(c: str) -> str:
        if "a" <= c <= "z":
            return chr(0x1D41A + ord(c) - ord("a"))
        if "0" <= c <= "9":
            return chr(0x1D7CE + ord(c) - ord("0"))
        return c

    return "".join(one(c) for c in text)


@pytest.mark.parametrize("door", ["/accounts/login/", "/admin/login/"], ids=str)
def test_look_alike_spellings_of_a_username_share_its_backoff(door: str) -> None:
    """The login form NFKC-normalises the username before it authenticates, so a
    fullwidth or bold spelling logs in as the account: it must count as the account."""
    user = UserFactory(username=_name(), is_staff=True)
    spellings = [
        _fullwidth(user.username),
        _bold(user.username),
        user.username.upper(),
        _fullwidth(user.username.upper()),
        f" {_bold(user.username)} ",
    ]
    with time_machine.travel("2030-01-01 12:00:00", tick=False):
        # The form really does log in with a look-alike spelling.
        assert _attempt(door, Client(REMOTE_ADDR=_address()), spellings[1], DEFAULT_PASSWORD) == 302
        for spelling in spellings[: login_throttle.USER_FREE_FAILURES]:
            assert _attempt(door, Client(REMOTE_ADDR=_address()), spelling, "wrong") == 200
        # Every spelling is now refused, even with the right password.
        for spelling in [user.username, *spellings]:
            code = _attempt(door, Client(REMOTE_ADDR=_address()), spelling, DEFAULT_PASSWORD)
            assert code == 429, ascii(spelling)


@pytest.mark.parametrize("door", ["/accounts/login/", "/admin/login/"], ids=str)
def test_a_guesser_on_the_directors_own_address_cannot_lock_out_their_browser(
    door: str,
) -> None:
    """The venue's Wi-Fi: the director and a guesser share an address. The guesser fills
    the address's limit; the director's browser (its known-browser cookie) still gets in."""
    user = UserFactory(username=_name(), is_staff=True)
    venue = _address()
    director = Client(REMOTE_ADDR=venue)
    with time_machine.travel("2030-01-01 12:00:00", tick=False):
        assert _attempt(door, director, user.username, DEFAULT_PASSWORD) == 302
        known = director.cookies[login_throttle.KNOWN_COOKIE].value
        director.logout()
        director.cookies[login_throttle.KNOWN_COOKIE] = known
        guesser = Client(REMOTE_ADDR=venue)
        for _ in range(login_throttle.ADDRESS_MAX_FAILURES):
            _attempt(door, guesser, _name(), "wrong")
        assert _attempt(door, guesser, _name(), "wrong") == 429
        # a new browser of the director is slowed, not refused (issue 26)
        assert _attempt(door, Client(REMOTE_ADDR=venue), user.username, DEFAULT_PASSWORD) == 302
        assert _attempt(door, director, user.username, DEFAULT_PASSWORD) == 302


@pytest.mark.parametrize("door", DOORS, ids=str)
def test_a_known_address_does_not_skip_the_backoff_for_everyone_behind_it(door: str) -> None:
    """Everyone on an address the director logged in from is still slowed per account."""
    user = UserFactory(username=_name(), is_staff=True)
    venue = _address()
    failed, success = _outcomes(door)
    with time_machine.travel("2030-01-01 12:00:00", tick=False) as clock:
        assert _attempt(door, Client(REMOTE_ADDR=venue), user.username, DEFAULT_PASSWORD) == success
        codes = [
            _attempt(door, Client(REMOTE_ADDR=venue), user.username, "wrong")
            for _ in range(login_throttle.USER_FREE_FAILURES + 3)
        ]
        assert codes[: login_throttle.USER_FREE_FAILURES] == [failed] * 5
        assert codes[login_throttle.USER_FREE_FAILURES :] == [429] * 3
        # Elsewhere, the guesser's failures at the venue count too.
        assert _attempt(door, Client(REMOTE_ADDR=_address()), user.username, "x") == 429
        clock.shift(login_throttle.USER_FIRST_DELAY + 1)
        assert _attempt(door, Client(REMOTE_ADDR=venue), user.username, DEFAULT_PASSWORD) == success


@pytest.mark.parametrize("door", DOORS, ids=str)
def test_made_up_names_from_the_venues_address_do_not_keep_a_director_out(door: str) -> None:
    """The attack: wrong passwords for made-up names from the shared address, then the
    director's right password from a browser that never logged in: it logs in (slowed,
    not refused). A wrong password for the director, or another made-up name, is
    answered alike (429): the answer tells no name from another."""
    venue = _address()
    director = UserFactory(username=_name(), is_staff=True)  # the admin lets staff in
    _, ok = _outcomes(door)
    for _ in range(login_throttle.ADDRESS_MAX_FAILURES):
        Client(REMOTE_ADDR=venue).post(
            door if not door.startswith("/api/") else "/accounts/login/",
            {"username": _name(), "password": "wrong"},
        )
    assert _attempt("/accounts/login/", Client(REMOTE_ADDR=venue), _name(), "wrong") == 429
    wrong = _attempt(door, Client(REMOTE_ADDR=venue), director.username, "wrong")
    made_up = _attempt(door, Client(REMOTE_ADDR=venue), _name(), "wrong")
    assert wrong == made_up == 429
    assert _attempt(door, Client(REMOTE_ADDR=venue), director.username, DEFAULT_PASSWORD) == ok


def test_failures_for_real_accounts_do_not_slow_the_address() -> None:
    """Only made-up names count against the address: a director mistyping their own
    password at the venue is handled by their account's backoff alone."""
    venue = _address()
    directors = [
        UserFactory(username=_name()) for _ in range(login_throttle.ADDRESS_MAX_FAILURES + 2)
    ]
    for d in directors:
        Client(REMOTE_ADDR=venue).post(
            "/accounts/login/", {"username": d.username, "password": "no"}
        )
    other = UserFactory(username=_name())
    made_up = _attempt("/accounts/login/", Client(REMOTE_ADDR=venue), _name(), "wrong")
    assert made_up == 200  # the form again, not slowed
    answer = _attempt(
        "/accounts/login/", Client(REMOTE_ADDR=venue), other.username, DEFAULT_PASSWORD
    )
    assert answer == 302
