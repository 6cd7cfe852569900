"""Fixtures of the analysis tests: a bracket whose first match takes an uploaded file."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_hasher(settings) -> None:  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def analysis_on(settings):  # type: ignore[no-untyped-def]
    """Stored match files are analysed by themselves (the suite turns that off elsewhere)."""
    settings.ANALYSIS_AUTO = True
    return settings


@pytest.fixture(autouse=True)
def _gnubg_present(request: pytest.FixtureRequest, settings) -> None:  # type: ignore[no-untyped-def]
    """Under CI=true a missing gnubg fails these tests (elsewhere they are skipped loudly)."""
    from matches.analysis.engine import gnubg_find

    if "gnubg" in request.keywords and not gnubg_find(settings.GNUBG_PATH):
        pytest.fail("GNU Backgammon (gnubg) is missing: run `make analysis-deps`")
