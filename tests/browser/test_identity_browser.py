"""One person, one player, in headless Chromium under the site's real Content-Security-Policy.

Anna signs up for the Main and, with the same email, for the Side: one record, one link
(the second answer shows nothing of hers and says to check her email). From her link
she sees both entries, signs up for the Swiss, withdraws from the Side (after a
confirmation) and takes it back. The director bulk-approves the Swiss sign-ups, finds a
namesake that signed up with another email, and merges it (a confirmation first).
Screenshots at 1366 and 390 px go to test-artifacts/identity/.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live import both_widths, confirm_from_mail, log_in, release_server_connections
from tests.factories import DEFAULT_PASSWORD, PlayerFactory, TournamentFactory, UserFactory
from tournament.models import Entry, Event, Player, PlayerMerge
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]

SLUG = "harbour"
FOLDER = "identity"


def test_one_person_one_player(chromium: Any, live_server: Any) -> None:
    try:
        run(chromium, live_server.url)
    finally:
        release_server_connections()


def run(chromium: Any, base: str) -> None:
    director = UserFactory(username="td")
    t = tournament_create(name="Harbour Open", slug=SLUG, director=director)
    for name, slug, signup in (
        ("Main", "main", Event.Signup.OPEN),
        ("Side", "side", Event.Signup.OPEN),
        ("Swiss", "swiss", Event.Signup.APPROVAL),
    ):
        event = event_create(tournament=t, name=name, slug=slug, match_lengths=[3])
        Event.objects.filter(pk=event.pk).update(signup=signup)
    errors: list[str] = []

    def watch(page: Any) -> Any:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        return page

    phone = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())

    def sign_up(event_slug: str, name: str, email: str) -> None:
        phone.goto(f"{base}/t/{SLUG}/{event_slug}/signup/")
        phone.fill("input[name=name]", name)
        phone.fill("input[name=email]", email)
        with phone.expect_navigation():
            phone.click("form.signup-form button[type=submit]")
        assert "Check your mail" in phone.content()
        confirm_from_mail(phone, base, email)

    # ---- the same person signs up twice: one record, one link ------------------------
    sign_up("main", "Anna Berg", "anna@example.org")
    assert "You are entered" in phone.content()
    link = phone.locator(".link-box a").get_attribute("href")
    sign_up("side", "Anna Berg", "ANNA@example.org")
    assert "Check your email" in phone.content()
    assert link.removeprefix(base) not in phone.content()
    both_widths(phone, FOLDER, "public-signup-known-email")
    assert Player.objects.filter(name="Anna Berg").count() == 1

    # ---- her link: both entries; the Swiss from the link; withdraw, then take back ----
    phone.goto(link + "entries/")
    text = phone.inner_text("main")
    assert "Main" in text
    assert "Side" in text
    both_widths(phone, FOLDER, "link-entries-two-events")
    with phone.expect_navigation():
        phone.click("button:text-is('Sign up for Swiss')")
    assert "You are signed up" in phone.content()
    assert "Awaiting the director's approval" in phone.inner_text("main")
    with phone.expect_navigation():
        phone.click("a:text-is('Withdraw from Side…')")
    assert "Withdraw from Side?" in phone.content()
    both_widths(phone, FOLDER, "link-withdraw-confirm")
    with phone.expect_navigation():
        phone.click("a:text-is('No, keep my entry')")
    assert Entry.objects.get(event__slug="side").status == "registered"
    with phone.expect_navigation():
        phone.click("a:text-is('Withdraw from Side…')")
    with phone.expect_navigation():
        phone.click("button:text-is('Yes, withdraw me from Side')")
    assert "Take back my withdrawal" in phone.content()
    both_widths(phone, FOLDER, "link-entries-withdrawn-undo")
    with phone.expect_navigation():
        phone.click("button:text-is('Take back my withdrawal')")
    assert "Your withdrawal is taken back." in phone.content()
    assert Entry.objects.get(event__slug="side").status == "registered"
    # The matches page says what is true: not drawn yet, awaiting approval.
    phone.goto(link)
    text = phone.inner_text("main")
    assert "Main is not drawn yet" in text
    assert "Your sign-up for Swiss awaits the director's approval" in text
    assert "Thank you for playing" not in text
    both_widths(phone, FOLDER, "link-before-the-draw")

    # ---- a namesake signed up with another email; another sign-up for the Swiss ------
    past = TournamentFactory(name="Winter Cup")
    old = PlayerFactory(name="Ben Olsen", email="ben@old.example.org", club="Harbour BC")
    entry_register(event=event_create(tournament=past, name="Cup", match_lengths=[1]), player=old)
    sign_up("swiss", "Ben Olsen", "ben@new.example.org")
    sign_up("swiss", "Cleo Park", "cleo@example.org")

    # ---- the director: bulk approve, then the merge with its confirmation ------------
    desk = watch(chromium.new_context(viewport={"width": 1366, "height": 900}).new_page())
    log_in(desk, base, director.username, DEFAULT_PASSWORD)
    desk.goto(f"{base}/director/t/{SLUG}/events/swiss/")
    assert "withdraw this sign-up" not in desk.content()
    for name in ("Anna Berg", "Cleo Park"):
        desk.check(f"input[aria-label='Select {name}']")
    desk.select_option("#bulk-action", "approve")
    both_widths(desk, FOLDER, "console-bulk-approve")
    with desk.expect_navigation():
        desk.click("form#entries-bulk button[type=submit]")
    assert "2 sign-ups approved" in desk.content()
    statuses = dict(Entry.objects.filter(event__slug="swiss").values_list("player__name", "status"))
    assert statuses == {
        "Anna Berg": "registered",
        "Ben Olsen": "pending",
        "Cleo Park": "registered",
    }
    with desk.expect_navigation():
        desk.click("a.merge-link")
    assert "Keep <strong>Ben Olsen (record " + str(old.pk) in desk.content()
    both_widths(desk, FOLDER, "console-merge-confirm")
    with desk.expect_navigation():
        desk.click("button:text-is('Yes, they are one person: merge')")
    assert "is now part of Ben Olsen" in desk.content()
    both_widths(desk, FOLDER, "console-player-after-merge")
    assert Entry.objects.get(event__slug="swiss", player__name="Ben Olsen").player_id == old.pk
    assert PlayerMerge.objects.get().by == director
    assert not errors, errors
