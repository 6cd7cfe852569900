"""A player's email is unique whatever its case: checked by the services (400
``email-taken``), held by the database at the same instant (two directors giving one
address to two players), and the migration that adds the constraint settles the
duplicates an older database may hold."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction

from matches.errors import Invalid
from tests.factories import EntryFactory, PlayerFactory, UserFactory, token_client
from tournament import services
from tournament.models import Player, PlayerLink
from tournament.services import players as player_services


@pytest.mark.django_db
def test_the_database_refuses_one_address_twice_in_any_case() -> None:
    PlayerFactory(email="Ann@Example.org")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(email="ann@example.ORG")
    PlayerFactory(email="")  # no address: as many as there are
    PlayerFactory(email="")


@pytest.mark.django_db
def test_the_api_says_email_taken_in_any_case_on_create_and_on_change() -> None:
    PlayerFactory(email="ann@example.org")
    director = UserFactory()
    EntryFactory(event__tournament__director=director)
    client = token_client(director)
    made = client.post(
        "/api/players/", {"name": "Another Ann", "email": "ANN@example.org"}, format="json"
    )
    assert made.status_code == 400
    assert made.json()["code"] == "email-taken"
    mine = PlayerFactory(email="mine@example.org")
    EntryFactory(player=mine, event__tournament__director=director)
    changed = client.patch(f"/api/players/{mine.pk}/", {"email": "Ann@Example.org"}, format="json")
    assert changed.status_code == 400
    assert changed.json()["code"] == "email-taken"


@pytest.mark.django_db
def test_when_the_check_is_passed_the_constraint_still_answers_email_taken(monkeypatch) -> None:
    """As when another transaction gave the address at the same instant: the check saw
    nothing, the database refuses, and the caller gets a 400, never a 500."""
    PlayerFactory(email="ann@example.org")
    monkeypatch.setattr(player_services, "_refuse_taken_email", lambda email, player: None)
    director = UserFactory()
    EntryFactory(event__tournament__director=director)
    made = token_client(director).post(
        "/api/players/", {"name": "Another Ann", "email": "Ann@example.org"}, format="json"
    )
    assert made.status_code == 400
    assert made.json()["code"] == "email-taken"
    assert Player.objects.filter(email__iexact="ann@example.org").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_directors_giving_one_address_at_the_same_instant(monkeypatch) -> None:
    """Two transactions each check (nothing found), then each saves: one wins, the
    other is refused ``email-taken``; one player has the address."""
    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: PostgreSQL (DATABASE_URL)")
    first, second = PlayerFactory(email="a@example.org"), PlayerFactory(email="b@example.org")
    both_checked = threading.Barrier(2, timeout=20)
    real_check = player_services._refuse_taken_email

    def check_then_wait(email: str, player: Any) -> None:
        real_check(email, player)
        both_checked.wait()  # neither has saved: both saw the address free

    monkeypatch.setattr(player_services, "_refuse_taken_email", check_then_wait)
    outcomes: dict[int, str] = {}

    def give(player: Player) -> None:
        try:
            services.player_update(player=player, by=None, email="Same@Example.org")
            outcomes[player.pk] = "saved"
        except Invalid as err:
            outcomes[player.pk] = err.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=give, args=(p,)) for p in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes.values()) == ["email-taken", "saved"]
    assert Player.objects.filter(email__iexact="same@example.org").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_oldest_and_moves_the_others_address_to_their_tournaments() -> None:
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    # The state before the dedupe: the contact field, and every other branch's migrations
    # that the merge joins (their columns are in the table the old models write to).
    graph = executor.loader.graph
    merge = graph.leaf_nodes("tournament")[0]
    while len(graph.node_map[merge].parents) == 1:  # back to the merge (later migrations aside)
        merge = next(iter(graph.node_map[merge].parents)).key
    dedupe = ("tournament", "0005_tenants_player_email_dedupe")
    ahead, nodes = set(), [executor.loader.graph.node_map[dedupe]]
    while nodes:
        node = nodes.pop()
        ahead.add(node.key)
        nodes.extend(node.children)
    parents = executor.loader.graph.node_map[merge].parents
    others = sorted(parent.key for parent in parents if parent.key not in ahead)
    before = [*others, ("tournament", "0004_tenants_player_link_email")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldPlayer = old.get_model("tournament", "Player")
    OldEntry = old.get_model("tournament", "Entry")
    OldEvent = old.get_model("tournament", "Event")
    OldTournament = old.get_model("tournament", "Tournament")
    tournament = OldTournament.objects.create(name="T", slug="t-dup")
    event = OldEvent.objects.create(tournament=tournament, name="Main", slug="main")
    keeper = OldPlayer.objects.create(name="Ann One", email="Ann@example.org")
    twin = OldPlayer.objects.create(name="Ann Two", email="ann@EXAMPLE.org")
    OldEntry.objects.create(event=event, player=twin, report_key="dupkey000000000000000000")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Player.objects.get(pk=keeper.pk).email == "Ann@example.org"
    assert Player.objects.get(pk=twin.pk).email == ""
    link = PlayerLink.objects.get(tournament_id=tournament.pk, player_id=twin.pk)
    assert link.contact_email == "ann@EXAMPLE.org"  # their notices go where they went
