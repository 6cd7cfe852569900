"""When matches start, and the "your match is ready" notice that goes with it.

``Event.start_matches``: ``auto`` opens each match as soon as both players are known
(after the draw, and when a bracket move seats the second player, Consolation included);
``by-round`` waits for the director's Start, and starting a round tells its players.
"""

from __future__ import annotations

import logging

import pytest
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import Match
from tests.browser.scenario import decide
from tests.console.test_player_links import make_weekend
from tests.factories import MatchFactory, PlayerFactory
from tournament.models import Event, PlayerLink, Round
from tournament.services.event_settings import event_update
from tournament.services.rounds import round_start
from tournament.tasks.notifications import notify_match_ready

pytestmark = pytest.mark.django_db


def ready(event: Event) -> set[int]:
    return set(
        Match.objects.filter(event=event, status=Match.Status.READY).values_list("pk", flat=True)
    )


def test_by_round_starting_a_round_tells_its_players(
    mailoutbox: list, django_capture_on_commit_callbacks
) -> None:
    weekend = make_weekend()
    assert not ready(weekend.main)
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_=weekend.main.rounds.get(number=1))
    matches = list(Match.objects.filter(event=weekend.main, status=Match.Status.READY))
    assert len(matches) == 4
    # Seven of the eight players have an address: each is told once, with their link.
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        e.player.email for m in matches for e in (m.entry1, m.entry2) if e.player.email
    )
    for message in mailoutbox:
        link = PlayerLink.objects.get(player__email=message.to[0])
        assert f"/r/{link.key}/" in message.body
    with django_capture_on_commit_callbacks(execute=True):
        for m in matches:
            notify_match_ready(m.pk)
    assert len(mailoutbox) == 7  # the SENT cache: nobody is told twice


