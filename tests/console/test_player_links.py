"""Players' private links: one per player for the whole tournament, in the console
(page, QR code, print, email, regenerate), on the director's slips and in the API."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.db.models import Q
from django.test import Client

from matches.models import Match
from tests.browser.scenario import decide
from tests.factories import UserFactory
from tournament.models import Entry, Event, PlayerLink, Tournament, User
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@dataclass
class Weekend:
    tournament: Tournament
    director: User
    main: Event
    consolation: Event


def make_weekend(players: int = 8, *, start_matches: str = "by-round") -> Weekend:
    """A Main of ``players`` (3 points) whose round-1 losers feed a Consolation, drawn."""
    director = UserFactory(username="td")
    t = tournament_create(name="Links Open", slug="links", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    consolation = event_create(
        tournament=t,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
        slug="consolation",
    )
    for event in (main, consolation):
        Event.objects.filter(pk=event.pk).update(start_matches=start_matches)
    for i in range(players):
        player = player_create(
            name=f"Player {i + 1}", email=f"p{i + 1}@example.org" if i else "", rating=1500 + i
        )
        entry_register(event=main, player=player)
    main.refresh_from_db()
    draw_make(event=main, method="rating", by=director)
    return Weekend(t, director, main, consolation)


def console_links(client: Client, slug: str) -> dict[str, str]:
    """Player name -> private address, read from the console's player-links page."""
    body = client.get(f"/director/t/{slug}/player-links/").content.decode()
    return {
        name: url
        for url, name in re.findall(r'<a href="(http[^"]+/r/[^"]+/)" data-player="([^"]+)"', body)
    }


@pytest.fixture
def weekend(db: None) -> Weekend:
    return make_weekend()


@pytest.fixture
def director(client: Client, weekend: Weekend) -> Client:
    client.force_login(weekend.director)
    return client


def test_the_console_lists_every_players_link_with_a_qr_code(
    director: Client, weekend: Weekend
) -> None:
    page = director.get("/director/t/links/player-links/")
    assert page.status_code == 200
    body = page.content.decode()
    links = console_links(director, "links")
    assert len(links) == 8
    for link in PlayerLink.objects.filter(tournament=weekend.tournament).select_related("player"):
        assert links[link.player.name].endswith(f"/r/{link.key}/")
    assert body.count('<svg width="') >= 8
    assert 'class="qr"' in body
    assert "Email every player their link" in body
    assert "data-print>Print all cards" in body  # a static script opens the dialog (CSP)
    assert "/static/js/print-button.js" in body
    assert "onclick" not in body
    # The tournament page leads there.
    assert "/director/t/links/player-links/" in director.get("/director/t/links/").content.decode()


def test_only_the_tournaments_directors_see_the_links(client: Client, weekend: Weekend) -> None:
    assert client.get("/director/t/links/player-links/").status_code == 302  # log in first
    client.force_login(UserFactory())
    assert client.get("/director/t/links/player-links/").status_code == 404
    for entry in Entry.objects.all():
        assert entry.report_key not in client.get("/t/links/main/slips/").content.decode()


def test_one_link_shows_the_consolation_match_after_a_main_loss(
    director: Client, weekend: Weekend, django_capture_on_commit_callbacks
) -> None:
    links = console_links(director, "links")
    round_start(round_=weekend.main.rounds.get(number=1))
    first = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot").first()
    loser = first.entry2.player
    url = links[loser.name]
    player = Client()
    before = player.get(url).content.decode()
    assert "Main, Quarter-final: your next match" in before
    assert "Report game 1" in before
    with django_capture_on_commit_callbacks(execute=True):
        decide(first, 1, seed=1, director=weekend.director)
    page = player.get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert "Consolation" in body
    assert "Coming up" in body
    # The other round-1 matches end; the Consolation round starts: the same link
    # reports the Consolation match.
    with django_capture_on_commit_callbacks(execute=True):
        for i, match in enumerate(
            Match.objects.filter(event=weekend.main, round__number=1).order_by("slot")[1:]
        ):
            decide(match, 1, seed=2 + i, director=weekend.director)
    round_start(round_=weekend.consolation.rounds.get(number=1, bracket="main"))
    cons = Match.objects.get(
        Q(entry1__player=loser) | Q(entry2__player=loser),
        event=weekend.consolation,
        status=Match.Status.READY,
    )
    body = player.get(url).content.decode()
    assert "Report game 1" in body
    assert "Consolation" in body
    side = 1 if cons.entry1.player_id == loser.pk else 2
    path = url.split("://", 1)[1].split("/", 1)[1]
    posted = player.post(
        f"/{path}matches/{cons.pk}/game/",
        {"game_number": 1, "winner": loser.pk, "cube": 1, "result": "single", "ended_by": "play"},
    )
    assert posted.status_code == 302, posted.content.decode()[:500]
    cons.refresh_from_db()
    assert cons.games.count() == 1
    assert (cons.score1, cons.score2)[side - 1] == 1


