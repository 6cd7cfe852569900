"""The director's console without the network, in headless Chromium with the site's real CSP.

The director opens two match pages of the Harbour Cup with the network up; it goes. The
match page opens from the device's copy, marked with when it was loaded. She enters the
Main's final score and the Side's games: both are kept on the device ("2 unsent"), in
order. Meanwhile Bert reports a game of the Main from his phone. The network comes back:
the Side's games are recorded once; the Main's score is refused (games were reported)
and stays under "needs attention" with the server's reason and what to do. The same
form sent again records nothing. She logs out: her kept pages go, and the next director
signed in on this device finds no copy of them.

Screenshots (390 px, the match page also 1366): test-artifacts/offline/.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.models import Game, Match, Submission
from tests.browser.live import log_in, release_server_connections
from tests.browser.test_offline_reports_browser import (
    NO_BACKGROUND_SYNC,
    SLUG,
    online_event,
    post_again,
    quiet,
    setup,
    shot,
)
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.models import Tournament
from tournament.services.tournaments import tournament_director_add

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]


def watch(page: Any, errors: list[str]) -> Any:
    """Record the page's uncaught exceptions and its console errors but the network's
    (a request the device sends into no network, a refusal it expects)."""
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


def test_the_directors_results_are_kept_offline_and_sent_once(
    chromium: Any, live_server: Any, wait_for: Any
) -> None:
    try:
        play(chromium, live_server, wait_for)
    finally:
        release_server_connections()


def play(chromium: Any, live_server: Any, wait_for: Any) -> None:
    base = live_server.url
    data = setup()
    main, side = data["matches"]  # Anna v Bert (11), Anna v Cleo (25)
    rosa = UserFactory(username="rosa")
    tournament_director_add(tournament=Tournament.objects.get(slug=SLUG), user=rosa)
    context = chromium.new_context(viewport={"width": 390, "height": 900})
    context.add_init_script(NO_BACKGROUND_SYNC)  # the console never needs it
    errors: list[str] = []
    page = watch(context.new_page(), errors)

    # ---- online: both match pages opened once ----------------------------------------
    log_in(page, base, "td", DEFAULT_PASSWORD)
    main_url = f"{base}/director/t/{SLUG}/matches/{main.pk}/"
    side_url = f"{base}/director/t/{SLUG}/matches/{side.pk}/"
    for url in (side_url, main_url):
        assert "script-src 'self'" in page.goto(url).headers["content-security-policy"]
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    assert page.evaluate("navigator.serviceWorker.controller !== null")

    # ---- offline: the match page reads from the device's copy ---------------------------
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(".offline-copy")
    assert "This page as it was loaded at" in page.inner_text(".offline-copy")
    assert "Final, match 1" in page.inner_text("h1")
    page.wait_for_selector("#dq-offline-note", state="visible")
    shot(page, "director-offline-match", (390, 1366), top=1000)

    # The Main's final score, then the Side's games: kept, in order.
    page.fill("form[data-queue-kind=score] input[name=score1]", "11")
    page.fill("form[data-queue-kind=score] input[name=score2]", "4")
    page.click("form[data-queue-kind=score] button[type=submit]")
    page.wait_for_function("() => document.documentElement.dataset.unsent === '1'")
    assert page.inner_text("#dq-unsent-badge") == "1 unsent"
    page.goto(side_url)
    page.wait_for_selector(".offline-copy")
    page.click("form[data-queue-kind=games] summary")
    page.select_option("select[name=games-0-winner]", "1")
    page.select_option("select[name=games-0-cube]", "32")
    page.click("form[data-queue-kind=games] button[type=submit]")
    page.wait_for_function("() => document.documentElement.dataset.unsent === '2'")
    page.click("#dq-unsent summary")
    listed = page.inner_text("#dq-unsent-list")
    assert "Anna 11 \u2013 4 Bert" in listed
    assert "1 game entered" in listed
    shot(page, "director-offline-unsent", top=1000)
    queued = page.evaluate(
        f"ReportQueue.list({json.dumps('director:' + str(data['director'].pk))})"
    )
    assert [(q["match"], q["kind"]) for q in queued] == [(main.pk, "score"), (side.pk, "games")]
    assert not quiet(lambda: Submission.objects.filter(match__in=[main, side]).exists())

    # Meanwhile Bert reports game 1 of the Main from his phone.
    bert = data["players"]["B"].pk
    status, _, _ = post_again(
        base,
        main.pk,
        data["bert_key"],
        {"winner": bert, "cube": 1, "result": "single", "game_number": 1},
        "bert-game-1",
    )
    assert status == 201

    # ---- the network is back: the Side recorded once, the Main's score refused ----------
    context.set_offline(False)
    online_event(page)
    page.wait_for_function(
        "() => document.documentElement.dataset.attention === '1'"
        " && document.documentElement.dataset.unsent === '0'"
        " && document.documentElement.dataset.sending === '0'",  # not a page about to reload
        timeout=60000,
    )
    wait_for(lambda: quiet(lambda: Match.objects.get(pk=side.pk).status == "complete"))
    assert Submission.objects.filter(match=side).count() == 1
    assert list(Game.objects.filter(match=side).values_list("cube", "winner_side")) == [(32, 1)]
    text = page.inner_text("#dq-attention")
    assert "Not recorded: Match" in text
    assert "already has games reported" in text
    assert "What to do: Players reported games of this match meanwhile" in text
    shot(page, "director-needs-attention", (390, 1366), top=1000)
    main.refresh_from_db()
    assert (main.status, main.score1, main.score2) == ("playing", 0, 1)
    assert Submission.objects.filter(match=main, status="rejected").count() == 1

    # The Side's form sent again with its key (an answer lost): nothing recorded twice.
    sent = queued[1]
    answer = page.evaluate(
        """([item]) => {
          const form = new URLSearchParams(item.fields);
          form.set("idempotency_key", item.id);
          const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
          return fetch(item.url, {method: "POST", body: form, credentials: "same-origin",
            headers: {"Accept": "application/json", "X-CSRFToken": token}})
            .then(r => r.json().then(body => [r.status, body]));
        }""",
        [sent],
    )
    assert answer == [201, {"ok": True, "replayed": True}]
    assert Submission.objects.filter(match=side).count() == 1

    # Dealt with: the refused one goes by the director's hand only.
    page.click("#dq-attention button[data-dismiss]")
    page.wait_for_selector("#dq-attention", state="hidden")

    # ---- logged out: the kept pages go; the next director finds none of them -----------
    with page.expect_navigation():
        page.click("form[action='/accounts/logout/'] button")
    assert page.evaluate("caches.has('bgd-director-v1')") is False
    log_in(page, base, "rosa", DEFAULT_PASSWORD)
    page.goto(f"{base}/director/")
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
    context.set_offline(True)
    page.goto(main_url)
    assert "was not opened on this phone before" in page.inner_text("main")
    assert (
        page.evaluate(
            "caches.open('bgd-director-v1').then(c => c.keys())"
            ".then(ks => ks.filter(r => r.url.includes('/matches/')).length)"
        )
        == 0
    )
    context.set_offline(False)
    assert not errors, errors
    context.close()


def test_a_score_posted_into_a_dead_network_is_kept_not_lost(
    chromium: Any, live_server: Any, wait_for: Any
) -> None:
    """The device thinks it is online (the venue's Wi-Fi is up) but the post goes nowhere:
    the service worker keeps the director's form instead of the browser's error page, and
    the match page sends it, once, when the network works again."""
    try:
        base = live_server.url
        data = setup()
        main = data["matches"][0]
        context = chromium.new_context(viewport={"width": 390, "height": 900})
        errors: list[str] = []
        page = watch(context.new_page(), errors)
        log_in(page, base, "td", DEFAULT_PASSWORD)
        url = f"{base}/director/t/{SLUG}/matches/{main.pk}/"
        page.goto(url)
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
        page.add_init_script("Object.defineProperty(navigator, 'onLine', {get: () => true})")
        page.reload()
        page.wait_for_function("() => document.documentElement.dataset.offlineReady === '1'")
        context.set_offline(True)
        page.fill("form[data-queue-kind=score] input[name=score1]", "3")
        page.fill("form[data-queue-kind=score] input[name=score2]", "11")
        with page.expect_navigation():
            page.click("form[data-queue-kind=score] button[type=submit]")  # posted as ever
        page.wait_for_function("() => document.documentElement.dataset.unsent === '1'")
        assert page.url == url
        assert "This page as it was loaded at" in page.inner_text(".offline-copy")
        assert not quiet(lambda: Submission.objects.filter(match=main).exists())
        context.set_offline(False)  # the network works again: the page sends by itself
        wait_for(lambda: quiet(lambda: Match.objects.get(pk=main.pk).status == "complete"))
        page.wait_for_function(
            "() => document.documentElement.dataset.unsent === '0'", timeout=30000
        )
        page.wait_for_load_state("load")
        main.refresh_from_db()
        assert (main.score1, main.score2, main.winner_id) == (3, 11, main.entry2_id)
        assert Submission.objects.filter(match=main).count() == 1
        page.wait_for_function(
            "() => document.documentElement.dataset.offlineReady === '1'", timeout=30000
        )
        assert not errors, errors
        context.close()
    finally:
        release_server_connections()
