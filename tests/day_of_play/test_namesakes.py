"""Two players of the same name told apart where they meet: the report form's "Who
won?" ("you" on one's own page), the match-ready email and the player search."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from matches.models import Match
from tests.factories import UserFactory
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_namesakes_are_told_apart(client: Client, django_capture_on_commit_callbacks) -> None:
    clear_caches()
    director = UserFactory()
    t = tournament_create(name="Twin Open", slug="twin", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    north = player_create(
        name="Anna Ballard", club="Club Nord", email="north@example.org", confirm_new=True
    )
    south = player_create(
        name="Anna Ballard", club="Club Süd", email="south@example.org", confirm_new=True
    )
    for p in (north, south):
        entry_register(event=main, player=p)
    draw_make(event=main, method="rating", by=director)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_=main.rounds.get(number=1))
    match = Match.objects.get(event=main, round__number=1)
    to_north = next(m for m in mail.outbox if m.to == ["north@example.org"])
    assert "Anna Ballard (Club Nord) v Anna Ballard (Club Süd)" in to_north.body
    assert to_north.subject.startswith("Your next match: Anna Ballard (Club Süd)")
    mine = match.entry1 if match.entry1.player_id == north.pk else match.entry2
    page = client.get(f"/r/{mine.report_key}/", follow=True).content.decode()
    who = page.split("Who won?")[1].split("</fieldset>")[0]
    assert "you (Anna Ballard)" in who
    assert "Anna Ballard (Club Süd)" in who
    found = client.get("/t/twin/players/?q=Anna").content.decode()
    assert "Anna Ballard (Club Nord)</a>" in found
    assert "Anna Ballard (Club Süd)</a>" in found


def test_namesakes_are_told_apart_in_the_readers_language(client: Client) -> None:
    """On a German page "you (…)" and "No. 2" read "Sie (…)" and "Nr. 2"."""
    from django.utils import translation

    from matches.names import distinct_names

    clear_caches()
    director = UserFactory()
    t = tournament_create(name="Zwillinge", slug="zwillinge", director=director)
    main = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    twins = [player_create(name="Anna Ballard", confirm_new=True) for _ in range(2)]
    entries = [entry_register(event=main, player=p) for p in twins]
    with translation.override("de"):
        assert distinct_names(entries, me=entries[0]) == [
            "Sie (Anna Ballard)",
            "Anna Ballard (Nr. 2)",
        ]
    with translation.override("ja"):
        assert distinct_names(entries) == ["Anna Ballard (No. 1)", "Anna Ballard (No. 2)"]
        assert distinct_names(entries, me=entries[1])[1] == "あなた (Anna Ballard)"
    draw_make(event=main, method="rating", by=director)
    round_start(round_=main.rounds.get(number=1))
    match = Match.objects.get(event=main, round__number=1)
    mine = match.entry1 if match.entry1.player_id == twins[0].pk else match.entry2
    page = client.get(
        f"/r/{mine.report_key}/", follow=True, HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    who = page.split("Wer hat gewonnen?")[1].split("</fieldset>")[0]
    assert "Sie (Anna Ballard)" in who
    assert "you (" not in who
