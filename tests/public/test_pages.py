"""Public pages: what they show, who may see them, and that they are served from the cache."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from matches.game_moves import encode_moves
from matches.models import Match
from matches.rules.record import Double, RollPlay, Take, Win
from tests.factories import EventFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.public.builders import elimination, finish, play_game, rating_history
from tournament import page_cache
from tournament.models import Event
from tournament.pages.caching import clear_caches

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    clear_caches()
    yield
    clear_caches()


def _text(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", html)))


def _match(event: Event, round_number: int, slot: int) -> Match:
    return Match.objects.get(event=event, round__number=round_number, slot=slot)


def test_home_lists_public_tournaments_only(client):
    TournamentFactory(name="Nordic Open", slug="nordic")
    TournamentFactory(name="Secret Cup", slug="secret", is_public=False)
    response = client.get("/")
    assert response.status_code == 200
    assert "Nordic Open" in _text(response)
    assert "Secret Cup" not in _text(response)
    assert 'href="/t/nordic/"' in response.content.decode()


def test_tournament_page_shows_events_schedule_and_live_matches(client):
    main = elimination(8, lengths=[5])
    match = _match(main, 1, 0)
    play_game(match, winner_side=2, cube=2)
    response = client.get(f"/t/{main.tournament.slug}/")
    text = _text(response)
    assert response.status_code == 200
    assert "Main" in text
    assert "Single elimination" in text
    assert "Live now" in text
    assert f"{match.entry1.player.name} 0\u20132 {match.entry2.player.name}" in text
    assert "R1" in text
    assert "5 pt" in text


def test_private_tournament_is_hidden_except_from_its_directors(client):
    director = UserFactory()
    main = elimination(4, tournament=TournamentFactory(is_public=False, director=director))
    url = f"/t/{main.tournament.slug}/{main.slug}/"
    assert client.get(url).status_code == 404
    assert client.get(f"/t/{main.tournament.slug}/").status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_unknown_pages_are_404(client):
    main = elimination(4)
    assert client.get("/t/nope/").status_code == 404
    assert client.get(f"/t/{main.tournament.slug}/nope/").status_code == 404
    assert client.get("/matches/999999/").status_code == 404
    assert client.get("/players/999999/").status_code == 404
    assert client.get(f"/t/{main.tournament.slug}/{main.slug}/draws/999999/").status_code == 404


def test_bracket_shows_rounds_byes_scores_and_winners(client):
    main = elimination(6, lengths=[5, 7])
    first = _match(main, 1, 1)
    play_game(first, winner_side=1, cube=4)
    finish(first, winner_side=1)
    response = client.get(f"/t/{main.tournament.slug}/{main.slug}/")
    html = response.content.decode()
    assert response.status_code == 200
    # three columns: quarter-finals of 5 pt (two of them byes), semi-finals and the final of 7
    assert re.findall(r"</abbr> ([^<]+)</span> <span>(\d+) pt", html) == [
        ("Quarter-finals", "5"),
        ("Semi-finals", "7"),
        ("Final", "7"),
    ]
    assert html.count(">bye<") == 2  # seeds 1 and 2 have byes in a field of six
    won = re.findall(r'<p class="line won">.*?<a href="/players/\d+/">([^<]+)</a>', html)
    assert first.entry1.player.name in won
    assert "Main 0001" in won  # the top seed's bye counts as a win
    # the winner was moved into the semi-final
    semi = _match(main, 2, 0)
    assert semi.entry2 == first.entry1
    assert f'id="m{semi.pk}"' in html


def _main_with_consolation() -> tuple[Event, Event]:
    """An 8-player Main with round 1 played, its 4 losers drawn into a Consolation."""
    main = elimination(8)
    losers = []
    for slot in range(4):
        match = _match(main, 1, slot)
        finish(match, winner_side=1)
        losers.append(match.entry2.player)
    consolation = elimination(
        4,
        tournament=main.tournament,
        name="Consolation",
        slug="consolation",
        kind=Event.Kind.CONSOLATION,
        feeds_from=main,
        people=losers,
        lengths=[5],
    )
    return main, consolation


def test_main_losers_show_where_they_went(client):
    main, consolation = _main_with_consolation()
    html = client.get(f"/t/{main.tournament.slug}/{main.slug}/").content.decode()
    assert html.count("&rarr; Consolation R1") == 4
    assert f'href="/t/{main.tournament.slug}/consolation/#m' in html
    assert 'id="bracket-consolation"' in html  # drawn beside the Main
    cons_html = client.get(f"/t/{main.tournament.slug}/{consolation.slug}/").content.decode()
    assert "Losers of" in cons_html
    assert "/main/" in cons_html


def test_match_page_shows_games_cube_gammons_doubles_and_crawford(client):
    main = elimination(2, lengths=[3])
    match = _match(main, 1, 0)
    p1 = match.entry1.player
    play_game(
        match,
        winner_side=1,
        cube=2,
        doubles=[{"by": p1.pk, "turn": 4, "response": "take"}],
    )  # 2-0: player 1 is 1-away, so the next game is the Crawford game
    play_game(match, winner_side=2, result="gammon")  # Crawford game, 2-2
    play_game(
        match,
        winner_side=1,
        moves=[
            {"side": 1, "kind": "roll", "move": 1, "dice": [3, 1], "play": "8/5 6/5"},
            {"side": 2, "kind": "double", "move": 1, "value": 2},
            {"side": 1, "kind": "drop", "move": 1},
        ],
    )
    finish(match, winner_side=1)
    response = client.get(f"/matches/{match.pk}/")
    text = _text(response)
    assert response.status_code == 200
    assert f"{p1.name} doubled at roll 4, taken" in text
    assert "Gammon" in text
    assert "2 Crawford 2\u20130" in text
    assert "8/5 6/5" in text
    assert "31" in text
    assert "winner" in text


def test_match_page_gives_chances_at_the_score(client):
    main = elimination(2, lengths=[5])
    match = _match(main, 1, 0)
    play_game(match, winner_side=1, cube=4)  # 4-0 in a 5-point match: Crawford game next
    text = _text(client.get(f"/matches/{match.pk}/"))
    # Kazaross-XG2: 1-away against 5-away in the Crawford game is 84.179%
    assert "84%" in text
    assert "16%" in text
    assert "Crawford game" in text


def test_player_page_shows_matches_and_rating_chart(client):
    main = elimination(4)
    match = _match(main, 1, 0)
    finish(match, winner_side=1)
    player = match.entry1.player
    rating_history(player, [match, match.__class__.objects.get(pk=_match(main, 1, 1).pk)])
    response = client.get(f"/players/{player.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in html
    assert "<polyline" in html
    assert html.count('class="dot"') == 3  # the start and two rated matches
    assert match.entry2.player.name in html
    assert "won" in _text(response)


def test_player_page_without_history(client):
    player = PlayerFactory()
    response = client.get(f"/players/{player.pk}/")
    assert response.status_code == 200
    assert "No rated match yet" in _text(response)


def test_draw_log_page(client):
    main = elimination(4)
    draw = main.draws.get()
    text = _text(client.get(f"/t/{main.tournament.slug}/{main.slug}/draws/{draw.pk}/"))
    assert "20260321" in text
    assert "random" in text
    assert "Main 0004" in text


def test_scoreboard_lists_running_matches_with_chances(client):
    main = elimination(4, lengths=[7])
    match = _match(main, 1, 0)
    play_game(match, winner_side=1, cube=2)
    text = _text(client.get(f"/t/{main.tournament.slug}/scoreboard/"))
    # 5-away against 7-away at the start of a game: Kazaross-XG2 gives 62.638%
    assert "63%" in text
    assert "37%" in text
    assert match.entry1.player.name in text
    assert _match(main, 1, 1).entry1.player.name not in text  # not started: not on the board


def test_print_sheets_and_slips(client):
    main = elimination(64)
    base = f"/t/{main.tournament.slug}/{main.slug}"
    a4 = client.get(f"{base}/print/?paper=a4").content.decode()
    letter = client.get(f"{base}/print/").content.decode()
    assert "size: A4 portrait" in a4
    assert "size: A4 portrait" in letter  # A4 unless asked
    assert "size: Letter portrait" in client.get(f"{base}/print/?paper=letter").content.decode()
    # 32 first-round matches: two sheets of 16, then one with the rest
    assert a4.count('class="sheet"') == 3
    slips = client.get(f"{base}/slips/?paper=letter").content.decode()
    assert "size: Letter portrait" in slips
    assert slips.count('class="slip"') == 32
    assert "7-point match" in slips


def test_pages_are_cached_until_a_result_is_accepted(client, django_assert_num_queries):
    main = elimination(8)
    url = f"/t/{main.tournament.slug}/{main.slug}/"
    client.get(url)
    with django_assert_num_queries(0):
        assert client.get(url).status_code == 200
    match = _match(main, 1, 0)
    finish(match, winner_side=2)
    assert f'{match.entry2.player.name}</a><span class="sr-only"> (winner)' not in (
        client.get(url).content.decode()
    )  # still the cached page: nothing announced the change
    page_cache.invalidate_event(main.pk, main.tournament_id)
    assert f'{match.entry2.player.name}</a><span class="sr-only"> (winner)' in (
        client.get(url).content.decode()
    )


def test_live_fragment_is_204_until_the_version_moves(client, django_assert_num_queries):
    main = elimination(4)
    live = reverse("public-event-live", args=[main.tournament.slug, main.slug])
    html = client.get(live).content.decode()
    version = re.search(r'data-version="([\d-]+)"', html).group(1)
    with django_assert_num_queries(0):
        assert client.get(f"{live}?v={version}").status_code == 204
    page_cache.invalidate_event(main.pk)
    fresh = client.get(f"{live}?v={version}")
    assert fresh.status_code == 200
    assert f'data-version="{int(version) + 1}"' in fresh.content.decode()


def test_swiss_event_page_lists_rounds(client):
    event = EventFactory(format=Event.Format.SWISS, name="Swiss", slug="swiss")
    response = client.get(f"/t/{event.tournament.slug}/swiss/")
    assert response.status_code == 200
    assert "Standings" in _text(response)


def test_gzip_for_browsers_that_ask_and_plain_html_for_others(client):
    import gzip

    main = elimination(8)
    url = f"/t/{main.tournament.slug}/{main.slug}/"
    zipped = client.get(url, headers={"accept-encoding": "gzip, deflate, br"})
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    plain = client.get(url)
    assert not plain.has_header("Content-Encoding")
    assert gzip.decompress(zipped.content) == plain.content
    assert b"Main 0001" in plain.content


def test_logged_in_visitors_get_their_own_header_around_the_cached_page(client):
    main = elimination(8)
    url = f"/t/{main.tournament.slug}/{main.slug}/"
    anonymous = client.get(url).content.decode()
    assert "Log in" in anonymous
    client.force_login(UserFactory(username="spectator"))
    mine = client.get(url).content.decode()
    assert "Log out spectator" in mine
    assert "Log out spectator" not in client.__class__().get(url).content.decode()
    body = re.search(r'<main id="main">(.*)</main>', mine, re.S).group(1)
    assert body == re.search(r'<main id="main">(.*)</main>', anonymous, re.S).group(1)


def test_a_consolation_result_refreshes_the_main_page_beside_it(client):
    main, consolation = _main_with_consolation()
    url = f"/t/{main.tournament.slug}/{main.slug}/"
    live = reverse("public-event-live", args=[main.tournament.slug, main.slug])
    version = re.search(r'data-version="([\d-]+)"', client.get(url).content.decode()).group(1)
    cons_match = _match(consolation, 1, 0)
    play_game(cons_match, winner_side=2, cube=2)
    page_cache.invalidate_event(consolation.pk)  # what accepting the game announces
    fresh = client.get(f"{live}?v={version}")
    assert fresh.status_code == 200
    assert f'id="m{cons_match.pk}"' in fresh.content.decode()
    assert "is-live" in fresh.content.decode()


def test_double_elimination_draws_winners_losers_and_grand_final(client):
    from tournament.services.draws import draw_make
    from tournament.services.entries import entry_register
    from tournament.services.events import event_create

    t = TournamentFactory()
    event_create(tournament=t, name="Main", match_lengths=[5], slug="main")
    double = event_create(
        tournament=t, name="Double", format="double-elimination", match_lengths=[3], slug="double"
    )
    event_create(tournament=t, name="Last Chance", kind="last-chance", match_lengths=[3], slug="lc")
    for player in PlayerFactory.create_batch(8):
        entry_register(event=double, player=player)
    draw_make(event=double, method="random", seed=3)
    html = client.get(f"/t/{t.slug}/double/").content.decode()
    for title in ("Winners bracket", "Losers bracket", "Grand final"):
        assert f"<h3>{title}</h3>" in html
    assert "Loser of W R1 M1" in html  # who fills the losers bracket's empty lines
    assert "Winners bracket champion" in html
    # a Last Chance fed by no event is drawn beside the tournament's first Main only
    assert 'id="bracket-lc"' not in html
    assert 'id="bracket-lc"' in client.get(f"/t/{t.slug}/main/").content.decode()


def test_match_file_moves_shown_as_numbered_lines(client):
    main = elimination(2, lengths=[1])
    match = _match(main, 1, 0)
    play_game(
        match,
        winner_side=2,
        moves=[
            {"side": 1, "kind": "roll", "move": 1, "dice": [3, 1], "play": "8/5 6/5"},
            {"side": 2, "kind": "roll", "move": 1, "dice": [6, 4], "play": "24/18 18/14"},
            {"side": 1, "kind": "double", "move": 2, "value": 2},
            {"side": 2, "kind": "drop", "move": 2},
            {"side": 2, "kind": "win", "move": 2, "points": 1},
        ],
    )
    html = client.get(f"/matches/{match.pk}/").content.decode()
    rows = re.findall(
        r"<tr><th scope=\"row\">(\d+)</th><td>([^<]*)</td><td>([^<]*)</td></tr>", html
    )
    assert rows == [
        ("1", "31: 8/5 6/5", "64: 24/18 18/14"),
        ("2", "Doubles to 2", "Drops; Wins 1 point"),
    ]


def test_match_page_reads_the_stored_move_record_and_skips_one_it_cannot(client):
    main = elimination(2, lengths=[5])
    match = _match(main, 1, 0)
    first, second = match.entry1.player.name, match.entry2.player.name
    file_game = (
        RollPlay(0, (3, 1), "8/5 6/5", move=1),
        RollPlay(1, (6, 6), "", move=1),
        Double(0, 2, move=2),
        Take(1, move=2),
        RollPlay(0, (5, 2), "13/8 13/11", move=3),
        Win(0, 2, move=3),
    )
    # the file's first player is the match's second: their actions go in the second column
    play_game(match, winner_side=2, cube=2, moves=encode_moves(file_game, swapped=True))
    play_game(match, winner_side=1, moves=[{"side": 0, "kind": "take", "move": 1}])
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<th scope="col">{first}</th><th scope="col">{second}</th>' in html
    rows = re.findall(
        r"<tr><th scope=\"row\">(\d+)</th><td>([^<]*)</td><td>([^<]*)</td></tr>", html
    )
    assert rows == [
        ("1", "66:", "31: 8/5 6/5"),
        ("2", "Takes", "Doubles to 2"),
        ("3", "", "52: 13/8 13/11; Wins 2 points"),
    ]
    assert "Game 1 (6 actions)" in html
    assert "Game 2 (" not in html  # side 0 is no side of a stored record: nothing to show