def test_an_entry_key_still_opens_the_players_page(director: Client, weekend: Weekend) -> None:
    entry = Entry.objects.filter(event=weekend.main).order_by("pk").last()
    link = PlayerLink.objects.get(tournament=weekend.tournament, player=entry.player)
    assert link.key == entry.report_key  # the first entry's key is kept
    entry.report_key = "older-entry-key-0123456789"
    entry.save()
    response = Client().get("/r/older-entry-key-0123456789/")
    assert response.status_code == 302
    assert response["Location"] == f"/r/{link.key}/"


def test_regenerating_a_leaked_link_kills_the_old_one(director: Client, weekend: Weekend) -> None:
    link = PlayerLink.objects.filter(tournament=weekend.tournament).first()
    old = link.key
    confirm = director.get(f"/director/t/links/player-links/{link.player_id}/regenerate/")
    assert confirm.status_code == 200
    assert "Yes, replace the link" in confirm.content.decode()
    link.refresh_from_db()
    assert link.key == old  # asking is not doing
    done = director.post(f"/director/t/links/player-links/{link.player_id}/regenerate/")
    assert done.status_code == 302
    link.refresh_from_db()
    assert link.key != old
    assert link.regenerated_by == weekend.director
    assert link.regenerated_at is not None
    assert Client().get(f"/r/{old}/").status_code == 404
    assert Client().get(f"/r/{link.key}/").status_code == 200
    # No entry key of the player opens the page either.
    for key in Entry.objects.filter(player=link.player).values_list("report_key", flat=True):
        assert key != old
    page = director.get("/director/t/links/player-links/").content.decode()
    assert f"/r/{link.key}/" in page
    assert f"/r/{old}/" not in page
    assert "replaced" in page
    assert "by td" in page


