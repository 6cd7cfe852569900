"""Cached public pages change as soon as the director changes what they show."""

from __future__ import annotations

import pytest

from matches.errors import Invalid
from tests.factories import EntryFactory, EventFactory, TournamentFactory
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.events import event_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    clear_caches()
    yield
    clear_caches()


def test_the_event_page_shows_the_draw_as_soon_as_it_is_made(
    client, django_capture_on_commit_callbacks
):
    tournament = TournamentFactory(slug="spring")
    event = EventFactory(tournament=tournament, slug="main", name="Main")
    entries = [EntryFactory(event=event, player__name=f"Drawn Player {i}") for i in range(6)]
    url = f"/t/{tournament.slug}/{event.slug}/"
    before = client.get(url)
    assert before.status_code == 200
    assert "Drawn Player 3" not in before.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        draw_make(event=event, method="random", seed=7)

    after = client.get(url).content.decode()
    assert all(e.player.name in after for e in entries)


def test_a_new_event_appears_on_the_cached_tournament_page(
    client, django_capture_on_commit_callbacks
):
    tournament = TournamentFactory(slug="autumn")
    assert "Side Swiss" not in client.get(f"/t/{tournament.slug}/").content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        event_create(tournament=tournament, name="Side Swiss", format="swiss", match_lengths=[5])

    assert "Side Swiss" in client.get(f"/t/{tournament.slug}/").content.decode()


@pytest.mark.parametrize("slug", ["scoreboard", "print"])
def test_an_event_cannot_take_the_slug_of_a_tournament_page(slug):
    tournament = TournamentFactory()
    with pytest.raises(Invalid) as err:
        event_create(tournament=tournament, name="Odd", slug=slug, match_lengths=[5])
    assert "names a page" in str(err.value)
    event = event_create(tournament=tournament, name=slug.title(), match_lengths=[5])
    assert event.slug != slug


def test_new_match_lengths_from_the_api_show_on_the_cached_pages(
    client, django_capture_on_commit_callbacks
):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    tournament = TournamentFactory(slug="winter")
    event = EventFactory(tournament=tournament, slug="main", name="Main", match_lengths=[5])
    pages = [f"/t/{tournament.slug}/", f"/t/{tournament.slug}/{event.slug}/"]
    assert all("11, 13" not in client.get(url).content.decode() for url in pages)
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=tournament.directors.first())
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    with django_capture_on_commit_callbacks(execute=True):
        answer = api.patch(f"/api/events/{event.pk}/", {"match_lengths": [11, 13]}, format="json")

    assert answer.status_code == 200, answer.content
    assert all("11, 13" in client.get(url).content.decode() for url in pages)
