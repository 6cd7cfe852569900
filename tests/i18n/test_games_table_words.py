"""The games table on a player's private page tells a double's answer in the reader's
language: "doblede, droppet", not the stored "drop"."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.access import Actor
from matches.services.reporting import DoubleInput, GameInput, game_report
from tests.browser.scenario import META
from tests.matches.test_api import make_bracket

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "doubled", "dropped"),
    [("en", "doubled, dropped", ", drop)"), ("da", "doblede, droppet", ", drop)")],
)
def test_a_dropped_double_is_told_in_the_page_language(
    language: str, doubled: str, dropped: str
) -> None:
    match = make_bracket(length=5).first
    anna, bert = match.entry1, match.entry2
    game_report(
        match_id=match.pk,
        actor=Actor(entry=anna),
        game=GameInput(
            winner=anna.player_id,
            cube=1,
            ended_by="drop",
            doubles=(DoubleInput(by=anna.player_id, turn=2, response="drop"),),
        ),
        meta=META,
    )
    page = Client().get(
        f"/r/{bert.report_key}/?match={match.pk}", headers={"accept-language": language}
    )
    html = page.content.decode()
    assert f"{anna.player.name} {doubled}" in html
    assert dropped not in html
