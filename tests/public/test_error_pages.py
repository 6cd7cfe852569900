"""Error and end pages: styled pages of the site that say what happened and what to do,
JSON in the API's error shape under /api/, and a finished event's link shows the results."""

from __future__ import annotations

import json

import pytest
from django.test import Client, RequestFactory

from matches.models import Match
from tests.public.builders import elimination, finish
from tournament.models import Entry, Event
from tournament.pages.caching import clear_caches
from tournament.web import error_pages

pytestmark = pytest.mark.django_db

STYLED = b"/static/css/site.css"


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


def _finished_event() -> tuple[Event, list[Match]]:
    """A Main of 4 played to the end: seed 1 beats seed 4, then seed 2 in the final."""
    main = elimination(4)
    semis = list(Match.objects.filter(event=main, round__number=1).order_by("slot"))
    for match in semis:
        finish(match, winner_side=1)
    final = Match.objects.get(event=main, round__number=2)
    finish(final, winner_side=1)
    main.refresh_from_db()
    assert main.status == Event.Status.FINISHED
    return main, [*semis, final]


def test_a_mistyped_private_link_gets_a_styled_page_that_says_what_to_do(client):
    page = client.get("/r/not-a-real-key/")
    assert page.status_code == 404
    assert STYLED in page.content
    assert b"This link is not valid: ask your director for your link." in page.content
    # The site's error page (its code, the message as the heading, a way on), not Django's.
    assert b'<p class="error-code">Error 404</p>' in page.content
    assert (
        b'<h1 id="error-h">This link is not valid: ask your director for your link.</h1>'
        in page.content
    )
    assert b'href="/">All tournaments</a>' in page.content
    assert b"The requested resource was not found on this server." not in page.content
    assert b"Not Found</h1>" not in page.content


def test_a_withdrawn_players_link_says_so():
    main = elimination(4)
    entry = Entry.objects.filter(event=main).first()
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.WITHDRAWN)
    page = Client().get(f"/r/{entry.report_key}/")
    assert page.status_code == 403
    assert STYLED in page.content
    assert b"you have withdrawn" in page.content


def test_a_finished_events_link_shows_the_players_matches_and_final_place(client):
    _main, (semi1, _semi2, final) = _finished_event()
    champion, runner_up = final.entry1, final.entry2
    loser = semi1.entry2
    won = client.get(f"/r/{champion.report_key}/", follow=True)
    assert won.status_code == 200
    text = won.content.decode()
    assert "1st of 4: champion" in text
    assert f"/matches/{final.pk}/" in text
    assert f"/matches/{semi1.pk}/" in text
    assert "2 wins, 0 losses" in text
    assert "2nd of 4" in client.get(f"/r/{runner_up.report_key}/", follow=True).content.decode()
    out = client.get(f"/r/{loser.report_key}/", follow=True).content.decode()
    assert "joint 3rd-4th of 4" in out
    assert "0 wins, 1 loss" in out


def test_confirming_the_final_again_says_it_is_already_confirmed(client):
    _main, (_, _, final) = _finished_event()
    key = final.entry2.report_key
    answer = client.post(f"/r/{key}/matches/{final.pk}/confirm/", follow=True)
    assert answer.status_code == 200
    assert b"This match is already confirmed" in answer.content
    assert b"Final place" in answer.content


def test_reporting_on_a_finished_event_is_refused_with_a_link_to_the_results(client):
    _main, (_, _, final) = _finished_event()
    key = final.entry1.report_key
    page = client.post(
        f"/r/{key}/matches/{final.pk}/game/", {"winner": final.entry1.player_id, "cube": 1}
    )
    assert page.status_code == 403
    assert STYLED in page.content
    assert b"This event is finished" in page.content
    assert f'href="/r/{key}/results/"'.encode() in page.content


def test_an_unknown_page_is_a_styled_404_and_the_api_keeps_its_json_shape(client):
    page = client.get("/t/no-such-tournament/")
    assert page.status_code == 404
    assert STYLED in page.content
    assert b"No such tournament" in page.content
    nowhere = client.get("/no/such/page/")
    assert nowhere.status_code == 404
    assert b"There is no such page" in nowhere.content
    api = client.get("/api/events/999999/")
    assert api.status_code == 404
    assert set(api.json()) == {"code", "message", "detail"}


