"""In Chromium, under the site's CSP: Swiss round 1's own Start and the next round's,
each with its "with tables" box; a fed Consolation's page without a draw; the players
page (the field, filtered as one types); a match's analysis with cube costs, kept on
show while it is re-run. Screenshots at 1366 and 390 px: test-artifacts/rounds/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import Analysis, Match
from tests.browser.live import both_widths, log_in
from tests.factories import DEFAULT_PASSWORD, PlayerFactory, TournamentFactory, UserFactory
from tests.matches.test_api import make_bracket
from tournament.models import Event, Player, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.results import match_award

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLDER = "rounds"
DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(autouse=True)
def _fast(settings) -> None:  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _play_out(rnd: Round) -> None:
    for match in rnd.matches.filter(status=Match.Status.READY).select_related("entry1"):
        match_award(decision="forfeit", match=match, winner=match.entry1)


def test_swiss_rounds_start_with_tables_and_the_fed_consolation_says_where_it_comes_from(
    tab: Any, eager_tasks: Any
) -> None:
    director = UserFactory(username="td")
    t = TournamentFactory(name="Rounds Open", slug="rounds", director=director)
    swiss = event_create(
        tournament=t, name="Swiss", format=Event.Format.SWISS, match_lengths=[3], rounds=3
    )
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    event_create(
        tournament=t,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
        slug="consolation",
    )
    for i in range(8):
        player = PlayerFactory(name=f"Swiss Player {i + 1}")
        entry_register(event=swiss, player=player)
        entry_register(event=main, player=player)
    draw_make(event=swiss, method="rating", by=director)

    desk = tab(1366)
    log_in(desk.page, desk.base, director.username, DEFAULT_PASSWORD)
    desk.open(f"/director/t/rounds/events/{swiss.slug}/")
    hint = desk.page.locator(".start-hint").inner_text()
    assert "Round 1 is paired by the draw." in hint
    assert desk.page.get_by_role("button", name="Start the next round").count() == 0
    box = desk.page.get_by_label("Number the tables of Round 1 as it starts")
    assert not box.is_checked()
    both_widths(desk.page, FOLDER, "console-swiss-round-1")
    box.check()
    with desk.page.expect_navigation():
        desk.page.get_by_role("button", name="Start Round 1").click()
    assert "Round 1 started at tables 1, 2, 3, 4" in desk.page.content()
    _play_out(swiss.rounds.get(number=1))

    desk.open(f"/director/t/rounds/events/{swiss.slug}/")
    form = desk.page.locator("form.next-round")
    assert "paired from the standings now" in form.inner_text()
    assert form.get_by_label("Number the tables as it starts").is_checked()
    form.locator(".next-hint").scroll_into_view_if_needed()
    both_widths(desk.page, FOLDER, "console-swiss-next-round")
    with desk.page.expect_navigation():
        form.get_by_role("button", name="Start round 2").click()
    assert "Round 2 started at tables 1, 2, 3, 4" in desk.page.content()
    both_widths(desk.page, FOLDER, "console-swiss-round-2-started")
    second = swiss.rounds.get(number=2)
    assert second.matches.filter(table__isnull=True, is_bye=False).count() == 0

    desk.open("/director/t/rounds/events/consolation/")
    panel = desk.page.locator("section.fed-from")
    assert "its players are the losers of Main round 1" in panel.inner_text()
    assert desk.page.get_by_role("button", name="Make the draw").count() == 0
    both_widths(desk.page, FOLDER, "console-fed-consolation")
    with desk.page.expect_navigation():
        panel.get_by_role("link", name="Main").click()
    assert desk.page.get_by_role("button", name="Make the draw").count() == 1
    assert desk.errors == []


def test_the_players_page_lists_the_field_and_filters_as_one_types(tab: Any) -> None:
    t = TournamentFactory(name="Field Open", slug="field")
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    side = event_create(tournament=t, name="Side", match_lengths=[1], slug="side")
    for i in range(14):
        player = PlayerFactory(name=f"Field Player {i + 1:02}", club="")
        entry_register(event=main, player=player)
        if i % 3 == 0:
            entry_register(event=side, player=player)
    for club in ("Odense BK", "Aarhus BK"):
        entry_register(event=main, player=Player.objects.create(name="Anna Berg", club=club))
    page = tab(1366)
    page.open("/t/field/players/")
    items = page.page.locator("ul.players-list > li")
    assert items.count() == 16
    assert "Anna Berg (Odense BK)" in items.nth(0).inner_text() + items.nth(1).inner_text()
    both_widths(page.page, FOLDER, "public-players")
    page.page.fill("#player-q", "anna")
    expect(items).to_have_count(2, timeout=10_000)
    assert page.page.url.endswith("/t/field/players/")  # htmx swapped the list in place
    both_widths(page.page, FOLDER, "public-players-filtered")
    page.page.fill("#player-q", "")
    page.page.locator("#player-q").press("Enter")
    expect(items).to_have_count(16, timeout=10_000)
    page.open("/t/field/")
    both_widths(page.page, FOLDER, "public-tournament")
    with page.page.expect_navigation():
        page.page.get_by_role("link", name="Every player, with their events").click()
    assert page.page.locator("ul.players-list > li").count() == 16
    assert page.errors == []


@pytest.mark.gnubg
def test_cube_costs_and_a_rerun_keeping_the_old_figures(
    tab: Any, eager_tasks: Any, settings: Any
) -> None:
    settings.ANALYSIS_AUTO = True
    b = make_bracket(7)
    t = b.event.tournament
    t.analysis_plies = 0
    t.analysis_public = True
    t.save()
    match = b.first
    with (DATA / "analysis/a04_7pt_cube.mat").open("rb") as f:
        answer = b.link_client(match, 1).post(
            f"/api/matches/{match.pk}/record/",
            {"file": f, "first_is": match.entry2.player_id},
            format="multipart",
        )
    assert answer.status_code == 201, answer.json()
    done = Analysis.objects.get(match=match)
    assert done.status == "done"
    page = tab(1366)
    page.open(f"/matches/{match.pk}/")
    cube = page.page.locator(
        "table.blunders tbody tr", has=page.page.locator("td.b-roll", has_text="cube")
    )
    assert cube.count() >= 3
    for i in range(cube.count()):
        assert cube.nth(i).locator("td.b-cost").inner_text().strip().isdigit()
    both_widths(page.page, FOLDER, "public-match-cube-costs")
    # A re-run queued (its worker not yet at it): the old figures stay, marked.
    Analysis.objects.create(
        match=match, submission=done.submission, run=2, plies=0, engine=done.engine
    )
    from tournament.pages.caching import clear_caches

    clear_caches()
    page.open(f"/matches/{match.pk}/")
    section = page.page.locator("#analysis")
    assert "Being re-run" in section.inner_text()
    assert section.locator("table.analysis-table tbody tr").count() == 2
    section.scroll_into_view_if_needed()
    both_widths(page.page, FOLDER, "public-match-being-rerun")
    director = tab(1366)
    log_in(director.page, director.base, b.director.username, DEFAULT_PASSWORD)
    director.open(f"/director/t/{t.slug}/matches/{match.pk}/")
    assert "Being re-run" in director.page.locator("#analysis-console").inner_text()
    both_widths(director.page, FOLDER, "console-match-being-rerun")
    assert page.errors == []
    assert director.errors == []
