"""A co-director joins with no admin: the director adds them in the console, the new
director follows the set-password link shown there, chooses a password, logs in and sees
the tournament. Screenshots at 1366 and 390 px go to test-artifacts/directors/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, log_in, release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def test_a_co_director_is_added_sets_a_password_and_runs_the_tournament(
    chromium: Any, live_server: Any, mailoutbox: list[Any]
) -> None:
    try:
        add_and_join(chromium, live_server.url, mailoutbox)
    finally:
        release_server_connections()


def add_and_join(chromium: Any, base: str, mailoutbox: list[Any]) -> None:
    td = UserFactory(username="td")
    tournament_create(name="Harbour Open", slug="harbour", director=td)
    errors: list[str] = []

    # ---- the director adds an assistant who has no account -------------------------
    director = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    director.on("pageerror", lambda e: errors.append(str(e)))
    log_in(director, base, "td", DEFAULT_PASSWORD)
    director.goto(f"{base}/director/t/harbour/")
    with director.expect_navigation():
        director.click("a:text-is('Directors')")
    assert director.url == f"{base}/director/t/harbour/directors/"
    director.fill("input[name=username]", "rosa.marquez-delacroix")
    director.fill("input[name=email]", "rosa.marquez-delacroix@harbour-backgammon-club.example.org")
    with director.expect_navigation():
        director.click("form.director-form button[type=submit]")
    body = director.content()
    assert "Account rosa.marquez-delacroix created" in body
    assert "It was emailed to rosa.marquez-delacroix@harbour-backgammon-club.example.org" in body
    assert "has not set a password yet" in body
    link = director.inner_text(".copy-box").strip()
    assert link.startswith(f"{base}/accounts/reset/")
    both_widths(director, "directors", "directors-added")
    assert len(mailoutbox) == 1
    assert link.split("/accounts/reset/")[1].split("/")[0] in mailoutbox[0].body  # same user

    # ---- the assistant follows the link, sets a password, logs in -----------------
    rosa = chromium.new_context(viewport={"width": 1366, "height": 900}).new_page()
    rosa.on("pageerror", lambda e: errors.append(str(e)))
    rosa.goto(link)
    assert rosa.url.endswith("/set-password/")  # the token left the address bar
    assert "Set your password" in rosa.content()
    both_widths(rosa, "directors", "set-password")
    rosa.fill("input[name=new_password1]", "harbour-tables-42")
    rosa.fill("input[name=new_password2]", "harbour-tables-42")
    with rosa.expect_navigation():
        rosa.click("main button[type=submit]")
    assert "Your password is set" in rosa.content()
    both_widths(rosa, "directors", "set-password-done")
    with rosa.expect_navigation():
        rosa.click("main a:text-is('Log in')")
    rosa.fill("input[name=username]", "rosa.marquez-delacroix")
    rosa.fill("input[name=password]", "harbour-tables-42")
    with rosa.expect_navigation():
        rosa.click("main button[type=submit]")
    assert rosa.url == f"{base}/director/"
    assert "Harbour Open" in rosa.content()

    # ---- the link was for one use ---------------------------------------------------
    rosa.goto(link)
    assert "This set-password link does not work" in rosa.content()
    both_widths(rosa, "directors", "set-password-invalid")

    # ---- the director sees the password set, and removes the assistant -------------
    director.goto(f"{base}/director/t/harbour/directors/")
    assert "has not set a password yet" not in director.content()
    director.click("a[aria-label='Remove rosa.marquez-delacroix']")
    director.wait_for_load_state()
    both_widths(director, "directors", "directors-remove-confirm")
    with director.expect_navigation():
        director.click("button:text-is('Yes, remove rosa.marquez-delacroix')")
    assert "rosa.marquez-delacroix no longer directs Harbour Open." in director.content()
    assert errors == []
