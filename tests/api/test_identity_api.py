"""One person, one player over the API: a sign-up with a known email answers nothing of
that player, bulk approve, and the directors' merge (with the schema)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, UserFactory, token_client
from tests.public.signup_flow import api_signup_and_confirm
from tests.tournament.conftest import play, playable
from tournament.models import Entry, Event, Player, PlayerMerge
from tournament.pages.caching import clear_caches
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def director():
    return UserFactory(username="td")


@pytest.fixture
def tournament(director):
    return tournament_create(name="Open", slug="open", director=director)


def _open(tournament, name, **fields):
    event = event_create(tournament=tournament, name=name, match_lengths=[1])
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN, **fields)
    event.refresh_from_db()
    return event


def test_a_known_email_enters_that_player_and_answers_nothing_of_them(tournament):
    main, side = _open(tournament, "Main"), _open(tournament, "Side")
    anon = APIClient()
    first = api_signup_and_confirm(
        anon, main.pk, {"name": "Anna", "email": "a@example.org"}, format="json"
    ).json()
    assert first["known"] is False
    assert first["link_key"]
    second = api_signup_and_confirm(
        anon, side.pk, {"name": "Eve", "email": "A@example.org"}, format="json"
    )
    assert second.status_code == 201
    body = second.json()
    assert body["known"] is True
    assert (body["entry"], body["player"], body["link"], body["link_key"]) == (None,) * 4
    assert body["status"] == "registered"
    assert Entry.objects.get(event=side).player_id == first["player"]


def test_bulk_approve_over_the_api(tournament, director):
    main = _open(tournament, "Main")
    Event.objects.filter(pk=main.pk).update(signup=Event.Signup.APPROVAL)
    anon = APIClient()
    for n in range(2):
        api_signup_and_confirm(
            anon, main.pk, {"name": f"P{n}", "email": f"p{n}@example.org"}, format="json"
        )
    ids = list(main.entries.values_list("pk", flat=True))
    answer = token_client(director).post(
        f"/api/events/{main.pk}/entries/approve/", {"entries": ids}, format="json"
    )
    assert answer.json() == {"changed": 2}
    assert set(main.entries.values_list("status", flat=True)) == {"registered"}
    assert anon.post(
        f"/api/events/{main.pk}/entries/approve/", {"entries": ids}, format="json"
    ).status_code in (401, 403)


def test_the_merge_over_the_api(tournament, director):
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    anna, anna2 = PlayerFactory(name="Anna"), PlayerFactory(name="Anna")
    for p in (anna, anna2, PlayerFactory(), PlayerFactory()):
        entry_register(event=main, player=p)
    draw_make(event=main, seed=4)
    url = f"/api/tournaments/open/players/{anna.pk}/merge/"
    client = token_client(director)
    refused = client.post(url, {"other": anna2.pk}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "both-drawn"
    assert client.post(url, {"other": anna.pk}, format="json").json()["code"] == "same-player"
    assert client.post(url, {"other": "x"}, format="json").status_code == 400
    stranger = PlayerFactory()
    assert client.post(url, {"other": stranger.pk}, format="json").status_code == 404
    assert (
        token_client(UserFactory()).post(url, {"other": anna2.pk}, format="json").status_code == 403
    )
    # Before a draw (another event): the merge goes through.
    side = event_create(tournament=tournament, name="Side", match_lengths=[1])
    entry_register(event=side, player=stranger)
    round_start(round_=main.rounds.order_by("number").first())
    for match in playable(main):
        play(match, 1)
    done = client.post(
        f"/api/tournaments/open/players/{anna.pk}/merge/", {"other": stranger.pk}, format="json"
    )
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["kept"] == anna.pk
    assert body["removed"] == stranger.pk
    assert body["by"] == "td"
    assert len(body["entries_moved"]) == 1
    assert not Player.objects.filter(pk=stranger.pk).exists()
    assert PlayerMerge.objects.get().by == director


def test_the_schema_has_the_merge_and_bulk_approve() -> None:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    merge = schema["paths"]["/api/tournaments/{slug}/players/{player_id}/merge/"]["post"]
    assert merge["operationId"] == "tournaments_players_merge"
    approve = schema["paths"]["/api/events/{id}/entries/approve/"]["post"]
    assert approve["operationId"] == "events_entries_approve"
    signed = schema["components"]["schemas"]["SignedUp"]["properties"]
    assert "known" in signed
    assert signed["link_key"].get("nullable") is True
