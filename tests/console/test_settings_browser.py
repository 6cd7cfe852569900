"""The settings pages in headless Chromium: a director edits the tournament and a drawn
event through the real forms (the locked fields' hidden inputs included), a locked
setting forced open and changed is refused at its field, and each page is kept as a
screenshot in test-artifacts/console/ (not committed) for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import DEFAULT_PASSWORD, EntryFactory, EventFactory, TournamentFactory
from tournament.models import Event, Tournament
from tournament.services.draws import draw_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "console"


def test_settings_pages_in_chromium(browser_page, live_server):
    page, errors = browser_page
    tournament = TournamentFactory(name="Autumn Open", slug="autumn", venue="Hotel Rex")
    main = EventFactory(tournament=tournament, name="Main", slug="main", match_lengths=[7, 9])
    EventFactory(tournament=tournament, name="Side", slug="side", format="swiss", kind="side")
    for _ in range(8):
        EntryFactory(event=main)
    draw_make(event=main, method="rating")
    director = tournament.directors.get()
    base = live_server.url

    page.goto(f"{base}/accounts/login/?next=/director/")
    page.fill("input[name=username]", director.username)
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/director/")

    # The tournament: from its page to its settings, changed and saved.
    page.goto(f"{base}/director/t/autumn/")
    page.click(".actions a:text-is('Settings')")
    page.wait_for_url(f"{base}/director/t/autumn/settings/")
    page.screenshot(path=str(ARTIFACTS / "tournament-settings.png"), full_page=True)
    page.fill("input[name=name]", "Autumn Open 2026")
    page.select_option("select[name=time_zone]", "Europe/Dublin")
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/director/t/autumn/")
    tournament.refresh_from_db()
    assert (tournament.name, tournament.time_zone, tournament.slug) == (
        "Autumn Open 2026",
        "Europe/Dublin",
        "autumn",
    )
    assert Tournament.objects.get(pk=tournament.pk).venue == "Hotel Rex"

    # A drawn event: its locked settings travel unchanged; the open ones change.
    page.goto(f"{base}/director/t/autumn/events/main/")
    page.click(".actions a:text-is('Settings')")
    page.wait_for_url(f"{base}/director/t/autumn/events/main/settings/")
    assert page.is_disabled("select[name=format]")
    assert page.is_disabled("input[name=crawford]")
    page.screenshot(path=str(ARTIFACTS / "event-settings-drawn.png"), full_page=True)
    page.fill("input[name=name]", "Main Event")
    page.fill("input[name=match_lengths]", "5, 7")
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{base}/director/t/autumn/events/main/")
    main.refresh_from_db()
    assert (main.name, main.match_lengths, main.format, main.crawford) == (
        "Main Event",
        [5, 7],
        "single-elimination",
        True,
    )
    page.goto(f"{base}/t/autumn/main/")
    assert "Main Event" in page.content()
    assert "Autumn Open 2026" in page.content()

    # A locked setting forced open in the page and changed: refused at its field.
    page.goto(f"{base}/director/t/autumn/events/main/settings/")
    page.evaluate(
        """() => {
            document.querySelector('input[type=hidden][name=format]').remove();
            const select = document.querySelector('select[name=format]');
            select.disabled = false;
            select.value = 'double-elimination';
        }"""
    )
    page.click("form.form button[type=submit]")
    page.wait_for_selector("#id_format_error")
    assert "cannot change now" in page.inner_text("#id_format_error")
    # The page shows (and would send again) the format the event keeps.
    assert page.input_value("select[name=format]") == "single-elimination"
    page.screenshot(path=str(ARTIFACTS / "event-settings-refused.png"), full_page=True)
    assert Event.objects.get(pk=main.pk).format == "single-elimination"

    # An event before its draw: nothing locked but its slug.
    page.goto(f"{base}/director/t/autumn/events/side/settings/")
    assert not page.is_disabled("select[name=format]")
    page.screenshot(path=str(ARTIFACTS / "event-settings-open.png"), full_page=True)
    # A 400 page is logged by Chromium as a failed resource: the refusal above, on purpose.
    assert [e for e in errors if "status of 400" not in e] == [], errors
