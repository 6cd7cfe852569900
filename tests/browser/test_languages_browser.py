"""The site in Danish and in Japanese, in headless Chromium under the real CSP (issue 30).

For each language: a visitor on a phone (390 px) switches the tournament's page to it with
the switcher (a plain form: no script), signs up (their emails will be in that language),
reports a game of their match from their private link, and the room board shows the
round in that language at 1920 and 390 px, its clock counting down in it (the scripts'
catalogue), names with Danish, Turkish and Japanese letters as they are.
Screenshots: test-artifacts/i18n/<lang>-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail

from matches.models import Match
from tests.browser.scenario import inline_tasks
from tournament.models import Event, Player, User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import round_minutes_set, round_start
from tournament.services.tables import round_tables_assign
from tournament.services.tournaments import tournament_create

# On the embedded default (the confirmation mail is read from this process's outbox; on
# the services the run's live worker sends it: not yet followed there).
pytestmark = [
    pytest.mark.browser,
    pytest.mark.embedded,
    pytest.mark.django_db(transaction=True),
]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "i18n"
#: Names as their owners write them: never translated, every script shown.
NAMES = [
    "Søren Ærøskøbing",
    "Çağla Öztürk",
    "山田 太郎",
    "Jürgen Weiß",
    "Åse Østergård",
    "İlker Şahin",
    "佐藤 花子",
]
#: What each language's pages say (docs/glossary.md), and the room board's clock.
WORDS = {
    "da": {
        "switch": "Skift sprog",
        "signup": "Tilmeld",
        "check": "Tjek din e-mail",
        "entered": "Du er tilmeldt",
        "record": "Registrér spil 1",
        "recorded": "Spil 1 registreret.",
        "next": "Næste",
        "clock": "tilbage",
    },
    "ja": {
        "switch": "言語を変更",
        "signup": "申し込む",
        "check": "メールを確認してください",
        "entered": "エントリーしました",
        "record": "ゲーム 1 を記録",
        "recorded": "ゲーム 1 を記録しました。",
        "next": "次の対戦",
        "clock": "残り",
    },
}


def _shot(page: Any, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def _page(chromium: Any, width: int, height: int, errors: list[str]) -> Any:
    # The browser asks for English: every language shown below is the visitor's choice.
    context = chromium.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


@pytest.mark.parametrize("lang", ["da", "ja"])
def test_sign_up_report_and_room_board_in_a_language(chromium, live_server, lang):
    words = WORDS[lang]
    base = live_server.url
    with inline_tasks():
        director = User.objects.create_user("td", password="td-password-1")
        t = tournament_create(name="Nordic Open", slug="nordic", director=director)
        main = event_create(tournament=t, name="Main", slug="main", match_lengths=[5])
        Event.objects.filter(pk=main.pk).update(signup=Event.Signup.OPEN)
        for name in NAMES:
            entry_register(event=main, player=Player.objects.create(name=name))
    errors: list[str] = []

    # ---- a visitor on a phone switches the page to the language -----------------------
    phone = _page(chromium, 390, 844, errors)
    phone.goto(f"{base}/t/nordic/")
    assert phone.get_attribute("html", "lang") == "en"
    phone.select_option("#lang-select", lang)
    with phone.expect_navigation():
        phone.click(".lang-switch button")
    assert phone.url == f"{base}/t/nordic/"  # the same shareable address
    assert phone.get_attribute("html", "lang") == lang
    assert phone.locator(".lang-switch button").inner_text() == words["switch"]
    _shot(phone, f"{lang}-tournament-390")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # ---- and signs up in it --------------------------------------------------------------
    phone.goto(f"{base}/t/nordic/main/signup/")
    phone.fill("input[name=name]", "Mette Sørensen" if lang == "da" else "鈴木 一郎")
    phone.fill("input[name=email]", f"new-{lang}@example.org")
    _shot(phone, f"{lang}-signup-390")
    with phone.expect_navigation():
        phone.get_by_role("button", name=words["signup"], exact=True).click()
    assert words["check"] in phone.content()  # the address' owner confirms from the mail
    _shot(phone, f"{lang}-signup-check-mail-390")
    sent = next(m for m in reversed(mail.outbox) if m.to == [f"new-{lang}@example.org"])
    assert sent.extra_headers.get("Content-Language") == lang  # the page's language
    path = re.search(r"/signup/confirm/[\w-]+/", sent.body).group(0)  # type: ignore[union-attr]
    phone.goto(f"{base}{path}")
    with phone.expect_navigation():
        phone.click("main form button[type=submit]")
    assert words["entered"] in phone.content()
    _shot(phone, f"{lang}-signup-done-390")
    newcomer = Player.objects.get(email=f"new-{lang}@example.org")
    assert newcomer.language == lang

    # ---- the director draws and starts the round; a table and a round time -------------
    with inline_tasks():
        main.refresh_from_db()
        draw_make(event=main, method="random", seed=3, by=director)
        first = main.rounds.get(number=1)
        if first.status != "started":
            round_start(round_=first)
        round_tables_assign(round_=first)
        round_minutes_set(round_=first, minutes=60)
    match = Match.objects.filter(event=main, status="ready").exclude(entry2=None).first()
    assert match is not None

    # ---- the player reports a game from their private link ------------------------------
    phone.goto(f"{base}/r/{match.entry1.report_key}/")
    assert phone.get_attribute("html", "lang") == lang  # the cookie goes everywhere
    phone.get_by_label(match.entry1.player.name).check()
    phone.get_by_role("button", name=words["record"]).click()
    phone.wait_for_load_state()
    assert words["recorded"] in phone.content()
    _shot(phone, f"{lang}-report-390")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # ---- the room board, on the venue's screen and on a phone ---------------------------
    screen = _page(chromium, 1920, 1080, errors)
    screen.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    screen.goto(f"{base}/t/nordic/board/")
    screen.wait_for_function(
        "(word) => document.querySelector('.rb-countdown').textContent.includes(word)",
        arg=words["clock"],
    )
    assert screen.get_attribute("html", "lang") == lang
    text = screen.inner_text("main")
    assert words["next"].upper() in text.upper()  # the headings are set in capitals
    for name in NAMES:
        if Match.objects.filter(event=main, entry1__player__name=name).exists():
            assert name in text, name
    _shot(screen, f"{lang}-board-1920", full_page=False)
    size = screen.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size == [1920, 1080], size
    phone.goto(f"{base}/t/nordic/board/")
    phone.wait_for_function(
        "(word) => document.querySelector('.rb-countdown').textContent.includes(word)",
        arg=words["clock"],
    )
    _shot(phone, f"{lang}-board-390")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert Event.objects.get(pk=main.pk).tournament.language == "en"
    assert errors == []
