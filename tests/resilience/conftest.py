"""Fixtures of the resilience tests: fast password hashing (many accounts are made)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:  # type: ignore[no-untyped-def]
    """PBKDF2 takes over a second per account on this machine; these tests make dozens."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
