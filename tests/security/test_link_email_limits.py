""" "Email this player" cannot be pressed into a mail bomb.

The attack: eight presses of the button sent eight mails to the player. Now a link's
mail goes at most once per ``LINK_EMAIL_COOLDOWN`` and ``LINK_EMAILS_PER_DAY`` times a
day; the page says so beside the button, and when the next may go."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.factories import PlayerFactory, UserFactory
from tournament.models import PlayerLink
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    director = UserFactory()
    t = tournament_create(name="Fjord Open", slug="fjord", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[1], slug="main")
    player = PlayerFactory(name="Ole Holm", email="ole@example.org")
    entry_register(event=event, player=player)
    client = Client()
    client.force_login(director)
    return client, player


def _press(client, player, capture):  # type: ignore[no-untyped-def]
    with capture(execute=True):
        return client.post(f"/director/t/fjord/player-links/{player.pk}/email/", follow=True)


def test_eight_presses_send_one_mail_and_the_page_says_when_the_next_may_go(
    scene, settings, django_capture_on_commit_callbacks, eager_tasks
):
    settings.LINK_EMAIL_COOLDOWN = 600
    settings.LINK_EMAILS_PER_DAY = 3
    client, player = scene
    page = client.get("/director/t/fjord/player-links/").content.decode()
    assert "One mail every 10 min, 3 a day per player." in page
    answers = [_press(client, player, django_capture_on_commit_callbacks) for _ in range(8)]
    assert len(mail.outbox) == 1
    assert "on its way" in html.unescape(answers[0].content.decode())
    refused = html.unescape(answers[1].content.decode())
    assert "was emailed recently: the next mail can go" in refused
    page = client.get("/director/t/fjord/player-links/").content.decode()
    assert "next from" in page
    assert "One mail every 10 min, 3 a day per player." in page
    # past the cooldown, one more each time, up to the daily cap
    link = PlayerLink.objects.get(player=player)
    for sent in (2, 3):
        PlayerLink.objects.filter(pk=link.pk).update(
            emailed_at=timezone.now() - dt.timedelta(minutes=11)
        )
        _press(client, player, django_capture_on_commit_callbacks)
        _press(client, player, django_capture_on_commit_callbacks)
        assert len(mail.outbox) == sent
    PlayerLink.objects.filter(pk=link.pk).update(
        emailed_at=timezone.now() - dt.timedelta(minutes=11)
    )
    _press(client, player, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 3  # the day's cap
    # the next day, the count starts again
    PlayerLink.objects.filter(pk=link.pk).update(
        emailed_on=timezone.localdate() - dt.timedelta(days=1),
        emailed_at=timezone.now() - dt.timedelta(days=1),
    )
    _press(client, player, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 4
