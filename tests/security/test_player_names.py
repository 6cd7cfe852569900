"""Player names refuse line breaks, bidi controls and other control characters with a
field-level 400, through the one player service: API, console entry and CSV import."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.errors import refuse
from tests.factories import TournamentFactory
from tournament.models import Player
from tournament.services.players import player_create

pytestmark = pytest.mark.django_db

BAD = [
    "Eve\nAdmin",
    "Eve\r\nAdmin",
    "Eve\u2028Admin",
    "Eve\tAdmin",
    "\u202eevE",  # right-to-left override
    "Eve\u2066x\u2069",  # isolates
    "Eve\u200bAdmin",  # zero-width space
    "Eve\x1b[31m",
]


@pytest.fixture
def director_api() -> APIClient:
    client = APIClient()
    client.force_authenticate(TournamentFactory().directors.first())
    return client


@pytest.mark.parametrize("name", BAD, ids=repr)
def test_the_api_refuses_control_characters_in_a_name(director_api: APIClient, name: str) -> None:
    response = director_api.post("/api/players/", {"name": name}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["detail"]["field"] == "name"
    assert "may not contain" in body["message"]
    assert not Player.objects.exists()


def test_a_club_is_checked_too(director_api: APIClient) -> None:
    response = director_api.post("/api/players/", {"name": "Eve", "club": "A\nB"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"]["field"] == "club"


def test_names_in_other_scripts_still_pass() -> None:
    for name in (
        "Zoë O'Brien-Łukasz",
        "\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627",
        "山田 太郎",
        "Ana María",
    ):
        assert player_create(name=name).name == name


def test_the_csv_import_refuses_them_per_row(director_api: APIClient) -> None:
    csv = 'name,email,rating,club\n"Eve\nAdmin",,,\nBob,,,"\u202eclub"\nCarl,,,\n'
    response = director_api.post("/api/players/import/", {"csv": csv}, format="json")
    assert response.status_code == 400
    errors = {(e["row"], e["field"]) for e in response.json()["detail"]["errors"]}
    assert "name" in {f for _, f in errors}
    assert "club" in {f for _, f in errors}
    assert not Player.objects.exists()


def test_the_service_names_the_field() -> None:
    with pytest.raises(type(refuse("x", code="invalid"))) as refused:
        player_create(name="Eve\u202e")
    assert refused.value.detail["field"] == "name"


@pytest.fixture
def staff_client():
    from django.test import Client

    from tests.factories import UserFactory

    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _admin_form(**fields: str) -> dict[str, str]:
    return {"name": "Eve", "email": "", "club": "", "country": "", "notify": "on", **fields}


@pytest.mark.parametrize("name", BAD, ids=repr)
def test_the_admin_refuses_them_when_adding_a_player(staff_client, name: str) -> None:
    response = staff_client.post("/admin/tournament/player/add/", _admin_form(name=name))
    assert response.status_code == 200  # the form again, with the error
    assert "may not contain" in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.parametrize(("field", "value"), [("name", "Eve\nAdmin"), ("club", "\u202ebulC")])
def test_the_admin_refuses_them_when_changing_a_player(
    staff_client, field: str, value: str
) -> None:
    from tests.factories import PlayerFactory

    player = PlayerFactory(name="Eve", club="Club")
    response = staff_client.post(
        f"/admin/tournament/player/{player.pk}/change/",
        _admin_form(**{"name": "Eve", "club": "Club", field: value}),
    )
    assert response.status_code == 200
    assert "may not contain" in response.content.decode()
    player.refresh_from_db()
    assert (player.name, player.club) == ("Eve", "Club")