def test_email_all_queues_each_link_and_tells_the_counts(
    director: Client, weekend: Weekend, mailoutbox: list, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = director.post("/director/t/links/player-links/email/", follow=True)
    body = response.content.decode()
    assert "7 link emails queued." in body
    assert "1 player has no email address" in body
    assert len(mailoutbox) == 7
    link = PlayerLink.objects.get(tournament=weekend.tournament, player__email="p2@example.org")
    mail = next(m for m in mailoutbox if m.to == ["p2@example.org"])
    assert f"/r/{link.key}/" in mail.body
    assert "Links Open" in mail.subject
    with django_capture_on_commit_callbacks(execute=True):
        director.post("/director/t/links/player-links/email/")
    assert len(mailoutbox) == 7  # sent once per key


def test_by_round_a_drawn_match_waits_on_the_link_until_the_director_starts_it(
    director: Client, weekend: Weekend
) -> None:
    """By round: the draw opens nothing; the player's link shows the match to come, with
    no form to report it, until the director starts the round."""
    links = console_links(director, "links")
    first = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot").first()
    url = links[first.entry1.player.name]
    before = Client().get(url).content.decode()
    assert (
        f"Main, Quarter-final (3 points): v {first.entry2.player.name}, "
        "when the director starts the round"
    ) in before
    assert "Report game 1" not in before
    assert "<form" not in before.split("<main", 1)[1]
    round_start(round_=weekend.main.rounds.get(number=1))
    after = Client().get(url).content.decode()
    assert "Main, Quarter-final: your next match" in after
    assert "Report game 1" in after


def test_slips_carry_the_links_for_directors_only(
    client: Client, director: Client, weekend: Weekend
) -> None:
    round_start(round_=weekend.main.rounds.get(number=1))
    keys = list(
        PlayerLink.objects.filter(tournament=weekend.tournament).values_list("key", flat=True)
    )
    theirs = director.get("/t/links/main/slips/")
    body = theirs.content.decode()
    assert theirs.status_code == 200
    assert all(f"/r/{key}/" in body for key in keys)
    assert body.count('class="slip-qr"') == 8
    assert "no-store" in theirs["Cache-Control"]
    public = Client().get("/t/links/main/slips/").content.decode()
    assert "slip-qr" not in public
    assert not any(key in public for key in keys)


def test_the_data_migration_keeps_each_players_first_entry_key(weekend: Weekend) -> None:
    from importlib import import_module

    from django.apps import apps

    migration = import_module("tournament.migrations.0002_player_link_and_start_matches")
    round_start(round_=weekend.main.rounds.get(number=1))
    # A player in two events of the tournament, as before the links existed.
    player = Entry.objects.filter(event=weekend.main).order_by("pk").first().player
    side = event_create(tournament=weekend.tournament, name="Side", slug="side")
    entry_register(event=side, player=player)
    first_keys = {
        e.player_id: e.report_key
        for e in Entry.objects.filter(event__tournament=weekend.tournament).order_by("-pk")
    }
    PlayerLink.objects.all().delete()
    migration.links_from_entries(apps, None)
    links = dict(PlayerLink.objects.values_list("player_id", "key"))
    assert links == first_keys
    assert Client().get(f"/r/{first_keys[player.pk]}/").status_code == 200


def _qr_path(svg: str) -> str:
    """The modules of a QR code's ``<svg>``: segno draws them as one path."""
    found = re.findall(r'<path[^>]* d="([^"]+)"', svg)
    assert len(found) == 1, svg[:300]
    return found[0]


def test_each_qr_code_encodes_its_players_link(director: Client, weekend: Weekend) -> None:
    """The QR code on a card is the code of the address printed beside it: the same
    modules as segno draws for that address (error correction M, as on the page), and
    not those of another player's address."""
    import segno

    body = director.get("/director/t/links/player-links/").content.decode()
    links = console_links(director, "links")
    cards = dict(
        re.findall(
            r'<li class="link-card" id="player-(\d+)">\s*<div class="link-qr">(.*?)</div>',
            body,
            re.S,
        )
    )
    assert len(cards) == 8
    expected = {
        url: _qr_path(segno.make(url, error="m", micro=False).svg_inline(scale=3))
        for url in links.values()
    }
    assert len(set(expected.values())) == 8
    for link in PlayerLink.objects.filter(tournament=weekend.tournament).select_related("player"):
        url = links[link.player.name]
        assert url == f"http://testserver/r/{link.key}/"
        assert _qr_path(cards[str(link.player_id)]) == expected[url], link.player.name


def test_email_all_after_a_new_link_sends_the_new_one(
    director: Client, weekend: Weekend, mailoutbox: list, django_capture_on_commit_callbacks
) -> None:
    """A link replaced after "Email all" is mailed again by the next "Email all" (its key is
    new), and only it: the others were sent already."""
    with django_capture_on_commit_callbacks(execute=True):
        director.post("/director/t/links/player-links/email/")
    assert len(mailoutbox) == 7
    link = PlayerLink.objects.get(tournament=weekend.tournament, player__email="p2@example.org")
    old = link.key
    director.post(f"/director/t/links/player-links/{link.player_id}/regenerate/")
    link.refresh_from_db()
    assert link.key != old
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        director.post("/director/t/links/player-links/email/")
    assert [m.to for m in mailoutbox] == [["p2@example.org"]]
    assert f"/r/{link.key}/" in mailoutbox[0].body
    assert f"/r/{old}/" not in mailoutbox[0].body
