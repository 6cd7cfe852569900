"""Each public page costs the same number of SQL queries for 64 players as for 1,024."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.factories import EventFactory
from tests.public.builders import elimination, finish_many, play_game, rating_history
from tournament.models import Entry, Event, Round
from tournament.pages.caching import clear_caches

pytestmark = pytest.mark.django_db

#: Upper bounds per page, uncached, anonymous visitor.
# The tournament, event, match and player pages each read GNU Backgammon's analyses
# (the PR table, the match's analysis, the player's PR history): one query more each.
# Pages under /t/<slug>/ read the tournament's language once a minute when the visitor's
# browser asks for none of the site's languages (as the test client's does): one more.
BOUNDS = {
    "home": 1,
    "tournament": 7,  # + the tournament's language (i18n)
    "event": 15,  # + the forbidden pairs (the "kept apart in round 1" note), + the language
    "consolation": 10,
    "print": 14,  # + the forbidden pairs, + the language
    "slips": 5,
    "match": 4,
    "player": 5,
    "scoreboard": 3,
    "search": 3,
    "players": 3,
    "swiss": 13,  # + the pairing log, + the language
}


def _weekend(count: int) -> dict[str, str]:
    """A Main of ``count`` with round 1 half played, its Consolation, a Swiss: page URLs."""
    main = elimination(count, name="Main", slug="main")
    t = main.tournament
    r1 = list(
        Match.objects.filter(event=main, round__number=1)
        .select_related("round", "entry1__player", "entry2")
        .order_by("slot")
    )
    finish_many(r1[: len(r1) // 2], winner_side=2)
    losers = [match.entry1.player for match in r1[: len(r1) // 2]]
    play_game(r1[-1], winner_side=1, cube=2)
    elimination(
        len(losers),
        tournament=t,
        name="Consolation",
        slug="consolation",
        kind=Event.Kind.CONSOLATION,
        feeds_from=main,
        people=losers,
        lengths=[5],
    )
    player = r1[0].entry2.player
    rating_history(player, r1[:1] * 1)
    swiss = EventFactory(tournament=t, format=Event.Format.SWISS, name="Swiss", slug="swiss")
    entries = Entry.objects.bulk_create(
        Entry(event=swiss, player=m.entry1.player, seed=i) for i, m in enumerate(r1, start=1)
    )
    rnd = Round.objects.create(event=swiss, number=1, match_length=3, status="started")
    pairs = list(zip(entries[::2], entries[1::2], strict=False))
    Match.objects.bulk_create(
        Match(event=swiss, round=rnd, slot=k, entry1=a, entry2=b, length=3, status="ready")
        for k, (a, b) in enumerate(pairs)
    )
    for match in Match.objects.filter(event=swiss)[: len(pairs) // 2]:
        match.winner, match.status, match.score1 = match.entry1, "complete", 3
        match.save()
    base = f"/t/{t.slug}"
    return {
        "home": "/",
        "tournament": f"{base}/",
        "event": f"{base}/main/",
        "consolation": f"{base}/consolation/",
        "print": f"{base}/main/print/",
        "slips": f"{base}/main/slips/",
        "match": f"/matches/{r1[-1].pk}/",
        "player": f"/players/{player.pk}/",
        "scoreboard": f"{base}/scoreboard/",
        "search": f"{base}/players/?q=Main+00",
        "players": f"{base}/players/",
        "swiss": f"{base}/swiss/",
    }


def test_queries_do_not_grow_with_the_field(client, django_assert_max_num_queries):
    small = _weekend(64)
    large = _weekend(1024)
    for page, bound in BOUNDS.items():
        counts = []
        for urls in (small, large):
            clear_caches()
            with django_assert_max_num_queries(bound) as queries:
                assert client.get(urls[page]).status_code == 200
            counts.append(len(queries.captured_queries))
        assert counts[0] == counts[1], page


def test_cached_pages_cost_no_query(client, django_assert_num_queries):
    urls = _weekend(64)
    for url in urls.values():
        client.get(url)
    for page, url in urls.items():
        with django_assert_num_queries(0):
            assert client.get(url).status_code == 200, page