def test_a_bad_host_is_a_styled_400(client):
    page = client.get("/", HTTP_HOST="bad host!")
    assert page.status_code == 400
    assert STYLED in page.content
    assert b"could not be read" in page.content


def test_a_stale_form_is_a_styled_403_that_says_to_reload():
    main = elimination(4)
    match = Match.objects.filter(event=main, status="ready").first()
    client = Client(enforce_csrf_checks=True)
    page = client.post(f"/r/{match.entry1.report_key}/matches/{match.pk}/confirm/")
    assert page.status_code == 403
    assert STYLED in page.content
    assert b"This form has expired" in page.content


def test_handlers_answer_json_under_the_api_and_a_page_elsewhere():
    factory = RequestFactory()
    for handler, status in (
        (error_pages.bad_request, 400),
        (error_pages.forbidden, 403),
        (error_pages.not_found, 404),
    ):
        api = handler(factory.get("/api/x/"), Exception("nope"))
        assert api.status_code == status
        assert api["Content-Type"] == "application/json"
        page = handler(factory.get("/x/"), None)
        assert page.status_code == status
        assert STYLED in page.content
    crash = error_pages.server_error(factory.get("/t/x/"))
    assert crash.status_code == 500
    assert STYLED in crash.content
    assert b"Something went wrong on our side" in crash.content
    api_crash = error_pages.server_error(factory.get("/api/x/"))
    assert json.loads(api_crash.content)["code"] == "server-error"


def test_confirming_the_final_leads_to_the_results_not_a_403(
    client, django_capture_on_commit_callbacks
):
    from core.http import RequestMeta
    from matches.access import Actor
    from matches.services.reporting import GameInput, game_report
    from tournament.celery import app

    main = elimination(2, lengths=(3,))
    final = Match.objects.select_related("entry1__player", "entry2__player").get(event=main)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(3):
                game_report(
                    match_id=final.pk,
                    actor=Actor(entry=final.entry1),
                    game=GameInput(winner=final.entry1.player_id),
                    meta=RequestMeta(ip="127.0.0.1", user_agent="test"),
                )
        key = final.entry2.report_key
        with django_capture_on_commit_callbacks(execute=True):
            confirmed = client.post(f"/r/{key}/matches/{final.pk}/confirm/")
    finally:
        app.conf.task_always_eager = eager
    assert confirmed.status_code == 302
    main.refresh_from_db()
    assert main.status == Event.Status.FINISHED
    results = client.get(confirmed["Location"], follow=True)
    assert results.status_code == 200
    text = results.content.decode()
    assert "Result confirmed. Thank you!" in text
    assert "2nd of 2" in text
    assert "0 wins, 1 loss" in text


def test_a_finished_swiss_link_shows_the_standings_place(client):
    from tests.factories import EventFactory
    from tests.public.builders import players
    from tournament.models import Round

    swiss = EventFactory(format=Event.Format.SWISS, name="Swiss", slug="swiss")
    entries = Entry.objects.bulk_create(
        Entry(event=swiss, player=p, seed=i) for i, p in enumerate(players(4, "Swiss"), start=1)
    )
    rnd = Round.objects.create(event=swiss, number=1, match_length=3, status="complete")
    for slot, (a, b) in enumerate([(entries[0], entries[1]), (entries[2], entries[3])]):
        Match.objects.create(
            event=swiss, round=rnd, slot=slot, entry1=a, entry2=b, length=3,
            status="complete", winner=a, score1=3, score2=slot, decision="play",
        )  # fmt: skip
    Event.objects.filter(pk=swiss.pk).update(status=Event.Status.FINISHED)
    best = client.get(f"/r/{entries[0].report_key}/", follow=True).content.decode()
    assert "Final place: <strong>1st of 4</strong>" in best
    worst = client.get(f"/r/{entries[1].report_key}/", follow=True).content.decode()  # lost 3-0
    assert "Final place: <strong>4th of 4</strong>" in worst
