"""Under the Content-Security-Policy, the vendored Swagger UI renders with no violation
(it loads nothing from a CDN), and pages answer with the policy header."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390


def test_api_docs_render_from_this_site_under_the_policy(tab, live_server) -> None:
    for width in (1366, PHONE):
        page = tab(width, 900)
        requested: list[str] = []
        page.page.on("request", lambda r, seen=requested: seen.append(r.url))
        response = page.open("/api/docs/")
        assert response.status == 200
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
        assert (
            page.page.locator(".swagger-ui .info .title")
            .inner_text()
            .startswith("Backgammon Tournament Director API")
        )
        page.shot(f"api-docs-{width}", full_page=False)
        assert page.errors == []  # a CSP violation is a console error
        assert all(url.startswith(live_server.url) for url in requested), requested
