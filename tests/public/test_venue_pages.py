"""The tournament page's recent results and player search (htmx fragment or a plain page)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches.models import Match
from tests.factories import TournamentFactory
from tests.public.builders import elimination, finish
from tournament.models import Player
from tournament.pages.caching import clear_caches

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


def test_recent_results_list_the_last_ten_completed_matches_newest_first(client):
    main = elimination(32)
    first = list(Match.objects.filter(event=main, round__number=1).order_by("slot"))
    start = timezone.now() - dt.timedelta(hours=3)
    for k, match in enumerate(first[:12]):
        finish(match, winner_side=2)
        Match.objects.filter(pk=match.pk).update(decided_at=start + dt.timedelta(minutes=k))
    html = client.get(f"/t/{main.tournament.slug}/").content.decode()
    recent = html.split('id="recent-h"')[1].split("</section>")[0]
    shown = [int(part.split("/")[0]) for part in recent.split('href="/matches/')[1:]]
    assert shown == [m.pk for m in reversed(first[2:12])]
    newest = first[11]
    assert f'{newest.entry1.player.name}</span> <strong class="score">0&ndash;' in recent


def test_recent_results_say_so_when_nothing_is_finished(client):
    main = elimination(4)
    assert (
        "No match has finished yet." in client.get(f"/t/{main.tournament.slug}/").content.decode()
    )


def test_player_search_finds_the_tournaments_players_by_name(client):
    main = elimination(8)
    t = main.tournament
    Player.objects.filter(pk=main.entries.first().player_id).update(name="Ólöf Bergström")
    elsewhere = elimination(4, tournament=TournamentFactory(), name="Other", slug="other")
    Player.objects.filter(pk=elsewhere.entries.first().player_id).update(name="Ingrid Berg")
    page = client.get(f"/t/{t.slug}/players/", {"q": "bergstr"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html
    assert 'id="player-q"' in html
    assert "Ólöf Bergström" in html
    assert f'href="/players/{main.entries.first().player_id}/"' in html
    assert "Ingrid Berg" not in html  # another tournament's player
    assert "No player of" in client.get(f"/t/{t.slug}/players/", {"q": "zzz"}).content.decode()
    assert "at least 2 letters" in client.get(f"/t/{t.slug}/players/", {"q": "b"}).content.decode()


def test_player_search_answers_htmx_with_the_results_alone(client):
    main = elimination(8)
    t = main.tournament
    fragment = client.get(f"/t/{t.slug}/players/", {"q": "Main 000"}, HTTP_HX_REQUEST="true")
    html = fragment.content.decode()
    assert html.lstrip().startswith('<div id="player-results"')
    assert html.count("<li>") == 8
    assert "HX-Request" in fragment["Vary"]
    page = client.get(f"/t/{t.slug}/")
    assert b'hx-get="/t/%s/players/"' % t.slug.encode() in page.content
    assert b'action="/t/%s/players/"' % t.slug.encode() in page.content


def test_player_search_of_a_private_tournament_is_hidden(client):
    main = elimination(4, tournament=TournamentFactory(is_public=False))
    slug = main.tournament.slug
    assert client.get(f"/t/{slug}/players/", {"q": "Main"}).status_code == 404
    hx = client.get(f"/t/{slug}/players/", {"q": "Main"}, HTTP_HX_REQUEST="true")
    assert hx.status_code == 404
