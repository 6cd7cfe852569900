"""The console's main pages in headless Chromium: they load without console errors, the
htmx check-in toggle swaps its row without a reload, and each page is kept as a
screenshot in test-artifacts/console/ (not committed) for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from matches.models import Match
from tests.console.test_weekend import Console, ok, players_csv
from tests.factories import DEFAULT_PASSWORD, UserFactory, grant_tournament_creation
from tournament.models import Entry, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"


def _weekend_in_progress() -> tuple[str, Event]:
    """A 24-player Main drawn with round 1 played and round 2 half played, via the console."""
    director = grant_tournament_creation(UserFactory(username="director"))
    client = Client()
    client.force_login(director)
    ok(client.post("/director/new/", {"name": "Autumn Open", "slug": "autumn", "venue": "Hotel"}))
    console = Console(client, "autumn")
    main = console.new_event(
        name="Main", kind="main", format="single-elimination", match_lengths="7, 7, 9, 11"
    )
    console.new_event(
        name="Consolation",
        kind="consolation",
        format="single-elimination",
        match_lengths="5",
        feeds_from=str(main.pk),
        feed_rounds="1, 2",
    )
    ok(
        client.post(
            "/director/t/autumn/import/",
            {"text": players_csv(24, bad_lines=False), "event": str(main.pk), "confirm": "1"},
        )
    )
    for entry in main.entries.order_by("pk")[:18]:
        ok(
            client.post(
                console.event_url(main, f"entries/{entry.pk}/check-in/"), {"checked_in": "1"}
            )
        )
    ok(client.post(console.event_url(main, "draw/"), {"method": "random", "seed": "77"}))
    assert console.start_next_round(main)
    console.decide_ready_matches(main)
    assert console.start_next_round(main)
    for match in Match.objects.filter(event=main, status="ready").order_by("slot")[:3]:
        ok(
            client.post(
                f"/director/t/autumn/matches/{match.pk}/score/",
                {"score1": match.length, "score2": 2},
            )
        )
    last_chance = console.new_event(
        name="Last Chance", kind="last-chance", format="single-elimination", match_lengths="3"
    )
    for entry in main.entries.exclude(status="checked-in").order_by("pk")[:4]:
        ok(
            client.post(
                console.event_url(last_chance, "entries/"), {"player": str(entry.player_id)}
            )
        )
    return director.username, main


def test_console_pages_in_chromium(browser_page, live_server):
    page, errors = browser_page
    username, main = _weekend_in_progress()
    base = live_server.url

    page.goto(f"{base}/accounts/login/?next=/director/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/director/")

    shots = {
        "home": "/director/",
        "tournament": "/director/t/autumn/",
        "event": "/director/t/autumn/events/main/",
        "matches": "/director/t/autumn/events/main/matches/",
        "new-event": "/director/t/autumn/new-event/",
        "new-tournament": "/director/new/",
        "consolation": "/director/t/autumn/events/consolation/matches/",
    }
    ready = Match.objects.filter(event=main, status="ready").order_by("slot").first()
    shots["match"] = f"/director/t/autumn/matches/{ready.pk}/"
    for name, path in shots.items():
        response = page.goto(base + path)
        assert response is not None
        assert response.status == 200, path
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    # The import preview with its per-row errors.
    page.goto(f"{base}/director/t/autumn/import/")
    page.fill("textarea[name=text]", players_csv(6))
    page.click("form.form button[type=submit]")
    page.wait_for_selector("table.preview")
    page.screenshot(path=str(ARTIFACTS / "import-preview.png"), full_page=True)

    # htmx: checking a player in swaps the row in place, without a page load.
    page.goto(f"{base}/director/t/autumn/events/last-chance/")
    page.evaluate("window.__marker = 'same page'")
    row = page.locator("tr.row-registered").first
    row_id = row.get_attribute("id")
    row.get_by_role("button", name="Check in").click()
    page.wait_for_selector(f"#{row_id}.row-checked-in")
    assert page.evaluate("window.__marker") == "same page"
    assert Entry.objects.get(pk=int(row_id.removeprefix("entry-"))).status == "checked-in"
    page.screenshot(path=str(ARTIFACTS / "last-chance-checked-in.png"), full_page=True)

    # The match result form, filled and sent by a person.
    page.goto(base + shots["match"])
    page.fill("input[name=score1]", str(ready.length))
    page.fill("input[name=score2]", "1")
    page.click("#score-h ~ form button[type=submit]")
    page.wait_for_url(f"{base}/director/t/autumn/events/main/matches/")
    ready.refresh_from_db()
    assert ready.status == "complete"
    page.screenshot(path=str(ARTIFACTS / "matches-after.png"), full_page=True)

    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{base}/director/t/autumn/events/main/matches/")
    page.screenshot(path=str(ARTIFACTS / "matches-laptop-fold.png"))
    assert not errors, errors
