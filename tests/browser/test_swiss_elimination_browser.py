"""A 32-player Swiss elimination (out at 3 losses) in headless Chromium with the real CSP:
the director keeps two players apart and lifts it in the console, pairs the next round,
relaxes a prohibition that blocks a round, ends an event; the public event page (counts,
status, round out, pairing log) and the room board at 1366 and 390 px (the board at
1920 too); the settings form's new fieldset.

Screenshots: test-artifacts/swiss-elimination/*.png
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from matches.models import Match
from tests.browser.live import ARTIFACTS, both_widths, log_in
from tests.browser.scenario import decide, inline_tasks, make_players
from tournament.models import Entry, Event, ForbiddenPair, PairingNote, User
from tournament.selectors import elimination_counts
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.forbidden_pairs import forbidden_pair_add
from tournament.services.rounds import event_next_round
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLDER = "swiss-elimination"


def _play_round(event: Event, director: User, seed: int) -> None:
    rng = random.Random(seed)
    event_next_round(event=event, by=director)
    for k, match in enumerate(Match.objects.filter(event=event, status="ready").order_by("slot")):
        decide(match, rng.choice([1, 2]), seed=seed * 100 + k, director=director)


def _open() -> tuple[User, Any, Event, Event]:
    """The Nordic Open: a 32-player Main three rounds in, and a two-player side event
    whose next round a prohibition blocks."""
    with inline_tasks():
        director = User.objects.create_user("td", password="td-password-1")
        t = tournament_create(name="Nordic Open", slug="nordic", director=director)
        main = event_create(
            tournament=t,
            name="Main",
            slug="main",
            format="swiss-elimination",
            match_lengths=[3],
            entry_fee=50,
            payout_split=[40, 25, 15, 10, 5, 5],
            places_paid=6,
            last_loss_cashes=True,
        )
        players = make_players(32)
        for p in players:
            entry = entry_register(event=main, player=p)
            Entry.objects.filter(pk=entry.pk).update(paid=Entry.Payment.CASH)
        draw_make(event=main, method="random", seed=2026, by=director)
        for number in range(1, 4):
            _play_round(main, director, seed=number)
        side = event_create(
            tournament=t, name="Side", slug="side", format="swiss-elimination", match_lengths=[1]
        )
        for p in players[:2]:
            entry_register(event=side, player=p)
        draw_make(event=side, method="rating", by=director)
        _play_round(side, director, seed=9)
        forbidden_pair_add(event=side, players=[players[0].pk, players[1].pk], by=director)
        return director, t, main, side


def test_a_32_player_swiss_elimination_in_the_browser(tab):
    director, t, main, side = _open()
    page = tab(1366, 900)
    log_in(page.page, page.base, "td", "td-password-1")

    # The console: keep two players apart, lift it, keep them apart again.
    page.open(f"/director/t/{t.slug}/events/main/")
    alive = list(main.entries.select_related("player"))
    a, b = alive[0].player, alive[1].player
    page.page.select_option("#fp-a", str(a.pk))
    page.page.select_option("#fp-b", str(b.pk))
    page.page.select_option("#fp-strength", "avoid")
    with page.page.expect_navigation():
        page.page.click("form.forbidden-add button[type=submit]")
    assert "kept apart" in page.page.inner_text(".messages")
    rule = ForbiddenPair.objects.get(event=main)
    assert rule.strength == "avoid"
    with page.page.expect_navigation():
        page.page.click(f"form[action$='/forbidden-pairs/{rule.pk}/delete/'] button")
    assert not ForbiddenPair.objects.filter(event=main).exists()
    page.page.select_option("#fp-a", str(a.pk))
    page.page.select_option("#fp-b", str(b.pk))
    with page.page.expect_navigation():
        page.page.click("form.forbidden-add button[type=submit]")
    assert ForbiddenPair.objects.filter(event=main, strength="absolute").count() == 1

    # Pair round 4 from the console.
    with page.page.expect_navigation():
        page.page.click("form[action$='/rounds/next/'] button[type=submit]")
    assert "Paired from the standings. Round 4 started" in page.page.inner_text(".messages")
    counts = elimination_counts(main)
    text = page.page.inner_text(".elim-counts-console")
    assert f"{counts.alive} alive" in text
    assert f"{counts.out} out" in text
    both_widths(page.page, FOLDER, "console-event")
    for match in Match.objects.filter(event=main, round__number=4, is_bye=False):
        assert {match.entry1.player_id, match.entry2.player_id} != {a.pk, b.pk}

    # The public event page: counts, status and round out, the pairing log.
    with inline_tasks():
        for k, match in enumerate(Match.objects.filter(event=main, status="ready")):
            decide(match, 1 + k % 2, seed=k, director=director)
    page.open(f"/t/{t.slug}/main/")
    counts = elimination_counts(main)
    shown = page.page.inner_text(".elim-counts")
    assert f"{counts.alive} alive" in shown
    assert f"{counts.cashing} cashing" in shown
    assert f"{counts.out} out" in shown
    standings = page.page.inner_text("table.standings")
    assert "alive" in standings
    assert "out R" in standings
    page.page.click(".pairing-log summary")
    assert "Round 4 paired" in page.page.inner_text(".pairing-log")
    assert a.name not in page.page.inner_text(".pairing-log")
    both_widths(page.page, FOLDER, "public-event")
    page.open(f"/t/{t.slug}/main/draws/{main.draws.get().pk}/")
    assert "2026" in page.page.inner_text("main")

    # The room board counts the players alive, cashing and out.
    for width, height in ((1920, 1080), (1366, 768), (390, 844)):
        board = tab(width, height)
        board.open(f"/t/{t.slug}/board/")
        strip = board.page.inner_text(".rb-counts")
        assert f"{counts.alive} alive" in strip
        assert f"{counts.out} out" in strip
        board.shot(f"../{FOLDER}/board-{width}")
        overflow = board.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        assert board.errors == []

    # The side event: the next round is blocked; the director relaxes the prohibition.
    page.open(f"/director/t/{t.slug}/events/side/")
    with page.page.expect_navigation():
        page.page.click("form[action$='/rounds/next/']:not(.relax-form) button[type=submit]")
    assert "keeps every forbidden pair" in page.page.inner_text(".messages")
    assert page.page.is_visible("#relax")
    both_widths(page.page, FOLDER, "console-relax")
    with page.page.expect_navigation():
        page.page.click("#relax button[type=submit]")
    assert "Paired from the standings. Round 2 started" in page.page.inner_text(".messages")
    note = PairingNote.objects.get(event=side, round_number=2)
    assert "relaxed 1" in note.text

    # End the Main between rounds.
    with inline_tasks():
        for k, match in enumerate(Match.objects.filter(event=main, status="ready")):
            decide(match, 1 + k % 2, seed=k, director=director)
    page.open(f"/director/t/{t.slug}/events/main/")
    with page.page.expect_navigation():
        page.page.click("form.end-event button[type=submit]")
    main.refresh_from_db()
    assert main.status == Event.Status.FINISHED
    page.open(f"/t/{t.slug}/main/")
    both_widths(page.page, FOLDER, "public-event-finished")

    # The settings form has the Swiss elimination fieldset.
    page.open(f"/director/t/{t.slug}/new-event/")
    assert page.page.is_visible("input[name=losses_to_eliminate]")
    both_widths(page.page, FOLDER, "event-form")
    # The only errors: the blocked round's page, answered 400 on purpose.
    expected = ("/side/rounds/next/", "status of 400 (Bad Request)")
    assert [e for e in page.errors if not any(x in e for x in expected)] == []
    assert (ARTIFACTS / FOLDER / "public-event-390.png").exists()


def test_the_playoff_and_a_kept_player_in_the_browser(tab):
    """The console states the three-player playoff before starting it, and offers to
    keep a player out last round when someone would have a bye; the public page shows
    the playoff (1366 and 390 px)."""
    from tests.tournament.test_elimination_endings import (
        odd_field_after_a_round,
        three_alive_on_two_one,
    )

    with inline_tasks():
        director = User.objects.create_user("td", password="td-password-1")
        t = tournament_create(name="Chicago Open", slug="chicago", director=director)
        players = iter(make_players(14))

        def enter(event: Event, count: int) -> list[Entry]:
            return [entry_register(event=event, player=next(players)) for _ in range(count)]

        playoff, _ = three_alive_on_two_one(t, enter)
        kept, _ = odd_field_after_a_round(t, enter)
    page = tab(1366, 900)
    log_in(page.page, page.base, "td", "td-password-1")

    page.open(f"/director/t/{t.slug}/events/{kept.slug}/")
    assert page.page.is_visible("fieldset.keep-players")
    both_widths(page.page, FOLDER, "console-keep")
    page.page.check("fieldset.keep-players input[name=keep] >> nth=0")
    with page.page.expect_navigation():
        page.page.click("form.next-round button[type=submit]")
    assert "started" in page.page.inner_text(".messages")
    latest = kept.rounds.order_by("-number").first()
    assert latest is not None
    assert not latest.matches.filter(is_bye=True).exists()

    page.open(f"/director/t/{t.slug}/events/{playoff.slug}/")
    assert "three-player playoff" in page.page.inner_text(".playoff-next")
    both_widths(page.page, FOLDER, "console-playoff-next")
    with page.page.expect_navigation():
        page.page.click("form.next-round button[type=submit]")
    assert "playoff" in page.page.inner_text(".messages")
    page.open(f"/t/{t.slug}/{playoff.slug}/")
    assert "in the playoff" in page.page.inner_text("table.standings")
    assert "Playoff 1" in page.page.inner_text("main")
    both_widths(page.page, FOLDER, "public-playoff")
    assert page.errors == []
