"""Results that survive the venue's Wi-Fi, in headless Chromium with the site's real CSP.

Anna plays two matches at once (the Main and a side event). Her phone loads her private
link, then loses the network: she reports 10 games of each match, the form moving on at
once; she closes the tab and opens her link again, still offline: the page opens from
the phone's copy, marked with when it was loaded, with "20 unsent". The network comes
back: exactly those 20 games are recorded, in order, each once; the same request sent
again records nothing. Then a report the server refuses when it arrives (Bert recorded
that game first, differently) stays on the page as "needs attention" with the server's
reason and what to do, until Anna deals with it; the director sees her phone's last sync
and what it holds, the room board marks the match. A bracket and the match slips loaded
earlier read offline, marked with when they were loaded.

Screenshots (1366 and 390 px, the board also 1920): test-artifacts/offline/.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from playwright.sync_api import Error as PlaywrightError

from matches.models import DeviceSync, Game, Match, ReportKey, Submission
from tests.browser.live import ARTIFACTS, both_widths, log_in, release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.models import PlayerLink, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]

SHOTS = ARTIFACTS / "offline"
SLUG = "harbour-cup"
#: Match A (Main, 11 points): (winner, cube, result) game by game; "A" is Anna.
GAMES_A = [("A", 1, "single"), ("B", 1, "single"), ("A", 2, "single"), ("B", 1, "single")] + [
    ("A" if n % 2 else "B", 1, "single") for n in range(5, 11)
]
#: Match B (Side, 25 points), with cubes, gammons and a backgammon.
GAMES_B = [
    ("A", 2, "gammon"),
    ("C", 1, "single"),
    ("A", 1, "single"),
    ("C", 2, "single"),
    ("A", 1, "backgammon"),
    ("C", 1, "single"),
    ("A", 4, "single"),
    ("C", 1, "gammon"),
    ("A", 1, "single"),
    ("C", 2, "single"),
]


def shot(
    page: Any, name: str, widths: tuple[int, ...] = (390,), *, fits: bool = True, top: int = 0
) -> None:
    """Screenshots into test-artifacts/offline/; a page wider than the screen fails (but
    the slips, an A4 sheet). ``top``: also the first ``top`` px of the page at 390 px
    (``<name>-390-top.png``, for docs/img/: a console page is long)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0 or not fits, f"{name} is {overflow} px wider than a {width} px screen"
    if top:
        page.set_viewport_size({"width": 390, "height": top})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"{name}-390-top.png"))


def setup() -> dict[str, Any]:
    director = UserFactory(username="td")
    t = tournament_create(name="Harbour Cup", slug=SLUG, director=director)
    anna, bert, cleo = (
        player_create(name=name, email=f"{name.lower()}@example.org")
        for name in ("Anna", "Bert", "Cleo")
    )
    matches = []
    for name, length, opponent in (("Main", 11, bert), ("Side", 25, cleo)):
        event = event_create(tournament=t, name=name, slug=name.lower(), match_lengths=[length])
        for player in (anna, opponent):
            entry_register(event=event, player=player)
        draw_make(event=event, method="manual", order=[anna.pk, opponent.pk])
        round_start(round_=event.rounds.get(number=1, bracket=Round.Bracket.MAIN))
        matches.append(Match.objects.get(event=event, round__number=1))
    players = {"A": anna, "B": bert, "C": cleo}
    return {
        "director": director,
        "players": players,
        "key": PlayerLink.objects.get(tournament=t, player=anna).key,
        "bert_key": PlayerLink.objects.get(tournament=t, player=bert).key,
        "matches": matches,
    }


def report(page: Any, winner: int, cube: int, result: str) -> int:
    """Report the game the form asks for; the form's next number once it moved on."""
    form = "form.game-form"
    number = int(page.input_value(f"{form} input[name=game_number]"))
    page.check(f"{form} input[name=winner][value='{winner}']")
    page.select_option(f"{form} select[name=cube]", str(cube))
    page.check(f"{form} input[name=result][value='{result}']")
    page.click(f"{form} button[type=submit]")
    page.wait_for_function(
        f"() => document.querySelector('{form} input[name=game_number]').value === '{number + 1}'"
    )
    assert page.inner_text("#game-h") == f"Report game {number + 1}"
    return number + 1


