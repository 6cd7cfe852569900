"""A 37-player Main (27 byes) and its Consolation in headless Chromium: the Consolation is
the 32-line bracket its 21 players need, its byes read "bye" beside who will come, and no
box is an empty match. Screenshots: test-artifacts/public/consolation-37-*.png."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches.models import Match
from tests.browser.scenario import decide, inline_tasks, make_players, start_next
from tournament.models import Event, User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _thirty_seven() -> tuple[Event, Event]:
    """Main round 1 played (5 matches), half of Main round 2 decided."""
    director = User.objects.create_user("td", password="td-password-1")
    today = timezone.localdate()
    t = tournament_create(
        name="Byes Open",
        slug="byes",
        director=director,
        starts_on=today,
        ends_on=today + dt.timedelta(days=1),
        venue="Club Nord",
        time_zone="Europe/Copenhagen",
    )
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    consolation = event_create(
        tournament=t,
        name="Consolation",
        match_lengths=[3],
        feeds_from=main,
        feed_rounds=[1, 2],
        slug="consolation",
    )
    for p in make_players(37):
        entry_register(event=main, player=p)
    with inline_tasks():
        draw_make(event=main, method="rating", by=director)
        start_next(main)
        for i, match in enumerate(Match.objects.filter(event=main, status=Match.Status.READY)):
            decide(match, 1 + i % 2, seed=i, director=director)
        start_next(main)
        start_next(consolation)
        ready = Match.objects.filter(event=main, status=Match.Status.READY).order_by("slot")
        for i, match in enumerate(ready[:8]):
            decide(match, 1 + i % 2, seed=50 + i, director=director)
    return main, consolation


def test_a_37_player_consolation_has_byes_and_no_empty_match(tab):
    main, consolation = _thirty_seven()
    rounds = list(consolation.rounds.order_by("number"))
    assert [r.matches.count() for r in rounds] == [16, 8, 4, 2, 1]
    first = Match.objects.filter(round=rounds[0])
    # 8 Main-2 losers have arrived: those facing a bye went through, the rest wait or play.
    assert first.filter(is_bye=True).count() == 11
    assert not first.filter(entry1__isnull=True, entry2__isnull=True, status="complete").exists()

    page = tab(1366)
    response = page.open(f"/t/{main.tournament.slug}/consolation/")
    assert response.status == 200
    page.shot("consolation-37-event")
    body = page.page.inner_text("main")
    assert "no match" not in body
    assert page.page.locator(".match.void").count() == 0
    assert page.page.locator(".round").count() == 5
    assert page.page.locator(".round").first.locator(".match").count() == 16
    byes = page.page.locator(".round").first.locator(".line", has_text="bye")
    assert byes.count() == 11
    waiting = page.page.locator(".round").first.locator(".ph", has_text="Loser of Main R2")
    assert waiting.count() == 8  # the Main-2 matches still to be decided

    page.open(f"/t/{main.tournament.slug}/main/")
    page.shot("consolation-37-main-with-companions")
    assert page.page.locator(".match.void").count() == 0
    assert page.errors == []
