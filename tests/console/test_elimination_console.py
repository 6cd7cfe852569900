"""The console and the public page of an elimination Swiss: the playoff and Wisconsin
settings on the form, the three-player playoff and the knockout stated before they
start, players out in the last round offered to keep (no bye), and the public page
saying what the event does."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.test import Client

from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory
from tests.tournament.conftest import play
from tests.tournament.test_elimination_endings import (
    odd_field_after_a_round,
    three_alive_on_two_one,
)
from tournament.models import Entry, Event, Round
from tournament.pages.caching import clear_caches
from tournament.selectors import elimination_records
from tournament.services.entries import entry_register

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def tournament():
    return TournamentFactory(name="Nordic Open", slug="nordic")


@pytest.fixture
def enter() -> Callable[[Event, int], list[Entry]]:
    def _enter(event: Event, count: int) -> list[Entry]:
        return [entry_register(event=event, player=PlayerFactory()) for _ in range(count)]

    return _enter


def director(event: Event) -> Client:
    client = Client()
    client.force_login(event.tournament.directors.get())
    return client


def test_the_form_sets_the_playoff_and_the_wisconsin_ending(tournament, enter):
    event, _ = odd_field_after_a_round(tournament, enter)
    client = director(event)
    page = client.get(f"/director/t/{tournament.slug}/events/{event.slug}/settings/")
    html = page.content.decode()
    assert 'name="three_player_playoff"' in html
    assert 'name="wisconsin_after_rounds"' in html
    assert "can still cash" in html


def test_the_console_offers_to_keep_players_out_last_round(tournament, enter):
    event, entries = odd_field_after_a_round(tournament, enter)
    client = director(event)
    url = f"/director/t/{tournament.slug}/events/{event.slug}/"
    html = client.get(url).content.decode()
    assert 'name="keep"' in html
    assert "someone has a bye" in html
    records = elimination_records(event)
    last = event.rounds.order_by("-number").first()
    assert last is not None
    out = next(e for e in entries if records[e.pk].eliminated_in_round == last.number)
    answer = client.post(f"{url}rounds/next/", {"keep": [str(out.player_id)], "tables": "0"})
    assert answer.status_code == 302
    latest = event.rounds.order_by("-number").first()
    assert latest is not None
    assert latest.number == last.number + 1
    seated = {e for pair in latest.matches.values_list("entry1_id", "entry2_id") for e in pair}
    assert out.pk in seated
    assert not latest.matches.filter(is_bye=True).exists()


def test_the_console_states_the_three_player_playoff(tournament, enter):
    event, _ = three_alive_on_two_one(tournament, enter)
    client = director(event)
    url = f"/director/t/{tournament.slug}/events/{event.slug}/"
    html = client.get(url).content.decode()
    assert "Start the three-player playoff" in html
    assert "the loser meets the third" in html
    assert 'name="keep"' not in html
    client.post(f"{url}rounds/next/", {"tables": "0"})
    event.refresh_from_db()
    assert event.playoff["kind"] == "three-player"
    page = Client().get(f"/t/{tournament.slug}/{event.slug}/").content.decode()
    assert "Playoff 1" in page
    assert "in the playoff" in page
    assert "three-player playoff" in page
    html = client.get(url).content.decode()
    assert "Playoff · " in html  # the round's bracket on the console's list
    (match,) = Match.objects.filter(event=event, round__bracket=Round.Bracket.PLAYOFF)
    play(match, 1)
    html = client.get(url).content.decode()
    assert "(playoff)" in html  # Start round 5 (playoff)


def test_the_pages_state_the_wisconsin_ending(tournament, enter):
    from tournament.services.event_settings import event_update

    event, _ = odd_field_after_a_round(tournament, enter)
    event_update(event=event, wisconsin_after_rounds=9)
    client = director(event)
    html = client.get(f"/director/t/{tournament.slug}/events/{event.slug}/").content.decode()
    assert "a knockout after round 9" in html
    page = Client().get(f"/t/{tournament.slug}/{event.slug}/").content.decode()
    assert "After 9 rounds the players alive play a knockout" in page
