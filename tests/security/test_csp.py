"""Every page carries a Content-Security-Policy without inline or eval'd scripts, and the
API docs load Swagger UI from this site (the vendored sidecar), not a CDN."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/api/docs/", "/accounts/login/"])
def test_pages_carry_a_policy_without_inline_scripts(path: str) -> None:
    response = Client().get(path)
    policy = response["Content-Security-Policy"]
    scripts = re.search(r"script-src ([^;]*)", policy).group(1)  # type: ignore[union-attr]
    assert scripts == "'self'"
    assert "frame-ancestors 'none'" in policy
    assert "object-src 'none'" in policy


def test_the_api_docs_load_nothing_from_elsewhere() -> None:
    page = Client().get("/api/docs/").content.decode()
    assert "cdn" not in page.lower()
    assert "@latest" not in page
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources
    assert all(s.startswith("/") for s in sources), sources
    assert not re.search(r"<script>(?!</script>)", page)  # no inline script
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
