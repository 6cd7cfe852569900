"""Logins are throttled by the client's real address and per account with backoff, on
every door: the token endpoint, the HTML login and /admin/login/."""

from __future__ import annotations

import itertools
import uuid

import pytest
import time_machine
from django.test import Client, override_settings

from matches.client_address import client_address
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament import login_throttle

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


@pytest.mark.parametrize("door", ["/accounts/login/", "/admin/login/", "/api/auth/token/"], ids=str)
def test_failures_for_a_username_earn_a_growing_wait_that_a_success_resets(door: str) -> None:
    user = UserFactory(username=_name(), is_staff=True)

    def attempt(password: str) -> int:
        client = Client(REMOTE_ADDR=_address())  # a new address each time: per account
        if door.startswith("/api/"):
            return _token(client, user.username, password)
        return client.post(door, {"username": user.username, "password": password}).status_code

    failed = 400 if door.startswith("/api/") else 200
    success = 200 if door.startswith("/api/") else 302
    with time_machine.travel("2030-01-01 12:00:00", tick=False) as clock:
        for _ in range(login_throttle.USER_FREE_FAILURES):
            assert attempt("wrong") == failed
        # Now refused, even with the right password, for the first window ...
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
