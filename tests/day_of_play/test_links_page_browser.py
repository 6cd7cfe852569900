"""The console's player-links page in headless Chromium with the site's real CSP: "Print
all cards" opens the print dialog (a static script, not an inline onclick the policy
blocks), and "Email this player" sends one player their link, also right after "New link"
(a new link is not held by the old one's cooldown), then waits out its cooldown.

Screenshots: test-artifacts/venue/links-*.png at 1366 and 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from tests.browser.live import both_widths, log_in
from tests.console.test_player_links import make_weekend
from tournament.models import Player, PlayerLink

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]

#: Counts calls of window.print() instead of opening the dialog (an init script runs
#: before the page's own, whatever its CSP).
COUNT_PRINTS = "window.__prints = 0; window.print = () => { window.__prints += 1; };"


def _director_on_links(chromium: Any, live_server: Any) -> tuple[Any, Any, list[str]]:
    w = make_weekend()
    w.director.set_password("td-password-1")
    w.director.save()
    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    context.add_init_script(COUNT_PRINTS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    log_in(page, live_server.url, "td", "td-password-1")
    page.goto(f"{live_server.url}/director/t/{w.tournament.slug}/player-links/")
    return w, page, errors


def test_print_all_cards_opens_the_print_dialog_under_the_real_csp(
    chromium: Any, live_server: Any
) -> None:
    _, page, errors = _director_on_links(chromium, live_server)
    csp = page.evaluate(
        "() => fetch(location.href).then(r => r.headers.get('content-security-policy'))"
    )
    assert "script-src 'self'" in csp
    page.click("button:text('Print all cards')")
    assert page.evaluate("() => window.__prints") == 1
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_email_this_player_after_a_new_link_sends_the_new_one(
    chromium: Any, live_server: Any
) -> None:
    _w, page, errors = _director_on_links(chromium, live_server)
    player = Player.objects.get(name="Player 3")
    card = f"#player-{player.pk}"
    both_widths(page, "venue", "links-page")
    mail.outbox.clear()
    with page.expect_navigation():
        page.click(f"{card} button:text('Email this player')")
    assert "on its way to p3@example.org" in page.inner_text(".messages")
    assert [m.to for m in mail.outbox] == [["p3@example.org"]]
    first_key = PlayerLink.objects.get(player=player).key
    assert first_key in mail.outbox[0].body

    with page.expect_navigation():
        page.click(f"{card} a:text('New link…')")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    new_key = PlayerLink.objects.get(player=player).key
    assert new_key != first_key
    mail.outbox.clear()
    with page.expect_navigation():
        page.click(f"{card} button:text('Email this player')")
    assert [m.to for m in mail.outbox] == [["p3@example.org"]]
    assert new_key in mail.outbox[0].body
    # Sent a moment ago: the button waits out its cooldown, and the card says until when
    # (issue 26: eight presses sent eight mails).
    assert page.locator(f"{card} button:text('Email this player')").is_disabled()
    assert "next from" in page.inner_text(card)
    # Player 1 has no address: no button on the card.
    nobody = Player.objects.get(name="Player 1")
    assert page.locator(f"#player-{nobody.pk} button:text('Email this player')").count() == 0
    both_widths(page, "venue", "links-page-emailed")
    assert errors == []
