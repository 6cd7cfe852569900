"""Tables numbered with the draw: an event whose matches start as soon as both players
are known opens round 1 with its draw and tells the players at once; the director ticks
"Number the tables of round 1 now" and every notice, the player's page and the API name
the table."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from matches.models import Match
from tests.console.test_player_links import make_weekend

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def undrawn_event(start_matches: str):
    weekend = make_weekend(start_matches=start_matches)
    Match.objects.filter(event=weekend.main).delete()
    weekend.main.rounds.all().delete()
    weekend.main.draws.all().delete()
    type(weekend.main).objects.filter(pk=weekend.main.pk).update(status="registration")
    weekend.consolation.rounds.all().delete()
    type(weekend.main).objects.filter(pk=weekend.consolation.pk).update(status="registration")
    return weekend


@pytest.mark.parametrize("start_matches", ["auto", "by-round"])
def test_the_draw_numbers_round_1_before_anyone_is_told(
    client: Client, django_capture_on_commit_callbacks, start_matches: str
) -> None:
    weekend = undrawn_event(start_matches)
    client.force_login(weekend.director)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            "/director/t/links/events/main/draw/",
            {"method": "rating", "tables": "on"},
            follow=True,
        )
    assert "the tables of round 1 numbered" in done.content.decode()
    first = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot")
    assert [m.table for m in first] == [1, 2, 3, 4]
    if start_matches == "by-round":
        assert mail.outbox == []  # nobody is told before the round starts
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"/director/t/links/events/main/rounds/{first[0].round_id}/start/")
    told = [m for m in mail.outbox if m.subject.startswith("Your next match")]
    assert len(told) == 7  # Player 1 has no email address
    for message in told:
        table = re.search(r"table (\d+)\)$", message.subject)
        assert table is not None, message.subject
        assert f"  at table {table.group(1)}\n" in message.body
    match = first[0]
    page = client.get(f"/r/{match.entry1.report_key}/", follow=True).content.decode()
    assert "Table <strong>1</strong>" in page


def test_without_the_box_the_draw_numbers_nothing(client: Client) -> None:
    weekend = undrawn_event("auto")
    client.force_login(weekend.director)
    client.post("/director/t/links/events/main/draw/", {"method": "rating"})
    assert not Match.objects.filter(event=weekend.main, table__isnull=False).exists()
