"""A whole Main + Consolation weekend in headless Chromium, with no admin and no database
lookups: the director works in the console only, each player only through the private
link the console's player-links page shows, and a spectator reads the public pages.

Eight players, 1-point matches, both events set (by default) to start each match as soon
as both players are known. Screenshots at 1366 and 390 px go to
test-artifacts/links/ for a person to look at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.live import release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory, grant_tournament_creation

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # Bracket moves and notices run at commit in the server's thread, also on the run with
    # a broker: the weekend is about the pages; the live worker has its own tests.
    pytest.mark.usefixtures("eager_tasks"),
]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "links"
NAMES = [
    "Anna Berg",
    "Ben Cooke",
    "Carla Diaz",
    "Dmitri Elk",
    "Elif Fox",
    "Greta Hahn",
    "Hiro Ito",
    "Ines Jung",
]
SLUG = "harbour"


def shot(page: Any, name: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)


def both_widths(page: Any, name: str) -> None:
    shot(page, name, 1366)
    shot(page, name, 390)
    page.set_viewport_size({"width": 1366, "height": 900})


def submit(page: Any, form: str, button: str) -> None:
    with page.expect_navigation():
        page.click(f"{form} button:text-is('{button}')")


def links_from_console(page: Any, base: str) -> dict[str, str]:
    page.goto(f"{base}/director/t/{SLUG}/player-links/")
    found = page.eval_on_selector_all(
        ".link-url a", "els => els.map(a => [a.dataset.player, a.href])"
    )
    return dict(found)


def report_open_matches(player: Any, links: dict[str, str], limit: int = 99) -> int:
    """Each player whose link shows a match to report records the one game of it (the
    name first in the alphabet wins); the opponent confirms through their own link.
    Returns how many matches were decided."""
    decided = 0
    for name in sorted(links):
        if decided >= limit:
            break
        player.goto(links[name])
        if not player.locator("button:text-is('Record game 1')").count():
            continue
        names = player.eval_on_selector_all(
            "input[name=winner]", "els => els.map(e => e.parentElement.textContent.trim())"
        )
        assert name in names
        opponent = next(n for n in names if n != name)
        winner = min(names)
        player.locator("label.pill", has_text=winner).locator("input[name=winner]").check()
        submit(player, "form.game-form", "Record game 1")
        assert "Game 1 recorded." in player.content()
        player.goto(links[opponent])
        assert player.locator("button:text-is('Confirm the result')").count() == 1
        submit(player, "form", "Confirm the result")
        assert "Result confirmed" in player.content()
        decided += 1
    return decided


def test_a_weekend_through_console_links_and_public_pages(chromium: Any, live_server: Any) -> None:
    try:
        play_the_weekend(chromium, live_server)
    finally:
        release_server_connections()


def play_the_weekend(chromium: Any, live_server: Any) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    director = grant_tournament_creation(UserFactory(username="td"))
    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))

    # ---- the director: log in, create the tournament and its two events ----------
    page.goto(f"{base}/accounts/login/?next=/director/")
    page.fill("input[name=username]", director.username)
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/director/")
    page.goto(f"{base}/director/new/")
    page.fill("input[name=name]", "Harbour Open")
    page.fill("input[name=slug]", SLUG)
    page.fill("input[name=venue]", "Harbour Hotel")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.url == f"{base}/director/t/{SLUG}/"

    page.goto(f"{base}/director/t/{SLUG}/new-event/")
    assert page.is_checked("input[name=start_matches][value=auto]")  # the default
    page.fill("input[name=name]", "Main")
    page.fill("input[name=match_lengths]", "1")
    submit(page, "form.event-form", "Create the event")
    page.goto(f"{base}/director/t/{SLUG}/new-event/")
    page.fill("input[name=name]", "Consolation")
    page.fill("input[name=match_lengths]", "1")
    page.select_option("select[name=feeds_from]", label="Harbour Open: Main")
    page.fill("input[name=feed_rounds]", "1")
    submit(page, "form.event-form", "Create the event")
    assert "Consolation created." in page.content()

    # ---- players from a CSV, entered in the Main -----------------------------------
    page.goto(f"{base}/director/t/{SLUG}/import/")
    csv = "name,email,rating,club\n" + "".join(
        f"{n},{n.split()[0].lower()}@example.org,{1700 - 20 * i},Harbour Club\n"
        for i, n in enumerate(NAMES)
    )
    page.fill("textarea[name=text]", csv)
    page.select_option("select[name=event]", label="Harbour Open: Main")
    page.click("form.import-form button[type=submit]")
    page.wait_for_load_state()
    page.click("button:text-matches('Import 8 players')")
    page.wait_for_load_state()

    # A ninth player typed by hand whose name exists: warned, and not added.
    page.goto(f"{base}/director/t/{SLUG}/events/main/")
    page.fill("input[name=name]", "Anna Berg")
    submit(page, "form[action$='/entries/']", "Register")
    assert (
        "A player named Anna Berg already exists: Anna Berg (Harbour Club, anna@example.org)"
        in (page.content())
    )
    page.locator("#register-h").scroll_into_view_if_needed()
    both_widths(page, "console-duplicate-warning")

    # Withdraw asks first; undo puts the player back.
    page.goto(f"{base}/director/t/{SLUG}/events/main/")
    page.click("a[aria-label='Withdraw Ines Jung']")
    assert "Withdraw Ines Jung from Main?" in page.content()
    both_widths(page, "console-withdraw-confirm")
    submit(page, "form", "Yes, withdraw Ines Jung")
    assert "Ines Jung withdrawn." in page.content()
    page.click("button[aria-label='Undo the withdrawal of Ines Jung']")
    page.wait_for_load_state()
    assert "Ines Jung is back in, registered." in page.content()

    # ---- the draw: every round-1 match opens at once ------------------------------
    page.check("input[name=method][value=rating]")
    submit(page, "form[action$='/draw/']", "Make the draw")
    assert "Main drawn." in page.content()
    assert "each match starts as soon as both players are known" in page.content()
    both_widths(page, "console-event-drawn")

    # Tables: the director numbers the round's ready matches, in bracket order.
    page.goto(f"{base}/director/t/{SLUG}/events/main/matches/")
    submit(page, "form.round-tables", "Number the tables")
    grid = page.content()
    assert all(f"Table {n}</span>" in grid for n in (1, 2, 3, 4)), "four round-1 tables"
    both_widths(page, "console-tables-numbered")

    # ---- the links, as the director hands them out ---------------------------------
    links = links_from_console(page, base)
    assert sorted(links) == sorted(NAMES)
    assert all(re.fullmatch(rf"{re.escape(base)}/r/[\w-]+/", url) for url in links.values())
    assert page.locator(".link-qr svg").count() == 8
    both_widths(page, "console-player-links")
    page.emulate_media(media="print")
    page.screenshot(path=str(ARTIFACTS / "console-player-links-print.png"), full_page=True)
    page.pdf(path=str(ARTIFACTS / "console-player-links.pdf"), format="A4")
    page.emulate_media(media="screen")
    submit(page, "form[action$='/email/']", "Email every player their link")
    assert "8 link emails queued." in page.content()

    # The match slips carry each player's link for the director.
    page.goto(f"{base}/t/{SLUG}/main/slips/")
    assert page.locator(".slip").count() == 4
    assert page.locator(".slip-qr svg").count() == 8
    shot(page, "director-slips", 1366)
    page.set_viewport_size({"width": 1366, "height": 900})

    # A leaked link is replaced: the old address is not found any more.
    leaked = links["Hiro Ito"]
    page.goto(f"{base}/director/t/{SLUG}/player-links/")
    page.click("a[aria-label='New link for Hiro Ito']")
    both_widths(page, "console-regenerate-confirm")
    submit(page, "form", "Yes, replace the link")
    assert "Hiro Ito has a new link" in page.content()
    links = links_from_console(page, base)
    assert links["Hiro Ito"] != leaked

    # ---- the players, each through their own link ---------------------------------
    players = chromium.new_context(viewport={"width": 390, "height": 844})
    player = players.new_page()
    player.on("pageerror", lambda e: errors.append(str(e)))
    gone = player.goto(leaked)
    assert gone is not None
    assert gone.status == 404
    assert "This link is not valid: ask your director for your link." in player.content()
    player.screenshot(path=str(ARTIFACTS / "player-old-link-404-390.png"), full_page=True)

    player.goto(links["Anna Berg"])
    assert "your next match" in player.content()
    assert re.search(r"Table <strong>[1-4]</strong>", player.content()), "the player's table"
    shot(player, "player-ready", 390)
    shot(player, "player-ready", 1366)
    player.set_viewport_size({"width": 390, "height": 844})

    # Anna beats Ines in round 1 of the Main: Ines's link now shows the Consolation
    # match that waits for her (opponent still to come), then opens it.
    assert report_open_matches(player, links, limit=1) == 1

    # The director corrects the mistyped final score alone: an unlikely one is asked
    # about first, a plausible one is kept as a score-only result, winner unchanged.
    page.goto(f"{base}/director/t/{SLUG}/events/main/matches/")
    page.locator(".match-card", has_text="Ines Jung").locator("a:text-is('Correct')").click()
    page.wait_for_load_state()
    match_page = page.url
    score_form = page.locator("form[action$='/score/']")
    score_form.get_by_label(re.compile(r"^Anna Berg:?$")).fill("25")
    score_form.get_by_label(re.compile(r"^Ines Jung:?$")).fill("0")
    submit(page, "form[action$='/score/']", "Save the result")
    assert "Confirm this unlikely score" in page.content()
    both_widths(page, "console-unlikely-score")
    score_form.get_by_label(re.compile(r"^Anna Berg:?$")).fill("2")
    score_form.get_by_label(re.compile(r"^Ines Jung:?$")).fill("0")
    submit(page, "form[action$='/score/']", "Save the result")
    assert "Result saved." in page.content()
    page.goto(match_page)
    head = page.locator(".page-head").inner_text()
    assert "Score only" in head
    scores = page.locator("table.scoreline").inner_text()
    assert re.search(r"Anna Berg\s+2", scores)
    assert re.search(r"Ines Jung\s+0", scores)
    both_widths(page, "console-score-corrected")

    player.goto(links["Ines Jung"])
    assert "Coming up" in player.content()
    assert "Consolation, Semi-final (1 point): opponent not known yet" in player.content()
    both_widths(player, "player-after-main-loss")
    player.set_viewport_size({"width": 390, "height": 844})
    assert report_open_matches(player, links, limit=3) == 3
    player.goto(links["Ines Jung"])
    assert "Consolation, Semi-final: your next match" in player.content()
    both_widths(player, "player-consolation-ready")
    player.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/director/t/{SLUG}/events/consolation/")
    assert "Running" in page.content()
    both_widths(page, "console-consolation-running")

    # Every further match, Main and Consolation, until both have a champion.
    for _ in range(6):
        if not report_open_matches(player, links):
            break

    # ---- the spectator: public pages only -------------------------------------------
    watching = chromium.new_context(viewport={"width": 1366, "height": 900})
    spectator = watching.new_page()
    spectator.on("pageerror", lambda e: errors.append(str(e)))
    for path, name in (
        (f"/t/{SLUG}/", "public-tournament"),
        (f"/t/{SLUG}/main/", "public-main"),
        (f"/t/{SLUG}/consolation/", "public-consolation"),
        (f"/t/{SLUG}/main/slips/", "public-slips"),
    ):
        response = spectator.goto(base + path)
        assert response is not None
        assert response.status == 200, path
        html = spectator.content()
        for url in links.values():
            assert url.rsplit("/r/", 1)[1].strip("/") not in html, (path, "private key leaked")
        both_widths(spectator, name)
    spectator.goto(f"{base}/t/{SLUG}/main/")
    assert "Anna Berg" in spectator.content()

    # A player whose events are over: their link shows their results.
    player.goto(links["Anna Berg"])
    done = player.content()
    assert "Final place: <strong>1st of 8: champion</strong>" in done
    assert "<form" not in done.split("<main", 1)[1]
    both_widths(player, "player-results")

    page.goto(f"{base}/director/t/{SLUG}/")
    body = page.content()
    assert body.count("Champion:") == 2, "both events have their champion"
    assert "Champion: <strong>Anna Berg</strong>" in body
    both_widths(page, "console-tournament-finished")
    assert not errors, errors
    for opened in (watching, players, context):
        opened.close()