def post_again(base: str, match_id: int, key: str, body: dict[str, Any], idem: str) -> Any:
    """POST a game report with its key, as a client does: again after a 503 (SQLite busy
    with the phone's requests), as Retry-After asks."""
    for _ in range(20):
        answer = _post(base, match_id, key, body, idem)
        if answer[0] != 503:
            return answer
        time.sleep(0.5)
    return answer


def _post(base: str, match_id: int, key: str, body: dict[str, Any], idem: str) -> Any:
    request = urllib.request.Request(
        f"{base}/api/matches/{match_id}/games/", data=json.dumps(body).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Report-Key", key)
    request.add_header("Idempotency-Key", idem)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


def online_event(page: Any) -> None:
    """Tell the page its network is back (as the browser does; the emulation may not), unless
    it is already showing itself again: then it heard it."""
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as err:
        if "Execution context was destroyed" not in str(err):
            raise


def quiet(check: Any) -> Any:
    """``check()``, or ``False`` while the live server holds SQLite's lock (the phone's
    requests run beside the test's reads)."""
    try:
        return check()
    except OperationalError:
        return False


def games_of(match: Match) -> list[tuple[int, int, int, str]]:
    return list(
        Game.objects.filter(match=match, voided=False)
        .order_by("number")
        .values_list("number", "winner_side", "cube", "result")
    )


def expected(match: Match, games: list[tuple[str, int, str]], players: dict[str, Any]) -> Any:
    side = {match.entry1.player_id: 1, match.entry2.player_id: 2}
    return [
        (n, side[players[w].pk], cube, result) for n, (w, cube, result) in enumerate(games, start=1)
    ]


def test_twenty_games_reported_offline_are_recorded_once_in_order(
    chromium: Any, live_server: Any, wait_for: Any
) -> None:
    try:
        play(chromium, live_server, wait_for)
    finally:
        release_server_connections()


def play(chromium: Any, live_server: Any, wait_for: Any) -> None:
    base = live_server.url
    data = setup()
    key, players = data["key"], data["players"]
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    errors: list[str] = []

    def opened(page: Any) -> Any:
        """Its uncaught exceptions and console errors (a CSP refusal among them) are
        recorded; not the network's (requests sent into no network, expected refusals)."""
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on(
            "console",
            lambda m: (
                errors.append(m.text)
                if m.type == "error" and not m.text.startswith("Failed to load resource")
                else None
            ),
        )
        return page

    page = opened(context.new_page())

    # ---- online: the link's page, a bracket and the slips are loaded once -------------
    page.goto(f"{base}/t/{SLUG}/main/")  # not yet under the service worker: loaded again below
    csp = page.goto(f"{base}/r/{key}/").headers["content-security-policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp.split("style-src")[0]
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    shown = int(page.get_attribute("form.game-form", "data-match"))
    by_id = {m.pk: m for m in data["matches"]}
    first = by_id[shown]
    second = next(m for m in data["matches"] if m.pk != shown)
    plan = {m.pk: GAMES_A if m.event.slug == "main" else GAMES_B for m in data["matches"]}
    page.goto(f"{base}/t/{SLUG}/main/")
    page.goto(f"{base}/t/{SLUG}/main/slips/")
    page.goto(f"{base}/r/{key}/")
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    shot(page, "link-online", (1366, 390))

    # ---- offline: 10 games of each match, the form moving on at once -------------------
    context.set_offline(True)
    page.wait_for_selector("#offline-note", state="visible")
    for winner, cube, result in plan[first.pk]:
        report(page, players[winner].pk, cube, result)
    assert page.inner_text("#unsent-badge") == "10 unsent"
    assert "On this phone, with 10 unsent games" in page.inner_text("#local-state")
    page.click("#unsent summary")
    page.click("#send-now")  # offline: nothing goes, nothing is lost
    page.wait_for_function("() => document.querySelector('#queue-status').textContent !== ''")
    assert page.inner_text("#unsent-badge") == "10 unsent"
    shot(page, "offline-ten-unsent", (390, 1366))
    page.click(f"a[data-keep][href='?match={second.pk}']")
    page.wait_for_selector(".offline-copy")  # the phone's copy, stamped with its time
    assert "This page as it was loaded at" in page.inner_text(".offline-copy")
    assert int(page.get_attribute("form.game-form", "data-match")) == second.pk
    for winner, cube, result in plan[second.pk]:
        report(page, players[winner].pk, cube, result)
    assert page.inner_text("#unsent-badge") == "20 unsent"
    shot(page, "offline-twenty-unsent")

    # ---- the tab closed and opened again, still offline ---------------------------------
    page.close()
    page = opened(context.new_page())
    page.goto(f"{base}/r/{key}/")
    page.wait_for_selector(".offline-copy")
    page.wait_for_function("() => document.documentElement.dataset.unsent === '20'")
    assert page.inner_text("#unsent-badge") == "20 unsent"
    assert page.inner_text("#game-h") == "Report game 11"
    page.click("#unsent summary")
    assert page.locator("#unsent-list li").count() == 20
    shot(page, "offline-reopened", (390, 1366))
    assert Game.objects.filter(match__in=data["matches"]).count() == 0
    queued = page.evaluate(f"ReportQueue.list({json.dumps(key)})")
    assert [q["body"]["game_number"] for q in queued if q["match"] == first.pk] == list(
        range(1, 11)
    )
    # The bracket and the slips loaded earlier read offline, marked with when.
    page.goto(f"{base}/t/{SLUG}/main/")
    assert "This page as it was loaded at" in page.inner_text(".offline-copy")
    shot(page, "offline-bracket", (390, 1366))
    page.goto(f"{base}/t/{SLUG}/main/slips/")
    assert "This page as it was loaded at" in page.inner_text(".offline-copy")
    shot(page, "offline-slips", (390, 1366), fits=False)
    page.goto(f"{base}/r/{key}/")
    page.wait_for_function("() => document.documentElement.dataset.unsent === '20'")

    # ---- the network is back: exactly those 20 games, in order, once -------------------
    context.set_offline(False)
    online_event(page)
    # The page reloads itself once its queue is sent (the record as the server has it).
    page.wait_for_function("() => document.documentElement.dataset.unsent === '0'", timeout=60000)
    page.wait_for_load_state("load")
    wait_for(lambda: quiet(lambda: Game.objects.filter(match__in=data["matches"]).count() == 20))
    for match in data["matches"]:
        assert games_of(match) == expected(match, plan[match.pk], players), match.event.slug
        assert Submission.objects.filter(match=match).count() == 10  # nothing twice
        assert ReportKey.objects.filter(match=match).count() == 10
    wait_for(
        lambda: quiet(
            lambda: (
                all(s.unsent == 0 for s in DeviceSync.objects.filter(match__in=data["matches"]))
                and DeviceSync.objects.count() >= 2
            )
        ),
        timeout=30,
    )
    # The same request sent again (its answer lost on the way back): recorded once.
    sent = queued[3]
    status, headers, body = post_again(base, sent["match"], key, sent["body"], sent["id"])
    assert status == 201
    assert headers.get("Idempotent-Replayed") == "true"
    assert [g["number"] for g in body["games"]] == list(range(1, 11))  # the match as it is
    assert Game.objects.filter(match__in=data["matches"]).count() == 20
    assert Submission.objects.filter(match__in=data["matches"]).count() == 20
    shot(page, "online-recorded", (1366, 390))

    # ---- a report refused when it arrives stays, with the reason and what to do --------
    page.goto(f"{base}/r/{key}/?match={first.pk}")
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    context.set_offline(True)
    report(page, players["A"].pk, 1, "single")  # game 11
    report(page, players["B"].pk, 1, "single")  # game 12, waits behind it
    bert = players["B"].pk
    status, _, _ = post_again(
        base,
        first.pk,
        data["bert_key"],
        {"winner": bert, "cube": 2, "result": "single", "game_number": 11},
        "bert-game-11",
    )
    assert status == 201  # Bert recorded game 11 first, his way
    context.set_offline(False)
    online_event(page)
    # Refused: the page shows the match as the server has it now (disputed: no form),
    # and the refused report with the server's reason.
    page.wait_for_function(
        "() => document.documentElement.dataset.attention === '1'"
        " && !document.querySelector('form.game-form')",
        timeout=60000,
    )
    text = page.inner_text("#attention")
    assert "Not recorded: Your opponent reported game 11 differently." in text
    assert "What to do:" in text
    assert "Tell the director what you reported for this game" in text
    assert page.inner_text("#unsent-badge") == "1 unsent"  # game 12 waits behind it
    page.click("#unsent summary")
    assert "waits for the report that needs attention" in page.inner_text("#unsent-list")
    shot(page, "needs-attention", (390, 1366))
    wait_for(
        lambda: quiet(
            lambda: DeviceSync.objects.filter(match=first, unsent=1, attention=1).exists()
        ),
        timeout=30,
    )
    assert [g[0] for g in games_of(first)] == list(range(1, 12))

    # The director sees the phone; the board marks the match.
    director = context.new_page()
    log_in(director, base, "td", DEFAULT_PASSWORD)
    director.goto(f"{base}/director/t/{SLUG}/matches/{first.pk}/")
    phones = director.inner_text("#phones-h + table")
    assert "Anna" in phones
    assert "1" in phones
    both_widths(director, "offline", "console-match-phones")
    director.goto(f"{base}/director/t/{SLUG}/events/main/matches/")
    assert "1 unsent" in director.inner_text(".mc-phones")
    both_widths(director, "offline", "console-grid-phones")
    director.goto(f"{base}/t/{SLUG}/board/")
    assert "results on the way" in director.inner_text("#board-live")
    director.set_viewport_size({"width": 1920, "height": 1080})
    director.screenshot(path=str(SHOTS / "board-on-the-way-1920.png"))
    both_widths(director, "offline", "board-on-the-way")
    director.close()

    # Anna deals with it: the waiting game goes, and is refused in turn (the match is
    # with the director now): that one is shown too, never dropped.
    page.click("#attention button[data-dismiss]")
    page.wait_for_function(
        "() => document.querySelector('#attention-list').textContent.includes('disputed')"
        " && document.documentElement.dataset.unsent === '0'",
        timeout=60000,
    )
    page.wait_for_load_state("load")
    shot(page, "needs-attention-disputed")
    page.click("#attention button[data-dismiss]")
    page.wait_for_selector("#attention", state="hidden")
    wait_for(
        lambda: quiet(
            lambda: DeviceSync.objects.filter(match=first, unsent=0, attention=0).exists()
        ),
        timeout=30,
    )
    assert [g[0] for g in games_of(first)] == list(range(1, 12))
    assert not errors, errors
    context.close()


def test_the_manifest_and_the_worker_are_served_for_the_private_link(client: Any, db: None) -> None:
    data = setup()
    key = data["key"]
    page = client.get(f"/r/{key}/").content.decode()
    assert f'<link rel="manifest" href="/r/{key}/manifest.webmanifest">' in page
    manifest = client.get(f"/r/{key}/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert body["start_url"] == body["scope"] == f"/r/{key}/"
    assert body["display"] == "standalone"
    assert {i["sizes"] for i in body["icons"]} >= {"192x192", "512x512"}
    assert client.get("/r/nope/manifest.webmanifest").status_code == 404
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    assert "importScripts" in worker.content.decode()
    assert Path(__file__).resolve().parents[2].joinpath("static/js/idb-keyval.js").exists()


def test_the_worker_carries_its_lines_in_every_language(client: Any) -> None:
    from django.conf import settings

    source = client.get("/sw.js").content.decode()
    found = re.search(r"^var LINES = (\{.*\});$", source, re.M)
    assert found is not None, "the worker's lines were not written in"
    lines = json.loads(found.group(1))
    assert set(lines) == {code for code, _ in settings.LANGUAGES}
    assert lines["en"]["offline"] == "Offline."
    assert lines["de"]["not_kept"].startswith("Diese Seite wurde auf diesem Telefon")
    assert lines["ja"]["title"] == "オフライン"
    for code, text in lines.items():
        assert "{time}" in text["loaded_at"], code
        assert len(set(text.values())) == len(text), code  # none left blank or in English twice
        if code != "en":
            assert text["not_kept"] != lines["en"]["not_kept"], code


def test_a_form_posted_into_a_dead_network_is_kept_not_lost(
    chromium: Any, live_server: Any, wait_for: Any
) -> None:
    """The phone thinks it is online (the venue's Wi-Fi is up) but the post goes nowhere:
    the service worker keeps the report instead of the browser's error page, and it is
    sent, once, when the network works again."""
    try:
        base = live_server.url
        data = setup()
        key, anna = data["key"], data["players"]["A"]
        context = chromium.new_context(viewport={"width": 390, "height": 900})
        page = context.new_page()
        page.goto(f"{base}/r/{key}/")
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
        match_id = int(page.get_attribute("form.game-form", "data-match"))
        # The Wi-Fi is up (the page thinks it is online) but goes nowhere.
        page.add_init_script("Object.defineProperty(navigator, 'onLine', {get: () => true})")
        page.reload()
        context.set_offline(True)
        assert page.evaluate("navigator.onLine")
        page.check(f"form.game-form input[name=winner][value='{anna.pk}']")
        with page.expect_navigation():
            page.click("form.game-form button[type=submit]")  # posted as ever: online
        page.wait_for_function("() => document.documentElement.dataset.unsent === '1'")
        assert page.inner_text("#game-h") == "Report game 2"
        shot(page, "dead-network-kept")
        assert not quiet(lambda: Game.objects.filter(match_id=match_id).exists())
        context.set_offline(False)  # the network works again: the page sends by itself
        wait_for(lambda: quiet(lambda: Game.objects.filter(match_id=match_id).count() == 1))
        page.wait_for_function(
            "() => document.documentElement.dataset.unsent === '0'", timeout=30000
        )
        assert quiet(lambda: Submission.objects.filter(match_id=match_id).count()) == 1
        # The page shown again has asked for its copies: nothing left on its way.
        page.wait_for_function(
            "() => document.documentElement.dataset.offlineReady === '1'", timeout=30000
        )
        page.wait_for_load_state("networkidle")
        context.close()
    finally:
        release_server_connections()


def test_the_page_read_offline_speaks_its_language(
    chromium: Any, live_server: Any, wait_for: Any
) -> None:
    """The scripts' catalogue (/jsi18n/<lang>/) is kept with the other assets: offline, the
    form's heading the script rewrites and the badge stay in the page's language."""
    try:
        base = live_server.url
        data = setup()
        key, anna = data["key"], data["players"]["A"]
        context = chromium.new_context(viewport={"width": 390, "height": 900}, locale="de-DE")
        # The browser's own cache out of the way (a phone empties it when short of space):
        # only what the service worker keeps counts.
        context.route(
            "**/jsi18n/**",
            lambda route: route.continue_(
                headers={**route.request.headers, "cache-control": "no-cache"}
            ),
        )
        page = context.new_page()
        page.goto(f"{base}/r/{key}/")
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
        assert page.evaluate("document.documentElement.lang") == "de"
        # The page's sync with the server done: nothing is on its way when the network goes.
        wait_for(lambda: quiet(lambda: DeviceSync.objects.exists()), timeout=30)
        page.wait_for_load_state("networkidle")
        context.set_offline(True)
        page.reload()
        page.wait_for_selector(".offline-copy")
        page.wait_for_function("() => typeof window.gettext === 'function'")
        page.check(f"form.game-form input[name=winner][value='{anna.pk}']")
        page.click("form.game-form button[type=submit]")
        page.wait_for_function("() => document.documentElement.dataset.unsent === '1'")
        assert page.inner_text("#game-h") == "Spiel 2 melden"
        assert page.inner_text("#unsent-badge") == "1 nicht gesendet"
        # The worker's own line over the copy, and its page for one never kept, too.
        shot(page, "offline-copy-de", (390, 1366))
        line = page.inner_text(".offline-copy")
        assert line.startswith("Offline. Diese Seite im Stand von "), line
        assert "wenn das Netz zurück ist" in line
        page.goto(f"{base}/r/never-opened-here/")
        assert page.evaluate("document.documentElement.lang") == "de"
        assert "noch nie geöffnet" in page.inner_text("main")
        shot(page, "never-kept-de", (390, 1366))
        context.close()
    finally:
        release_server_connections()


#: A browser without Background Sync (Safari, Firefox): gone before any script runs.
NO_BACKGROUND_SYNC = """
delete window.SyncManager;
if (window.ServiceWorkerRegistration) delete ServiceWorkerRegistration.prototype.sync;
"""
#: Only the timer may send: the page never hears that the network is back.
NO_ONLINE_EVENT = """
(() => {
  const add = window.addEventListener;
  window.addEventListener = function (type, ...rest) {
    if (type === "online") return undefined;
    return add.call(this, type, ...rest);
  };
})();
"""
#: Only the online event may send: the queue's timers (2 s and more) never fire.
NO_TIMER = """
(() => {
  const set = window.setTimeout;
  window.setTimeout = function (fn, ms, ...rest) {
    return ms >= 1500 ? 0 : set.call(this, fn, ms, ...rest);
  };
})();
"""


@pytest.mark.parametrize(("way", "script"), [("timer", NO_ONLINE_EVENT), ("online", NO_TIMER)])
def test_the_queue_goes_out_without_background_sync(
    chromium: Any, live_server: Any, wait_for: Any, way: str, script: str
) -> None:
    """Safari and Firefox have no Background Sync: the page sends its queue by itself when
    the network is back, by its timer alone and by the online event alone."""
    try:
        base = live_server.url
        data = setup()
        key, players = data["key"], data["players"]
        context = chromium.new_context(viewport={"width": 390, "height": 900})
        context.add_init_script(NO_BACKGROUND_SYNC + script)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/r/{key}/")
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
        assert page.evaluate(
            "navigator.serviceWorker.ready.then(r => !('sync' in r) && !('SyncManager' in window))"
        )
        match_id = int(page.get_attribute("form.game-form", "data-match"))
        context.set_offline(True)
        page.reload()  # the phone's copy of the page, its form's key with it
        page.wait_for_selector(".offline-copy")
        for winner in ("A", "B"):
            report(page, players[winner].pk, 1, "single")
        # The copy read again carries the same key (game 1's, by now): the next game gets
        # a key of its own, never lost as a copy of game 1.
        page.reload()
        page.wait_for_selector(".offline-copy")
        page.wait_for_function("() => document.documentElement.dataset.unsent === '2'")
        report(page, players["A"].pk, 1, "single")
        assert page.inner_text("#unsent-badge") == "3 unsent"
        assert not quiet(lambda: Game.objects.filter(match_id=match_id).exists())
        context.set_offline(False)
        if way == "online":  # as the browser says it when its network is back
            online_event(page)
        wait_for(
            lambda: quiet(lambda: Game.objects.filter(match_id=match_id).count() == 3), timeout=40
        )
        page.wait_for_function(
            "() => document.documentElement.dataset.unsent === '0'", timeout=30000
        )
        assert list(
            Game.objects.filter(match_id=match_id)
            .order_by("number")
            .values_list("number", flat=True)
        ) == [1, 2, 3]
        assert Submission.objects.filter(match_id=match_id).count() == 3
        # The phone tells the server it holds nothing more (then nothing is on its way).
        wait_for(
            lambda: quiet(lambda: DeviceSync.objects.filter(match_id=match_id, unsent=0).exists()),
            timeout=30,
        )
        # The page shown again once its queue was answered has asked for its copies: done.
        page.wait_for_function(
            "() => document.documentElement.dataset.offlineReady === '1'", timeout=30000
        )
        page.wait_for_load_state("networkidle")
        assert not errors, errors
        context.close()
    finally:
        release_server_connections()
