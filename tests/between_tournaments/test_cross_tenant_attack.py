"""One director cannot reach into another's tournament (issue 19), played as the attack:
director B enters a player seen only in director A's private tournament (not found),
then, for a player they legitimately share, changes every email they can reach; A emails
the links and the match-ready notices: they still go to the address A's tournament uses."""

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
    UserFactory,
    token_client,
)
from tournament.models import Entry, Player, PlayerLink
from tournament.pages.caching import clear_caches
from tournament.tasks.notifications import notify_match_ready

pytestmark = pytest.mark.django_db

ATTACKER = "mallory@evil.example"


@pytest.fixture(autouse=True)
def _fresh_pages() -> Any:
    clear_caches()
    yield
    clear_caches()


@pytest.fixture(autouse=True)
def _tasks_run_here() -> Any:
    """The emails are sent by Celery tasks: run them in this process, with or without a
    broker, so that the outbox shows who received what."""
    from tournament.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


def _console(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _received(what: str) -> dict[str, list[str]]:
    """Recipient -> subjects of the sent emails whose subject names ``what``."""
    seen: dict[str, list[str]] = {}
    for message in mail.outbox:
        if what in message.subject or what in message.body:
            for to in message.to:
                seen.setdefault(to, []).append(message.subject)
    return seen


def test_director_b_cannot_enter_a_hidden_player_nor_redirect_a_shared_players_notices(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    # A's private tournament, with a player seen nowhere else ...
    private = TournamentFactory(director=alice, is_public=False, name="Alice Private")
    hidden = PlayerFactory(name="Hidden Hal", email="hal@example.org")
    EntryFactory(event=EventFactory(tournament=private), player=hidden)
    # ... and A's public tournament, whose player B may legitimately enter too.
    public = TournamentFactory(director=alice, name="Alice Open")
    a_event = EventFactory(tournament=public)
    shared = PlayerFactory(name="Shared Sue", email="sue@example.org")
    EntryFactory(event=a_event, player=shared)
    b_event = EventFactory(tournament=TournamentFactory(director=bob, name="Bob Cup"))
    b_api = token_client(bob)

    # 1. The hidden player: not found, exactly like a player that does not exist.
    for player_id in (hidden.pk, 10**9):
        answer = b_api.post(
            f"/api/events/{b_event.pk}/entries/", {"player": player_id}, format="json"
        )
        assert answer.status_code == 404, answer.content
    assert not Entry.objects.filter(event=b_event).exists()
    csv = "name,email\nHidden Hal,HAL@example.org\n"
    page = _console(bob).post(
        f"/director/t/{b_event.tournament.slug}/import/",
        {"text": csv, "event": b_event.pk, "confirm": "1"},
    )
    assert page.status_code == 400
    assert "is not one you can enter" in page.content.decode()
    assert not Entry.objects.filter(event=b_event).exists()

    # 2. The shared player: B enters them, then tries every way to change their email.
    answer = b_api.post(f"/api/events/{b_event.pk}/entries/", {"player": shared.pk}, format="json")
    assert answer.status_code == 201, answer.content
    answer = b_api.patch(f"/api/players/{shared.pk}/", {"email": ATTACKER}, format="json")
    assert answer.status_code == 403
    assert answer.json()["code"] == "email-not-yours"
    form = {"name": shared.name, "email": ATTACKER, "club": shared.club, "country": ""}
    edited = _console(bob).post(f"/director/t/{b_event.tournament.slug}/players/{shared.pk}/", form)
    assert edited.status_code == 302
    answer = b_api.patch(
        f"/api/tournaments/{b_event.tournament.slug}/player-links/{shared.pk}/",
        {"email": ATTACKER},
        format="json",
    )
    assert answer.status_code == 200
    assert answer.json()["email"] == ATTACKER  # B's own tournament writes there: B's choice
    # B's links for A's tournament stay out of reach.
    answer = b_api.patch(
        f"/api/tournaments/{public.slug}/player-links/{shared.pk}/",
        {"email": ATTACKER},
        format="json",
    )
    assert answer.status_code == 403
    shared.refresh_from_db()
    assert shared.email == "sue@example.org"

    # 3. A emails the links, and a match of Sue's in A's tournament becomes ready.
    round_ = RoundFactory(event=a_event)
    match = MatchFactory(round=round_, entry1=Entry.objects.get(event=a_event, player=shared))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sent = _console(alice).post(f"/director/t/{public.slug}/player-links/email/")
    assert sent.status_code == 302
    notify_match_ready.run(match.pk)
    to_a = _received("Alice Open")
    assert "sue@example.org" in to_a
    assert any("private link" in s for s in to_a["sue@example.org"])
    assert any("next match" in s for s in to_a["sue@example.org"])
    assert ATTACKER not in to_a
    assert all(ATTACKER not in m.to for m in mail.outbox)

    # B's own tournament writes to the contact B set: nobody else's notices moved.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _console(bob).post(f"/director/t/{b_event.tournament.slug}/player-links/email/")
    assert set(_received("Bob Cup")) == {ATTACKER}
    link = PlayerLink.objects.get(tournament=public, player=shared)
    assert link.contact_email == "sue@example.org"


def test_a_directors_edit_sets_the_players_own_email_when_no_other_tournament_uses_it() -> None:
    """The player is only in B's tournaments: B corrects their own email (the global one)."""
    bob = UserFactory()
    event = EventFactory(tournament=TournamentFactory(director=bob))
    player = PlayerFactory(email="old@example.org")
    EntryFactory(event=event, player=player)
    answer = token_client(bob).patch(
        f"/api/players/{player.pk}/", {"email": "new@example.org"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    player.refresh_from_db()
    assert player.email == "new@example.org"


def test_the_account_linked_to_a_player_changes_their_email_and_staff_do() -> None:
    owner = UserFactory()
    player = PlayerFactory(email="mine@example.org", user=owner)
    EntryFactory(player=player)
    shared_director = UserFactory()
    EntryFactory(
        event=EventFactory(tournament=TournamentFactory(director=shared_director)), player=player
    )
    refused = token_client(shared_director).patch(
        f"/api/players/{player.pk}/", {"email": "x@example.org"}, format="json"
    )
    assert refused.status_code == 403
    staff = UserFactory(is_staff=True)
    done = token_client(staff).patch(
        f"/api/players/{player.pk}/", {"email": "staff-set@example.org"}, format="json"
    )
    assert done.status_code == 200
    player.refresh_from_db()
    assert player.email == "staff-set@example.org"


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/{id}/",
        "/api/players/{id}/ratings/",
        "/players/{id}/",
        "/players/{id}/matches.ics",
    ],
)
def test_a_player_of_a_private_tournament_is_not_found_by_id_for_another_director(
    path: str,
) -> None:
    alice, bob = UserFactory(), UserFactory()
    TournamentFactory(director=bob)
    hidden = PlayerFactory()
    EntryFactory(
        event=EventFactory(tournament=TournamentFactory(director=alice, is_public=False)),
        player=hidden,
    )
    missing = Player.objects.order_by("-pk").first().pk + 1000  # type: ignore[union-attr]
    for client in (token_client(bob), _console(bob), Client()):
        hidden_answer = client.get(path.format(id=hidden.pk))
        assert hidden_answer.status_code == 404, (path, hidden_answer.status_code)
        assert client.get(path.format(id=missing)).status_code == 404
    assert token_client(alice).get(f"/api/players/{hidden.pk}/").status_code == 200
    for verb in ("patch", "post"):
        target = "/api/players/{id}/" if verb == "patch" else "/api/players/{id}/link-account/"
        answer = getattr(token_client(bob), verb)(
            target.format(id=hidden.pk), {"name": "Renamed"}, format="json"
        )
        assert answer.status_code == 404, (verb, answer.status_code)
