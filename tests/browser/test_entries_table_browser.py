"""The console's entries table fits its box before the draw, in German as in English, at
1366 px: each row's "Check in" (with its pays-by menu) and "Withdraw…" are on screen
without scrolling sideways (German's longer words made the table 1080 px wide in a
932 px box, "Einchecken" clipped and "Zurückziehen…" out of sight); at 390 px the page
stays usable. Screenshots go to test-artifacts/entries/."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.browser.live import ARTIFACTS, release_server_connections
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
]

#: The actions of each row, by language: the check-in button and the withdraw link.
ACTIONS = {"de": ("Einchecken", "Zurückziehen…"), "en": ("Check in", "Withdraw…")}

#: How far the table reaches past its box, and each row action's right edge past it.
MEASURE = """() => {
  const wrap = document.querySelector('.entries').closest('.table-wrap');
  const box = wrap.getBoundingClientRect();
  const past = [...document.querySelectorAll('.entries .row-actions button, .entries .row-actions a')]
    .map(el => el.getBoundingClientRect().right - box.right);
  return {overflow: wrap.scrollWidth - wrap.clientWidth, past: Math.max(...past),
          page: document.documentElement.scrollWidth - window.innerWidth};
}"""


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_entries_table_fits_its_box_before_the_draw(
    chromium: Any, live_server: Any, language: str
) -> None:
    try:
        _entries_fit(chromium, live_server.url, language)
    finally:
        release_server_connections()


def _entries_fit(chromium: Any, base: str, language: str) -> None:
    td = UserFactory(username="td")
    t = tournament_create(name="Hafen Open", slug="hafen", director=td)
    main = event_create(
        tournament=t, name="Main", match_lengths=[7], slug="main", entry_fee=Decimal("20")
    )
    for name, club in (
        ("Carmen Delacroix-Villeneuve", "Club de Backgammon de Montréal"),
        ("Hans-Joachim Meier-Schönberger", "Backgammonfreunde Hamburg-Altona"),
        ("Bo Lindqvist", "Nord"),
    ):
        entry_register(event=main, player=player_create(name=name, club=club))
    context = chromium.new_context(viewport={"width": 1366, "height": 900}, locale=language)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/?next=/director/t/hafen/events/main/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    check_in, withdraw = ACTIONS[language]
    assert page.locator(f".entries button:text-is('{check_in}')").count() == 3
    assert page.locator(f".entries a:text-is('{withdraw}')").count() == 3
    (ARTIFACTS / "entries").mkdir(parents=True, exist_ok=True)
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / "entries" / f"entries-{language}-{width}.png"))
        sizes = page.evaluate(MEASURE)
        assert sizes["page"] <= 0, f"the page is {sizes['page']} px wider than {width} px"
        if width == 1366:
            assert sizes["overflow"] <= 0, f"the table is {sizes['overflow']} px wider than its box"
            assert sizes["past"] <= 0, f"a row action ends {sizes['past']} px past the box"
    context.close()
