"""The emails switch behind a private link is that tournament's only: the director of B,
who holds a shared player's link for B, cannot silence A's notices to them; and the
switch's page shows the address B writes to, never the player's own email when B has a
contact of its own."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from tests.factories import (
    EntryFactory,
    EventFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
)
from tournament.models import PlayerLink
from tournament.pages.caching import clear_caches
from tournament.services import player_links
from tournament.tasks.notifications import notify_match_ready

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tasks_run_here() -> Any:
    from tournament.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


def _turn(key: str, choice: str) -> Any:
    client = Client()
    return client.post(f"/r/{key}/emails/", {"notify": choice})


def test_turning_one_tournaments_emails_off_leaves_the_others_on() -> None:
    sue = PlayerFactory(name="Shared Sue", email="sue@example.org")
    a_event = EventFactory(tournament=TournamentFactory(name="A Open"), name="A Main")
    b_event = EventFactory(tournament=TournamentFactory(name="B Cup"), name="B Main")
    a_entry = EntryFactory(event=a_event, player=sue)
    b_entry = EntryFactory(event=b_event, player=sue)
    other_a, other_b = EntryFactory(event=a_event), EntryFactory(event=b_event)
    b_link = player_links.player_link_ensure(tournament_id=b_event.tournament_id, player_id=sue.pk)
    player_links.player_link_ensure(tournament_id=a_event.tournament_id, player_id=sue.pk)

    # B's director, holding Sue's link for B (by its own key, or an entry's), says off.
    assert _turn(b_link.key, "off").status_code == 200
    assert _turn(b_entry.report_key, "off").status_code == 200
    assert not PlayerLink.objects.get(pk=b_link.pk).notify
    assert PlayerLink.objects.get(tournament=a_event.tournament, player=sue).notify
    sue.refresh_from_db()
    assert sue.notify

    a_match = MatchFactory(round=RoundFactory(event=a_event), entry1=a_entry, entry2=other_a)
    b_match = MatchFactory(round=RoundFactory(event=b_event), entry1=b_entry, entry2=other_b)
    mail.outbox.clear()
    notify_match_ready.run(a_match.pk)
    notify_match_ready.run(b_match.pk)
    to_sue = [m.subject for m in mail.outbox if "sue@example.org" in m.to]
    assert any("A Main" in s for s in to_sue), to_sue  # A still writes to her
    assert not any("B Main" in s for s in to_sue), to_sue  # B does not
    # A's link emails too; B's say opted out.
    assert player_links.player_links_email(tournament=a_event.tournament).queued >= 1
    assert player_links.player_links_email(tournament=b_event.tournament).opted_out == 1
    assert player_links.player_link_email(link=PlayerLink.objects.get(pk=b_link.pk)) == "opted-out"

    # Back on, through B's link: B's notices again.
    assert _turn(b_link.key, "on").status_code == 200
    mail.outbox.clear()
    clear_caches()  # the notice for this match was remembered as sent
    notify_match_ready.run(b_match.pk)
    assert any("sue@example.org" in m.to for m in mail.outbox)


def test_the_emails_page_shows_this_tournaments_contact_not_the_players_own_email() -> None:
    sue = PlayerFactory(name="Shared Sue", email="sue.private@example.org")
    b_event = EventFactory(tournament=TournamentFactory(name="B Cup"))
    EntryFactory(event=b_event, player=sue)
    link = player_links.player_link_ensure(tournament_id=b_event.tournament_id, player_id=sue.pk)
    PlayerLink.objects.filter(pk=link.pk).update(email="sue.at.b@example.org")
    page = Client().get(f"/r/{link.key}/emails/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "sue.at.b@example.org" in html
    assert "sue.private@example.org" not in html
    assert "B Cup" in html
    # Without a contact of B's own, the player's own address shows only as a hint.
    PlayerLink.objects.filter(pk=link.pk).update(email="")
    html = Client().get(f"/r/{link.key}/emails/").content.decode()
    assert "sue.private@example.org" not in html
    assert "s…@example.org" in html


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_a_players_no_in_each_of_their_tournaments() -> None:
    """A player who had said no (``Player.notify``) keeps no in every tournament they are
    in, and can say yes again in one of them: the global switch is back on."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournament", "0007_merge")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament = old.get_model("tournament", "Tournament").objects.create(name="T", slug="t-n")
    player = old.get_model("tournament", "Player").objects.create(name="Quiet Q", notify=False)
    loud = old.get_model("tournament", "Player").objects.create(name="Loud L")
    links = old.get_model("tournament", "PlayerLink").objects
    links.create(tournament=tournament, player=player, key="quietkey0000000000000000")
    links.create(tournament=tournament, player=loud, key="loudkey00000000000000000")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    from tournament.models import Player

    assert not PlayerLink.objects.get(player_id=player.pk).notify
    assert PlayerLink.objects.get(player_id=loud.pk).notify
    assert Player.objects.get(pk=player.pk).notify