def test_auto_opens_round_one_at_the_draw_and_each_match_as_its_players_arrive(
    mailoutbox: list, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        weekend = make_weekend(start_matches="auto")
    main, consolation = weekend.main, weekend.consolation
    assert len(ready(main)) == 4
    assert main.rounds.get(number=1).status == Round.Status.STARTED
    main.refresh_from_db()
    assert main.status == Event.Status.RUNNING
    assert len(mailoutbox) == 7
    first, second, third, _ = Match.objects.filter(event=main, round__number=1).order_by("slot")
    with django_capture_on_commit_callbacks(execute=True):
        decide(first, 1, seed=1, director=weekend.director)
    round2 = main.rounds.get(number=2)
    assert round2.status == Round.Status.PENDING  # one player known: nothing to open yet
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        decide(second, 2, seed=2, director=weekend.director)
    # The two winners meet in round 2, and the two losers in the Consolation: both open
    # at once, without the director, and all four players are told.
    round2.refresh_from_db()
    assert round2.status == Round.Status.STARTED
    semi = Match.objects.get(event=main, round=round2, slot=0)
    assert semi.status == Match.Status.READY
    assert {semi.entry1_id, semi.entry2_id} == {first.entry1_id, second.entry2_id}
    (cons,) = ready(consolation)
    cons = Match.objects.get(pk=cons)
    assert {cons.entry1.player_id, cons.entry2.player_id} == {
        first.entry2.player_id,
        second.entry1.player_id,
    }
    consolation.refresh_from_db()
    assert consolation.status == Event.Status.RUNNING
    told = {m.to[0] for m in mailoutbox}
    assert {e.player.email for e in (semi.entry1, semi.entry2, cons.entry1, cons.entry2)} - {
        ""
    } == told
    assert third.pk in ready(main)


def test_by_round_keeps_a_seated_match_waiting_for_start(
    django_capture_on_commit_callbacks,
) -> None:
    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    with django_capture_on_commit_callbacks(execute=True):
        for i, m in enumerate(Match.objects.filter(event=weekend.main, round__number=1)):
            decide(m, 1, seed=i, director=weekend.director)
    assert not ready(weekend.consolation)
    assert not ready(weekend.main)


def test_switching_a_drawn_event_to_auto_opens_its_matches(
    django_capture_on_commit_callbacks,
) -> None:
    weekend = make_weekend()
    with django_capture_on_commit_callbacks(execute=True):
        event_update(event=weekend.main, start_matches="auto")
    assert len(ready(weekend.main)) == 4


def test_a_line_break_in_a_name_does_not_stop_the_notice(mailoutbox: list) -> None:
    match = MatchFactory(
        entry1__player=PlayerFactory(name="Anna"),
        entry2__player=PlayerFactory(
            name="Bert\nBcc: everyone@example.org", email="bert@example.org"
        ),
    )
    assert notify_match_ready(match.pk) == 2
    anna = next(m for m in mailoutbox if m.to == [match.entry1.player.email])
    assert "\n" not in anna.subject
    assert "Bert Bcc: everyone@example.org" in anna.subject
    assert anna.message()["Bcc"] is None


class FailingBackend:
    def __init__(self, **kwargs: object) -> None:
        pass

    def send_messages(self, messages: list) -> int:
        raise OSError("the mail server is down")


@override_settings(
    MAILERS={"default": {"BACKEND": "tests.console.test_start_matches.FailingBackend"}}
)
def test_a_failed_notice_is_logged_loudly(caplog: pytest.LogCaptureFixture) -> None:
    match = MatchFactory()
    with (
        caplog.at_level(logging.ERROR, logger="tournament.tasks.notifications"),
        pytest.raises(OSError, match="down"),
    ):
        notify_match_ready(match.pk)
    assert "NOTIFICATION FAILED" in caplog.text
    assert match.entry1.player.email in caplog.text


# ---- the setting in the console and the API ----------------------------------------


def test_the_console_offers_the_setting_auto_first(client: Client) -> None:
    weekend = make_weekend()
    client.force_login(weekend.director)
    page = client.get("/director/t/links/new-event/").content.decode()
    assert 'name="start_matches" value="auto"' in page
    auto = page.split('value="auto"', 1)[1].split(">", 1)[0]
    assert "checked" in auto
    posted = client.post(
        "/director/t/links/new-event/",
        {"name": "Last Chance", "format": "single-elimination", "match_lengths": "3",
         "crawford": "on", "start_matches": "auto"},
    )  # fmt: skip
    assert posted.status_code == 302
    assert Event.objects.get(slug="last-chance").start_matches == "auto"
    settings = "/director/t/links/events/main/settings/"
    form = client.get(settings).content.decode()
    assert 'value="by-round"' in form
    data = {
        "name": "Main",
        "slug": "main",
        "kind": "main",
        "format": "single-elimination",
        "match_lengths": "3",
        "crawford": "on",
        "start_matches": "auto",
        "tiebreaks": "",
        "signup": "closed",  # the form's radio and select, as a browser sends them
        "prize_unit": "1",
    }
    saved = client.post(settings, data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    weekend.main.refresh_from_db()
    assert weekend.main.start_matches == "auto"
    assert len(ready(weekend.main)) == 4
    assert (
        "as soon as both players are known"
        in client.get("/director/t/links/events/main/").content.decode()
    )


def test_the_api_creates_and_changes_the_setting(
    mailoutbox: list, django_capture_on_commit_callbacks
) -> None:
    weekend = make_weekend()
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=weekend.director)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    body = {"name": "Side", "format": "single-elimination", "match_lengths": [3]}
    made = client.post(
        "/api/tournaments/links/events/", {**body, "start_matches": "auto"}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["start_matches"] == "auto"
    plain = client.post("/api/tournaments/links/events/", {**body, "name": "Side 2"}, format="json")
    assert plain.json()["start_matches"] == "by-round"
    bad = client.patch(f"/api/events/{weekend.main.pk}/", {"start_matches": "soon"}, format="json")
    assert bad.status_code == 400
    assert "start_matches" in bad.content.decode()
    assert not mailoutbox
    with django_capture_on_commit_callbacks(execute=True):
        changed = client.patch(
            f"/api/events/{weekend.main.pk}/", {"start_matches": "auto"}, format="json"
        )
    assert changed.status_code == 200
    assert changed.json()["start_matches"] == "auto"
    opened = Match.objects.filter(pk__in=ready(weekend.main)).select_related(
        "entry1__player", "entry2__player"
    )
    assert len(opened) == 4
    # The switch opened round 1: its players with an address (seven of eight) are told.
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        e.player.email for m in opened for e in (m.entry1, m.entry2) if e.player.email
    )
    schema = client.get("/api/schema/").content.decode()
    assert "start_matches" in schema


def test_by_round_the_event_page_says_which_matches_wait_for_start(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    weekend = make_weekend()
    client.force_login(weekend.director)
    page = client.get("/director/t/links/events/main/").content.decode()
    assert "4 matches with both players wait for Start" in page
    round_start(round_=weekend.main.rounds.get(number=1))
    with django_capture_on_commit_callbacks(execute=True):
        for i, m in enumerate(Match.objects.filter(event=weekend.main, round__number=1)[:2]):
            decide(m, 1, seed=i, director=weekend.director)
    page = client.get("/director/t/links/events/consolation/").content.decode()
    assert "1 match with both players waits for Start" in page
