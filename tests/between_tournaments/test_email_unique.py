"""A player's email is unique whatever its case: checked by the services (400
``email-taken``), held by the database at the same instant (two directors giving one
address to two players), and the migration that adds the constraint settles the
duplicates an older database may hold."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.utils import translation

from matches.errors import Invalid
from tests.factories import EntryFactory, PlayerFactory, UserFactory, token_client
from tournament.models import Player, PlayerLink
from tournament.services import players as player_services
from tournament.services.players import player_update


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
            player_update(player=player, by=None, email="Same@Example.org")
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
    merge = ("tournament", "0007_merge")  # the merge that joined the dedupe's branch
    assert merge in graph.node_map
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


@pytest.mark.django_db
def test_one_address_is_one_person_in_a_tournament_whatever_the_contacts() -> None:
    """A director cannot point one player's notices at the address another player of the
    tournament gets its notices at (their own email or their contact there): a sign-up
    with it would join one of two people. Refused ``email-taken``, nothing changed."""
    import datetime as dt

    from tournament.services.entries import entry_register
    from tournament.services.events import event_create
    from tournament.services.players import player_contact_set, player_update_in_tournament
    from tournament.services.tournaments import tournament_create

    director = UserFactory()
    here = tournament_create(name="Here", director=director, starts_on=dt.date.today())
    there = tournament_create(name="There", director=UserFactory(), starts_on=dt.date.today())
    main = event_create(tournament=here, name="Main", match_lengths=[1])
    other = event_create(tournament=there, name="Main", match_lengths=[1])
    anna = PlayerFactory(name="Anna", email="anna@example.org")
    bo = PlayerFactory(name="Bo", email="bo@example.org")
    cai = PlayerFactory(name="Cai", email="cai@example.org")
    for player in (anna, bo, cai):
        entry_register(event=main, player=player)
    entry_register(event=other, player=anna)  # her own email is not this director's
    for email in ("BO@example.org", "cai.here@example.org"):
        if email.startswith("cai"):
            player_contact_set(tournament=here, player=cai, email=email, by=director)
        with pytest.raises(Invalid) as taken:
            player_update_in_tournament(tournament=here, player=anna, by=director, email=email)
        assert taken.value.code == "email-taken"
        assert "Here" in taken.value.message
    assert PlayerLink.objects.get(tournament=here, player=anna).email == ""
    # Her own email, which Bo's contact here may not be either (nor anyone's own).
    with pytest.raises(Invalid):
        player_contact_set(tournament=here, player=bo, email="anna@example.org", by=director)
    # Bo alone here: his own email may become an address another tournament's player has
    # as a contact there only (it is not Bo's tournament).
    PlayerLink.objects.filter(tournament=there, player=anna).update(email="free@example.org")
    done = player_update_in_tournament(
        tournament=here, player=bo, by=director, email="free@example.org"
    )
    assert "email" in done.changed
    # Nor Cai's own email, though Cai's notices here go to his contact.
    with pytest.raises(Invalid):
        player_contact_set(tournament=here, player=anna, email="cai@example.org", by=director)
    # But not one that a player of his tournament gets notices at.
    with pytest.raises(Invalid) as contact:
        player_update_in_tournament(
            tournament=here, player=bo, by=director, email="cai.here@example.org"
        )
    assert contact.value.code == "email-taken"
    with translation.override("de"), pytest.raises(Invalid) as german:
        player_contact_set(tournament=here, player=bo, email="anna@example.org", by=director)
    assert german.value.message.startswith("Ein anderer Spieler von Here hat bereits")
