"""Labels inside a sentence or on a badge read in the page's language: a decision, a
payment method, a tie-break. English writes them in lower case ("walkover"), German keeps
its nouns capitalised ("Walkover", "Bezahlt: Überweisung"), so neither is lowercased
after translation; the bracket's badge is the translated decision, not the stored code."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from matches.models import Match
from tests.console.test_player_links import make_weekend
from tests.factories import UserFactory
from tests.i18n.test_money import finished_main, sheet
from tests.public.builders import elimination, finish
from tournament.models import Entry, Event
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

DE = {"accept-language": "de"}
EN = {"accept-language": "en"}


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test's database reuses ids: pages cached by an earlier test must not show."""
    clear_caches()
    yield
    clear_caches()


def _decided(event: Event, decision: str) -> Match:
    match = finish(Match.objects.filter(event=event, round__number=1).first(), winner_side=1)
    Match.objects.filter(pk=match.pk).update(decision=decision)
    return match


@pytest.mark.parametrize("page", ["", "print/"])
def test_the_bracket_badge_is_the_translated_decision(client: Client, page: str) -> None:
    main = elimination(4)
    _decided(main, Match.Decision.SCORE)
    url = f"/t/{main.tournament.slug}/{main.slug}/{page}"
    german = client.get(url, headers=DE).content.decode()
    assert '<span class="badge">nur Ergebnis</span>' in german
    assert '<span class="badge">score</span>' not in german
    clear_caches()
    english = client.get(url, headers=EN).content.decode()
    assert '<span class="badge">score only</span>' in english


def test_a_walkover_keeps_its_capital_in_german(client: Client) -> None:
    main = elimination(4)
    _decided(main, Match.Decision.WALKOVER)
    director = UserFactory()
    main.tournament.directors.add(director)
    public = f"/t/{main.tournament.slug}/"
    assert '<span class="badge">Walkover</span>' in client.get(public, headers=DE).content.decode()
    clear_caches()
    assert '<span class="badge">walkover</span>' in client.get(public, headers=EN).content.decode()
    client.force_login(director)
    grid = f"/director/t/{main.tournament.slug}/events/{main.slug}/matches/"
    assert '<span class="mc-how">Walkover</span>' in client.get(grid, headers=DE).content.decode()
    assert '<span class="mc-how">walkover</span>' in client.get(grid, headers=EN).content.decode()


def test_paid_by_transfer_keeps_its_capital_in_german(client: Client) -> None:
    weekend = make_weekend()
    entry = Entry.objects.filter(event=weekend.main).first()
    client.force_login(weekend.director)
    url = "/director/t/links/events/main/"
    assert "Bezahlt: Überweisung</option>" in client.get(url, headers=DE).content.decode()
    assert "Paid: transfer</option>" in client.get(url, headers=EN).content.decode()
    done = client.post(
        f"{url}entries/bulk/",
        {"action": "paid-transfer", "entries": [entry.pk]},
        headers=DE,
        follow=True,
    ).content.decode()
    assert "als bezahlt (Überweisung) markiert" in done


def test_the_final_sheet_collects_by_transfer_with_its_capital(client: Any) -> None:
    tournament = tournament_create(name="Sheet Open", slug="sheet-open", director=UserFactory())
    main = finished_main(tournament)
    Entry.objects.filter(event=main).update(paid=Entry.Payment.TRANSFER)
    assert "Eingenommen: Überweisung" in sheet(client, tournament, "de")
    assert "Collected: transfer" in sheet(client, tournament, "en")


def test_the_swiss_standings_name_their_tie_breaks_as_german_writes_them(client: Client) -> None:
    t = tournament_create(name="Swiss Open", slug="swiss-open", director=UserFactory())
    swiss = event_create(
        tournament=t, name="Swiss", slug="swiss", format=Event.Format.SWISS, match_lengths=[1]
    )
    for i in range(4):
        entry_register(event=swiss, player=player_create(name=f"Swiss {i}"))
    draw_make(event=swiss, seed=1)
    german = client.get("/t/swiss-open/swiss/", headers=DE).content.decode()
    assert "Geordnet nach Siegen, dann direkter Vergleich, dann gewonnene minus" in german
    clear_caches()
    english = client.get("/t/swiss-open/swiss/", headers=EN).content.decode()
    assert "Ranked by wins, then head to head, then points won minus lost" in english


def test_a_forbidden_pairing_reads_nur_runde_1_in_german(client: Client) -> None:
    from tournament.models import ForbiddenPair
    from tournament.services.forbidden_pairs import forbidden_pair_add

    weekend = make_weekend()
    a, b = Entry.objects.filter(event=weekend.main).values_list("player_id", flat=True)[:2]
    forbidden_pair_add(event=weekend.main, players=[a, b], rounds=ForbiddenPair.Rounds.FIRST)
    client.force_login(weekend.director)
    url = "/director/t/links/events/main/"
    assert "absolut, nur Runde 1" in client.get(url, headers=DE).content.decode()
    assert "absolute, round 1 only" in client.get(url, headers=EN).content.decode()


def test_a_dropped_double_keeps_its_capital_in_german(client: Client) -> None:
    from matches.models import Game

    main = elimination(4)
    match = _decided(main, Match.Decision.PLAY)
    Game.objects.create(
        match=match, number=1, winner_side=1, cube=2, result="single", ended_by="drop",
        points=2, score_before1=0, score_before2=0,
    )  # fmt: skip
    director = UserFactory()
    main.tournament.directors.add(director)
    client.force_login(director)
    url = f"/director/t/{main.tournament.slug}/matches/{match.pk}/"
    assert "(Doppel abgelehnt)" in client.get(url, headers=DE).content.decode()
    assert "(double dropped)" in client.get(url, headers=EN).content.decode()


def test_a_live_badge_and_a_refusal_word_a_status_as_german_writes_it(client: Client) -> None:
    from django.utils import translation

    from matches.errors import Invalid
    from tournament.services.entries import entry_check_in

    main = elimination(4)
    Match.objects.filter(pk=Match.objects.filter(event=main, round__number=1).first().pk).update(
        status=Match.Status.REPORTED
    )
    page = client.get(f"/t/{main.tournament.slug}/{main.slug}/", headers=DE).content.decode()
    assert '<span class="badge live">wartet auf Bestätigung</span>' in page
    entry = Entry.objects.filter(event=main).first()
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.WAITING)
    entry.refresh_from_db()
    with translation.override("de"), pytest.raises(Invalid, match="ist auf der Warteliste"):
        entry_check_in(entry=entry)
