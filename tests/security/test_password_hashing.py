"""The site hashes passwords with PBKDF2; the suite, with MD5 (tests/conftest.py), to
save a quarter of a second of CPU per account. Here the real hashers are checked."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth.hashers import identify_hasher
from django.test import Client

from tests.conftest import PRODUCTION_PASSWORD_HASHERS, ROOT
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PBKDF2 = "django.contrib.auth.hashers.PBKDF2PasswordHasher"


def test_the_site_hashes_with_pbkdf2_first() -> None:
    """What the settings give a server process, read in one started without the suite."""
    script = "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])"
    env = {"DJANGO_SETTINGS_MODULE": "tournament.settings", "SECRET_KEY": "x", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == PBKDF2, done.stderr
    assert PRODUCTION_PASSWORD_HASHERS[0] == PBKDF2


def test_the_suite_hashes_with_md5() -> None:
    assert identify_hasher(UserFactory().password).algorithm == "md5"


def test_an_account_made_with_the_real_hasher_logs_in(production_password_hashers) -> None:
    assert production_password_hashers == settings.PASSWORD_HASHERS
    user = UserFactory(username="pbkdf2-director")
    assert identify_hasher(user.password).algorithm == "pbkdf2_sha256"
    client = Client()
    page = client.post(
        "/accounts/login/", {"username": "pbkdf2-director", "password": DEFAULT_PASSWORD}
    )
    assert page.status_code == 302, page.content[:400]
    assert client.session["_auth_user_id"] == str(user.pk)
    token = client.post(
        "/api/auth/token/",
        {"username": "pbkdf2-director", "password": DEFAULT_PASSWORD},
        content_type="application/json",
    )
    assert token.status_code == 200, token.content
    other = Client()
    wrong = other.post("/accounts/login/", {"username": "pbkdf2-director", "password": "no"})
    assert wrong.status_code == 200  # the form again, with its error
    assert "_auth_user_id" not in other.session
