"""A private tournament's live fragments answer a stranger exactly like missing pages.

The attack: poll ``/matches/<id>/live/?v=N`` (or an event's, the scoreboard's, the room
board's) with N = 1..40. The version is a small counter; a 204 for one N and 404 for the
others told that the private match existed and when it was played. Visibility is now
checked before the version: 404 for every N, as for an id that does not exist."""

from __future__ import annotations

import re
import time

import pytest
import time_machine
from django.test import Client

from matches.models import Match
from tests.factories import TournamentFactory, UserFactory
from tests.public.builders import elimination
from tournament.pages.caching import clear_caches

pytestmark = pytest.mark.django_db

TRIES = range(41)


@pytest.fixture(autouse=True)
def _empty_cache():
    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def private():
    director = UserFactory()
    main = elimination(4, tournament=TournamentFactory(is_public=False, director=director))
    match = Match.objects.filter(event=main).order_by("pk").first()
    return main, match, director


def _urls(main, match) -> list[str]:
    slug = main.tournament.slug
    return [
        f"/matches/{match.pk}/live/",
        f"/t/{slug}/{main.slug}/live/",
        f"/t/{slug}/scoreboard/live/",
        f"/t/{slug}/board/live/",
    ]


def _versions_seen_by(director, url: str) -> str:
    """The version the director's own page shows (warms the caches as the red team did)."""
    client = Client()
    client.force_login(director)
    html = client.get(url).content.decode()
    found = re.search(r'data-version="([\d.-]+)"', html)
    assert found, html[:500]
    return found.group(1)


def _answers(client: Client, url: str, versions: list[str]) -> set[int]:
    return {client.get(f"{url}?v={v}").status_code for v in versions}


#: A still clock: the room board's version carries the minute, so a test that crossed a
#: minute would see its own director's version go stale (200, the new minute's board).
STILL = "2030-01-01 12:00:05"


@time_machine.travel(STILL, tick=False)
def test_every_version_of_a_private_live_fragment_is_404_to_a_stranger(private):
    main, match, director = private
    bucket = int(time.time() // 60)
    for url in _urls(main, match):
        real = _versions_seen_by(director, url)
        tries = [str(n) for n in TRIES] + [f"{n}-{n}" for n in TRIES]
        tries += [f"{n}.{bucket}" for n in TRIES] + [real, ""]
        stranger = Client()
        assert _answers(stranger, url, tries) == {404}, url
        other_director = Client()
        other_director.force_login(UserFactory())
        assert _answers(other_director, url, [real]) == {404}, url
        # its own director still polls cheaply: 204 on the version it has
        own = Client()
        own.force_login(director)
        assert own.get(f"{url}?v={real}").status_code == 204, url


#: The language switcher sends the visitor back to the address they asked for: each
#: answer echoes its own request's path there, and nothing else of it.
_BACK_TO = re.compile(rb'name="next" value="[^"]*"')


def _same(one, other) -> None:
    def seen(response):
        return response.status_code, _BACK_TO.sub(b'name="next"', response.content)

    assert seen(one) == seen(other)


def test_a_hidden_match_or_event_answers_like_a_missing_one(private):
    main, match, _ = private
    slug = main.tournament.slug
    stranger = Client()
    missing = Match.objects.order_by("-pk").first().pk + 1000
    for n in TRIES:
        _same(
            stranger.get(f"/matches/{match.pk}/live/?v={n}"),
            stranger.get(f"/matches/{missing}/live/?v={n}"),
        )
        _same(
            stranger.get(f"/t/{slug}/{main.slug}/live/?v={n}"),
            stranger.get(f"/t/{slug}/nope/live/?v={n}"),
        )
    _same(stranger.get(f"/matches/{match.pk}/"), stranger.get(f"/matches/{missing}/"))
    _same(stranger.get(f"/t/{slug}/{main.slug}/"), stranger.get("/t/nope/nope/"))
    _same(stranger.get(f"/t/{slug}/"), stranger.get("/t/nope/"))
    _same(
        stranger.get(f"/t/{slug}/scoreboard/live/?v=1"),
        stranger.get("/t/nope/scoreboard/live/?v=1"),
    )
    _same(stranger.get(f"/t/{slug}/board/?event=zz"), stranger.get("/t/nope/board/?event=zz"))


def test_the_room_board_is_whole_again_each_new_minute(private):
    """A poller up to date gets 204 within the minute and the whole board the next one:
    results age off the board even when nothing else happens."""
    main, _, director = private
    url = f"/t/{main.tournament.slug}/board/live/"
    own = Client()
    with time_machine.travel(STILL, tick=False):
        own.force_login(director)
        version = _versions_seen_by(director, url)
        assert own.get(f"{url}?v={version}").status_code == 204
    with time_machine.travel("2030-01-01 12:01:05", tick=False):
        fresh = own.get(f"{url}?v={version}")
        assert fresh.status_code == 200
        assert _versions_seen_by(director, url) != version
