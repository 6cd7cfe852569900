"""What players and spectators read about a match: the upload error in plain words, the
doubles of games reported without their detail, a score-only or walkover match, a bye
and "you" in the player's own list of played matches, the grid card of a score-only
result."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from matches.models import Game, Match
from tests.browser.scenario import report_game
from tests.console.test_player_links import make_weekend
from tests.factories import PlayerFactory
from tests.matches.conftest import make_table
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.results import match_award, match_final_score_enter
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "reporting"


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


def test_the_upload_error_for_other_names_is_in_plain_words(client: Client) -> None:
    t = make_table(
        round__event__match_lengths=[25],
        entry1__player=PlayerFactory(name="Carla Silva"),
        entry2__player=PlayerFactory(name="Dmitri Novak"),
    )
    with (DATA / "anna_bert_25pt.mat").open("rb") as f:
        page = client.post(
            f"/r/{t.match.entry1.report_key}/matches/{t.match.pk}/record/", {"file": f}
        )
    text = page.content.decode()
    assert page.status_code == 400
    assert "The names in the file (Anna Kowalska and Bert van Dijk)" in text
    assert "Say which of the two is Anna Kowalska in the file" in text
    assert "first_is" not in text.split("<form")[0]  # the message, not the form's field
    assert "swap" not in text.lower()


def _played_weekend():
    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    return weekend, Match.objects.filter(event=weekend.main, round__number=1).order_by("slot")


def test_doubles_of_games_reported_without_their_detail(client: Client) -> None:
    _, matches = _played_weekend()
    match = matches[0]
    report_game(match, winner_side=1, cube=2)  # the scenario's report names the doubler
    Game.objects.create(  # as a director's game-by-game entry stores them: no detail
        match=match,
        number=2,
        winner_side=2,
        cube=2,
        points=2,
        score_before1=2,
        score_before2=0,
        doubles=[],
    )
    Game.objects.create(
        match=match,
        number=3,
        winner_side=1,
        cube=1,
        ended_by="drop",
        points=1,
        score_before1=2,
        score_before2=2,
        doubles=[],
    )
    Game.objects.create(
        match=match,
        number=4,
        winner_side=1,
        cube=1,
        points=1,
        score_before1=3,
        score_before2=2,
        doubles=[],
    )
    page = client.get(f"/matches/{match.pk}/").content.decode()
    rows = page.split('<table class="games')[1].split("</table>")[0].split("<tr")[2:]
    assert "doubled at roll 3, taken" in rows[0]
    assert "cube at 2 (who doubled was not reported)" in rows[1]
    assert "doubled to 2, dropped" in rows[2]
    assert ">none<" in rows[3]  # a game with the cube at 1, played out: no double
    assert all(">none<" not in r for r in rows[:3])


def test_a_score_only_match_and_a_walkover_say_how_they_were_decided(client: Client) -> None:
    weekend, matches = _played_weekend()
    first, second = matches[0], matches[1]
    match_final_score_enter(match=first, score1=3, score2=1, by=weekend.director)
    match_award(decision="walkover", match=second, winner=second.entry2)
    page = client.get(f"/matches/{first.pk}/").content.decode()
    assert "No game reported yet." not in page
    assert "The director entered the final score, 3&ndash;1, without the games." in page
    page = client.get(f"/matches/{second.pk}/").content.decode()
    assert "Decided by walkover: no game was played." in page
    client.force_login(weekend.director)
    grid = client.get("/director/t/links/events/main/matches/").content.decode()
    card = grid.split(f"/matches/{first.pk}/")[1].split("</li>")[0]
    assert "final score entered" in card
    assert "Score only ·" not in grid
    assert "walkover</span>" in grid.split(f"/matches/{second.pk}/")[1].split("</li>")[0]


def test_the_played_list_shows_a_bye_as_a_bye_and_you_as_you(client: Client) -> None:
    director = make_weekend().director
    t = tournament_create(name="Odd Open", slug="odd", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    players = [player_create(name=f"Odd {i}") for i in range(3)]
    for p in players:
        entry_register(event=main, player=p)
    draw_make(event=main, method="rating", by=director)
    bye = Match.objects.get(event=main, round__number=1, is_bye=True)
    lucky = bye.entry1 or bye.entry2
    page = client.get(f"/r/{lucky.report_key}/", follow=True).content.decode()
    played = page.split('id="done-h"')[1].split("</section>")[0]
    assert "a bye, through to the next round without playing" in played
    assert "0 \u2013 0" not in played
    round_start(round_=main.rounds.get(number=1))
    match = Match.objects.get(event=main, round__number=1, is_bye=False)
    match_final_score_enter(match=match, score1=3, score2=1, by=director)
    page = client.get(f"/r/{match.entry1.report_key}/", follow=True).content.decode()
    played = page.split('id="done-h"')[1].split("</section>")[0]
    assert f"you 3 \u2013 1 {match.entry2.player.name}" in played
    assert "(final score entered)" in played
