"""A whole Main + Consolation weekend in headless Chromium, with no admin and no database
lookups: the director works in the console only, each player only through the private
link the console's player-links page shows, and a spectator reads the public pages.

Eight players, 1-point matches. The Main starts each match as soon as both players are
known (the default); the Consolation is run by round, each round started by hand, which
sends its players the "match ready" email with their link. The director numbers the
tables, corrects a score and a winner; a spectator follows tables on the bracket and the
scoreboard and finds a player. Screenshots at 1366 and 390 px go to
test-artifacts/links/ for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core import mail

from tests.browser.live import both_widths, release_server_connections
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


def submit(page: Any, form: str, button: str) -> None:
    with page.expect_navigation():
        page.click(f"{form} button:text-is('{button}')")


def links_from_console(page: Any, base: str) -> dict[str, str]:
    page.goto(f"{base}/director/t/{SLUG}/player-links/")
    found = page.eval_on_selector_all(
        ".link-url a", "els => els.map(a => [a.dataset.player, a.href])"
    )
    return dict(found)


def email_of(name: str) -> str:
    return f"{name.split()[0].lower()}@example.org"


def report_open_matches(
    player: Any,
    links: dict[str, str],
    limit: int = 99,
    *,
    only: list[str] | None = None,
    before_confirm: Callable[[], None] | None = None,
) -> int:
    """Each player (of ``only``, else all) whose link shows a match to report records the
    one game of it (the name first in the alphabet wins); the opponent confirms through
    their own link, after ``before_confirm`` if given. Returns how many were decided."""
    decided = 0
    for name in only or sorted(links):
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
        if before_confirm is not None:
            before_confirm()
        player.goto(links[opponent])
        assert player.locator("button:text-is('Confirm the result')").count() == 1
        submit(player, "form", "Confirm the result")
        assert "Result confirmed" in player.content()
        decided += 1
    return decided


def start_waiting_rounds(page: Any, base: str) -> int:
    """The director starts every Consolation round that has matches waiting for Start."""
    started = 0
    page.goto(f"{base}/director/t/{SLUG}/events/consolation/")
    waiting = page.locator("tr:has(.waiting-start) button[aria-label^='Start ']")
    while waiting.count():
        with page.expect_navigation():
            waiting.first.click()
        started += 1
    return started


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
    page.check("input[name=start_matches][value=by-round]")
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
    both_widths(page, "links", "console-duplicate-warning")

    # Withdraw asks first; undo puts the player back.
    page.goto(f"{base}/director/t/{SLUG}/events/main/")
    page.click("a[aria-label='Withdraw Ines Jung']")
    assert "Withdraw Ines Jung from Main?" in page.content()
    both_widths(page, "links", "console-withdraw-confirm")
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
    both_widths(page, "links", "console-event-drawn")

    # Tables: the director numbers the round's ready matches, in bracket order.
    page.goto(f"{base}/director/t/{SLUG}/events/main/matches/")
    submit(page, "form.round-tables", "Number the tables")
    grid = page.content()
    assert all(f"Table {n}</span>" in grid for n in (1, 2, 3, 4)), "four round-1 tables"
    both_widths(page, "links", "console-tables-numbered")
    watching = chromium.new_context(viewport={"width": 1366, "height": 900})
    spectator = watching.new_page()
    spectator.on("pageerror", lambda e: errors.append(str(e)))
    spectator.goto(f"{base}/t/{SLUG}/main/")
    tables = spectator.locator(".bracket .match .tbl").all_inner_texts()
    assert sorted(tables) == ["Table 1", "Table 2", "Table 3", "Table 4"], tables
    both_widths(spectator, "links", "public-main-tables")

    # ---- the links, as the director hands them out ---------------------------------
    links = links_from_console(page, base)
    assert sorted(links) == sorted(NAMES)
    assert all(re.fullmatch(rf"{re.escape(base)}/r/[\w-]+/", url) for url in links.values())
    assert page.locator(".link-qr svg").count() == 8
    both_widths(page, "links", "console-player-links")
    page.emulate_media(media="print")
    for chrome in (".site-header", ".crumbs", ".page-head", "button:text-is('Print all cards')"):
        assert not page.locator(chrome).first.is_visible(), f"{chrome} printed"
    cards = page.locator(".link-card")
    assert cards.count() == 8
    for i in range(8):
        card = cards.nth(i)
        assert card.is_visible()
        assert card.locator(".link-qr svg").is_visible()
        assert card.locator(".link-url a").is_visible()
        assert card.locator(".print-only").is_visible()
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
    both_widths(page, "links", "console-regenerate-confirm")
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
    def scoreboard_shows_the_table() -> None:
        spectator.goto(f"{base}/t/{SLUG}/scoreboard/")
        board = spectator.locator(".board-match", has_text="Anna Berg")
        assert re.fullmatch(r"Table [1-4]", board.locator(".board-table-no").inner_text())
        both_widths(spectator, "links", "public-scoreboard-table")

    assert report_open_matches(player, links, limit=1, before_confirm=scoreboard_shows_the_table)

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
    both_widths(page, "links", "console-unlikely-score")
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
    both_widths(page, "links", "console-score-corrected")

    player.goto(links["Ines Jung"])
    assert "Coming up" in player.content()
    assert "Consolation, Semi-final (1 point): opponent not known yet" in player.content()
    both_widths(player, "links", "player-after-main-loss")
    player.set_viewport_size({"width": 390, "height": 844})
    assert report_open_matches(player, links, limit=3) == 3

    # The Main's semi-finals opened by themselves and took the free tables.
    player.goto(links["Anna Berg"])
    assert "Main, Semi-final: your next match" in player.content()
    assert re.search(r"Table <strong>[1-4]</strong>", player.content()), "an automatic table"

    # The Consolation runs by round: its semi-finals wait for the director's Start, which
    # emails each of their players the match with their own private link.
    page.goto(f"{base}/director/t/{SLUG}/events/consolation/")
    assert "2 matches with both players wait for Start" in page.content()
    both_widths(page, "links", "console-consolation-waiting")
    mail.outbox.clear()
    assert start_waiting_rounds(page, base) == 1
    told = {m.to[0]: m for m in mail.outbox}
    assert len(mail.outbox) == len(told) == 4, [m.to for m in mail.outbox]
    semi_players = [n for n in NAMES if email_of(n) in told]
    assert "Ines Jung" in semi_players
    for name in semi_players:
        message = told[email_of(name)]
        assert "Consolation" in message.subject
        # The address is the site's (SITE_URL), the key the one the console shows.
        assert links[name].removeprefix(base) in message.body, (name, "their private link")
        others = [u.removeprefix(base) for n, u in links.items() if n != name]
        assert not any(path in message.body for path in others)
    player.goto(links["Ines Jung"])
    assert "Consolation, Semi-final: your next match" in player.content()
    both_widths(player, "links", "player-consolation-ready")
    player.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/director/t/{SLUG}/events/consolation/")
    assert "Running" in page.content()
    both_widths(page, "links", "console-consolation-running")

    # Ines's semi-final is reported (the first name in the alphabet wins), then the
    # director corrects the winner: the score goes with it, the new winner has the length.
    assert report_open_matches(player, links, only=["Ines Jung"]) == 1
    page.goto(f"{base}/director/t/{SLUG}/events/consolation/matches/")
    page.locator(".match-card", has_text="Ines Jung").locator("a:text-is('Correct')").click()
    page.wait_for_load_state()
    semi_id = re.search(r"/matches/(\d+)/", page.url)[1]  # type: ignore[index]
    pair = page.eval_on_selector_all(
        "form[action$='/correct/'] input[name=winner]",
        "els => els.map(e => e.parentElement.textContent.trim())",
    )
    assert "Ines Jung" in pair
    loser, old_winner = max(pair), min(pair)
    correction = page.locator("form[action$='/correct/']")
    correction.locator("label", has_text=loser).locator("input[name=winner]").check()
    submit(page, "form[action$='/correct/']", "Correct the winner")
    page.goto(f"{base}/director/t/{SLUG}/matches/{semi_id}/")
    scores = page.locator("table.scoreline").inner_text()
    assert re.search(rf"{loser}\s+1", scores), scores
    assert re.search(rf"{old_winner}\s+0", scores), scores
    both_widths(page, "links", "console-winner-corrected")
    spectator.goto(f"{base}/t/{SLUG}/consolation/")
    box = spectator.locator(f"#m{semi_id}")
    assert loser in box.locator(".line.won .name").inner_text()
    assert box.locator(".line.won .score").inner_text() == "1"
    assert box.locator(".line.lost .score").inner_text() == "0"
    both_widths(spectator, "links", "public-consolation-corrected")

    # Every further match, Main and Consolation (each round started by hand), until both
    # events have a champion.
    for _ in range(8):
        if not report_open_matches(player, links) and not start_waiting_rounds(page, base):
            break

    # ---- the spectator: public pages only -------------------------------------------
    spectator.goto(f"{base}/t/{SLUG}/")
    spectator.fill("#player-q", "Ines")
    spectator.locator("#player-results a", has_text="Ines Jung").wait_for()
    both_widths(spectator, "links", "public-player-search")
    with spectator.expect_navigation():
        spectator.locator("#player-results a", has_text="Ines Jung").first.click()
    assert "Ines Jung" in spectator.locator("h1").inner_text()
    both_widths(spectator, "links", "public-player-found")
    for path, name in (
        (f"/t/{SLUG}/", "public-tournament"),
        (f"/t/{SLUG}/main/", "public-main"),
        (f"/t/{SLUG}/consolation/", "public-consolation"),
        (f"/t/{SLUG}/main/slips/", "public-slips"),
        (f"/t/{SLUG}/scoreboard/", "public-scoreboard"),
    ):
        response = spectator.goto(base + path)
        assert response is not None
        assert response.status == 200, path
        html = spectator.content()
        for url in links.values():
            assert url.rsplit("/r/", 1)[1].strip("/") not in html, (path, "private key leaked")
        both_widths(spectator, "links", name)
    spectator.goto(f"{base}/t/{SLUG}/main/")
    assert "Anna Berg" in spectator.content()

    # A player whose events are over: their link shows their results.
    player.goto(links["Anna Berg"])
    done = player.content()
    assert "Final place: <strong>1st of 8: champion</strong>" in done
    assert "<form" not in done.split("<main", 1)[1]
    both_widths(player, "links", "player-results")

    page.goto(f"{base}/director/t/{SLUG}/")
    body = page.content()
    assert body.count("Champion:") == 2, "both events have their champion"
    assert "Champion: <strong>Anna Berg</strong>" in body
    both_widths(page, "links", "console-tournament-finished")
    assert not errors, errors
    for opened in (watching, players, context):
        opened.close()
