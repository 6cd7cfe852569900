"""Every form needs its CSRF token; logging in is throttled (form and API)."""

from __future__ import annotations

import itertools
import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from matches.models import Match, Submission
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.resilience.test_permissions import MATRIX, Lookup, make_scene
from tournament.web.login_throttle import USER_FREE_FAILURES

pytestmark = pytest.mark.django_db

#: The language switcher only sets a cookie (no state, nothing of anyone's): it is
#: CSRF-exempt so that the cached anonymous pages can carry it (docs/how-it-works.md).
CSRF_EXEMPT = {"/i18n/setlang/"}
POST_FORMS = [
    row for row in MATRIX if row.method == "POST" and not row.api and row.path not in CSRF_EXEMPT
]
_addresses = itertools.count(10)


def _address() -> str:
    """A fresh client address, so that throttles counted by other tests do not interfere."""
    return f"198.51.100.{next(_addresses) % 250}"


def test_every_form_refuses_a_post_without_its_csrf_token() -> None:
    scene = make_scene()
    director = Client(enforce_csrf_checks=True)
    director.force_login(scene.world.director)
    anonymous = Client(enforce_csrf_checks=True)
    before = (Submission.objects.count(), list(Match.objects.values_list("status", "winner_id")))
    for row in POST_FORMS:
        client = anonymous if row.rule == "link" else director
        path = row.path.format_map(Lookup(scene))
        response = client.post(path, {"winner": scene.match.entry1.player_id, "reason": "x"})  # type: ignore[union-attr]
        assert response.status_code == 403, (path, response.status_code)
    assert anonymous.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 403
    assert director.post("/accounts/logout/").status_code == 403
    after = (Submission.objects.count(), list(Match.objects.values_list("status", "winner_id")))
    assert after == before


def test_pages_with_forms_carry_the_token() -> None:
    scene = make_scene()
    director = Client(enforce_csrf_checks=True)
    director.force_login(scene.world.director)
    pages = {
        "/accounts/login/": Client(),
        f"/r/{scene.key}/": Client(),
        f"/director/t/{scene.slug}/events/{scene.eslug}/": director,
        f"/director/t/{scene.slug}/matches/{scene.m}/": director,
        f"/director/t/{scene.slug}/new-event/": director,
        f"/director/t/{scene.slug}/import/": director,
        f"/director/t/{scene.slug}/settings/": director,
        f"/director/t/{scene.slug}/events/{scene.eslug}/settings/": director,
        "/director/new/": director,
    }
    for path, client in pages.items():
        html = client.get(path).content.decode()
        forms = re.findall(r"<form\b[^>]*method=\"post\"[^>]*>.*?</form>", html, re.S | re.I)
        forms = [f for f in forms if not any(exempt in f for exempt in CSRF_EXEMPT)]
        assert forms, f"{path}: no form"
        for form in forms:
            assert 'name="csrfmiddlewaretoken"' in form, f"{path}: a form without its token"


def test_the_api_wants_csrf_from_a_session_but_not_from_a_token() -> None:
    scene = make_scene()
    user = scene.world.account_of(scene.match.entry1)  # type: ignore[arg-type]
    path = f"/api/matches/{scene.m}/dispute/"
    session = Client(enforce_csrf_checks=True)
    session.force_login(user)
    refused = session.post(path, {"reason": "x"}, content_type="application/json")
    assert refused.status_code == 403
    assert not Submission.objects.exists()
    token = Token.objects.create(user=user)
    tokened = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Token {token.key}")
    answered = tokened.post(path, {"reason": "x"}, content_type="application/json")
    assert answered.status_code == 409  # nothing reported yet to dispute: a real answer
    assert Submission.objects.count() == 1


def test_the_login_form_is_throttled_after_repeated_failures() -> None:
    user = UserFactory(username="throttled-form")
    client = Client(REMOTE_ADDR=_address())
    for _ in range(USER_FREE_FAILURES):
        failed = client.post("/accounts/login/", {"username": user.username, "password": "no"})
        assert failed.status_code == 200
    # Even the right password is not tried now (nor from another address for this name).
    right = {"username": user.username, "password": DEFAULT_PASSWORD}
    blocked = client.post("/accounts/login/", right)
    assert blocked.status_code == 429
    assert "Too many failed attempts" in blocked.content.decode()
    assert "_auth_user_id" not in client.session
    elsewhere = Client(REMOTE_ADDR=_address()).post("/accounts/login/", right)
    assert elsewhere.status_code == 429


def test_a_good_login_is_not_throttled() -> None:
    user = UserFactory(username="fine-form")
    client = Client(REMOTE_ADDR=_address())
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302


def test_the_token_endpoint_is_throttled_after_ten_attempts() -> None:
    user = UserFactory(username="throttled-api")
    client = Client(REMOTE_ADDR=_address())
    codes = [
        client.post(
            "/api/auth/token/",
            {"username": f"{user.username}-{n}", "password": "no"},  # the address's limit
            content_type="application/json",
        ).status_code
        for n in range(10)
    ]
    assert codes == [400] * 10
    blocked = client.post(
        "/api/auth/token/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        content_type="application/json",
    )
    assert blocked.status_code == 429
    assert blocked.json()["code"] == "throttled"
