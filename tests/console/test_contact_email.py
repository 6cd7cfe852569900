"""A player whose address another player owns (a sign-up with an email already known)
has it as this tournament's contact, not as their own email: the sign-up's answer names
the address the link went to, and the console's "Email this player" offers itself and
sends to it, as "Email every player their link" already does."""

from __future__ import annotations

import html

import pytest
from django.core import mail
from django.test import Client

from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.public.signup_flow import signup_and_confirm
from tournament.models import Event, Player
from tournament.pages.caching import clear_caches
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

ADDRESS = "family@example.org"


def test_a_contact_address_is_shown_and_used_to_email_the_link(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    clear_caches()
    mia = PlayerFactory(name="Mia Holm", email=ADDRESS)  # owns the address, and plays
    elsewhere = TournamentFactory(is_public=False)  # only in a stranger's private tournament:
    entry_register(  # a sign-up with her address is not matched to her
        event=event_create(tournament=elsewhere, name="X", match_lengths=[1]), player=mia
    )
    director = UserFactory()
    t = tournament_create(name="Fjord Open", slug="fjord", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[1], slug="main")
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN)
    with django_capture_on_commit_callbacks(execute=True):
        done = signup_and_confirm(
            client,
            "/t/fjord/main/signup/",
            {"name": "Ole Holm", "email": ADDRESS, "club": "", "country": ""},
        )
    ole = Player.objects.get(name="Ole Holm")
    assert ole.email == ""  # the address stays Mia's: Ole's record has it as a contact
    assert f"It is also emailed to {ADDRESS}." in done.content.decode()

    client.force_login(director)
    links = client.get("/director/t/fjord/player-links/").content.decode()
    assert 'aria-label="Email Ole Holm their link"' in links
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(f"/director/t/fjord/player-links/{ole.pk}/email/", follow=True)
    assert f"Ole Holm's link is on its way to {ADDRESS}." in html.unescape(sent.content.decode())
    assert [m.to for m in mail.outbox] == [[ADDRESS]]
