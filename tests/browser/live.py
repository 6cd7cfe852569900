"""Helpers of the browser tests that drive the live server: screenshots at both widths,
logging in, and closing what a test left open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import connection, connections

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def both_widths(page: Any, folder: str, name: str) -> None:
    """Screenshots at 1366 and 390 px into ``test-artifacts/<folder>/``; a page wider
    than the screen fails the test."""
    (ARTIFACTS / folder).mkdir(parents=True, exist_ok=True)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / folder / f"{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} is {overflow} px wider than a {width} px screen"
    page.set_viewport_size({"width": 1366, "height": 900})


def log_in(page: Any, base: str, username: str, password: str) -> None:
    """Log in through the login form and wait for the page it leads to."""
    page.goto(f"{base}/accounts/login/?next=/director/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")


def release_server_connections() -> None:
    """Close the connections a test left open: its own (Playwright runs it in a greenlet
    with its own connection) and, on PostgreSQL, the idle ones of the live server's
    finished request threads, so that the test database can be flushed and dropped."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND state = 'idle'"
            )
    connections.close_all()


def confirm_from_mail(page: Any, base: str, email: str) -> None:
    """Follow the sign-up's confirmation mail to ``email`` and press its button (the public
    sign-up only asks: the address' owner confirms)."""
    import re

    from django.core import mail

    sent = next(m for m in reversed(mail.outbox) if [a.lower() for a in m.to] == [email.lower()])
    path = re.search(r"/signup/confirm/[\w-]+/", sent.body).group(0)  # type: ignore[union-attr]
    page.goto(f"{base}{path}")
    with page.expect_navigation():
        page.click("button:text-is('Confirm my sign-up')")
