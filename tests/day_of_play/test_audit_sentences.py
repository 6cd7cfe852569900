"""The audit of a match's reports reads as sentences with the players' names: no raw
payload dicts with player ids, no error codes."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.access import Actor
from matches.errors import REFUSALS
from matches.models import Match
from matches.services.reporting import GameInput, game_report
from tests.browser.scenario import META, report_game
from tests.console.test_player_links import make_weekend
from tournament.services.results import match_award
from tournament.services.rounds import round_start

pytestmark = pytest.mark.django_db


def test_the_audit_says_each_report_in_words(client: Client) -> None:
    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    match = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot").first()
    one, two = match.entry1, match.entry2
    report_game(match, winner_side=1, cube=2)
    with pytest.raises(REFUSALS):
        game_report(
            match_id=match.pk,
            actor=Actor(entry=two),
            game=GameInput(winner=two.player_id, cube=3, result="single", game_number=2),
            meta=META,
        )
    match_award(decision="walkover", match=match, winner=two, reason="no show")
    from tournament.services.results import match_reopen_decision

    match_reopen_decision(match=match, reason="arrived late", by=weekend.director)
    client.force_login(weekend.director)
    page = client.get(f"/director/matches/{match.pk}/audit/").content.decode()
    table = page.split('<table class="audit">')[1].split("</table>")[0]
    assert f"{one.player.name} won a single game, cube 2." in table
    assert f"Game 2: {two.player.name} won a single game, cube 3." in table  # the refused one
    assert f"Walkover to {two.player.name} (\u201cno show\u201d)." in table
    assert (
        f"Reopened the walkover, which {two.player.name} had won: the match is to be "
        "played (\u201carrived late\u201d)." in table
    )
    assert "<strong>Rejected</strong>:" in table
    assert "{&#x27;" not in table  # no raw payload dicts
    assert "<code>" not in table  # no error codes
    assert f"&#x27;winner&#x27;: {one.player_id}" not in table
