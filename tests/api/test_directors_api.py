"""``/api/tournaments/{slug}/directors/``: list, add (an existing account or a new one with
a set-password link), remove (never the last one) and a fresh link; for the tournament's
directors only, and a clear 400 (never a 500) on bad input."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, token_client
from tournament.models import Tournament, User

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

URL = "/api/tournaments/club/directors/"


@pytest.fixture
def td() -> User:
    return UserFactory(username="td")


@pytest.fixture
def tournament(td: User) -> Tournament:
    return TournamentFactory(name="Club Open", slug="club", director=td)


@pytest.fixture
def api(td: User, tournament: Tournament) -> APIClient:
    return token_client(td)


def test_directors_list_them_others_are_refused(api: APIClient, td: User) -> None:
    answer = api.get(URL)
    assert answer.status_code == 200
    assert answer.json() == [
        {"id": td.pk, "username": "td", "email": "td@example.org", "has_password": True}
    ]
    assert token_client(None).get(URL).status_code == 401
    refused = token_client(UserFactory()).get(URL)
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission-denied"
    assert api.get("/api/tournaments/nowhere/directors/").status_code == 404


def test_add_an_existing_account_by_username_or_email(api: APIClient, tournament) -> None:
    ann = UserFactory(username="ann", email="Ann@example.org")
    bob = UserFactory(username="bob")
    answer = api.post(URL, {"username": "ANN"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert (body["id"], body["created"], body["already_director"]) == (ann.pk, False, False)
    assert body["set_password_url"] is None
    assert api.post(URL, {"username": "bob@EXAMPLE.org"}, format="json").json()["id"] == bob.pk
    assert set(tournament.directors.values_list("username", flat=True)) == {"td", "ann", "bob"}
    again = api.post(URL, {"username": "ann@example.org"}, format="json")
    assert again.status_code == 200  # nothing created
    assert again.json()["already_director"] is True


def test_add_a_new_account_returns_its_set_password_link_and_emails_it(
    api: APIClient, tournament, mailoutbox, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(URL, {"username": "carla", "email": "carla@example.org"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    carla = User.objects.get(username="carla")
    assert body["id"] == carla.pk
    assert (body["created"], body["has_password"], body["emailed"]) == (True, False, True)
    assert body["set_password_url"].startswith("http://testserver/accounts/reset/")
    assert tournament.directors.filter(pk=carla.pk).exists()
    assert [m.to for m in mailoutbox] == [["carla@example.org"]]
    # The link opens the set-password form.
    page = Client().get(body["set_password_url"].removeprefix("http://testserver"), follow=True)
    assert "Set your password" in page.content.decode()


def test_an_email_of_another_account_is_refused(api: APIClient, tournament) -> None:
    UserFactory(username="dora", email="dora@example.org")
    answer = api.post(URL, {"username": "dora2", "email": "DORA@example.org"}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert (body["code"], body["detail"]["field"]) == ("email-taken", "email")
    assert not User.objects.filter(username="dora2").exists()


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "username"),
        ({"username": ""}, "username"),
        ({"username": ["td"]}, "username"),
        ({"username": {"a": 1}}, "username"),
        ({"username": None}, "username"),
        ({"username": "x" * 255}, "username"),
        ({"username": "nul\x00name"}, "username"),
        ({"username": "ok", "email": "not an email"}, "email"),
        ({"username": "ok", "email": 12}, "email"),
    ],
)
def test_bad_input_gets_a_field_level_400(api: APIClient, payload: Any, field: str) -> None:
    answer = api.post(URL, payload, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid"
    assert field in body["detail"]


@pytest.mark.parametrize("username", ["x" * 151, "Greta Hahn!", "a/b"])
def test_a_name_that_cannot_be_a_username_is_refused(api: APIClient, username: str) -> None:
    answer = api.post(URL, {"username": username}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert (body["code"], body["detail"]["field"]) == ("invalid-username", "username")


def test_remove_a_director_but_never_the_last(api: APIClient, td: User, tournament) -> None:
    last = api.delete(f"{URL}{td.pk}/")
    assert last.status_code == 400
    assert (last.json()["code"], last.json()["detail"]["field"]) == ("last-director", "user")
    other = UserFactory(username="eve")
    tournament.directors.add(other)
    assert token_client(UserFactory()).delete(f"{URL}{other.pk}/").status_code == 403
    assert token_client(None).delete(f"{URL}{other.pk}/").status_code == 401
    assert api.delete(f"{URL}{other.pk}/").status_code == 204
    assert list(tournament.directors.all()) == [td]
    assert api.delete(f"{URL}{other.pk}/").status_code == 404  # not a director any more
    assert api.delete(f"{URL}99999999999999999999/").status_code == 404


def test_a_fresh_link_for_a_director_without_a_password(api: APIClient, tournament) -> None:
    new = api.post(URL, {"username": "finn"}, format="json").json()
    assert new["set_password_url"]
    assert new["emailed"] is False
    fresh = api.post(f"{URL}{new['id']}/link/")
    assert fresh.status_code == 200, fresh.json()
    assert fresh.json()["set_password_url"].startswith("http://testserver/accounts/reset/")
    assert token_client(UserFactory()).post(f"{URL}{new['id']}/link/").status_code == 403
    with_password = UserFactory(username="gus")
    tournament.directors.add(with_password)
    refused = api.post(f"{URL}{with_password.pk}/link/")
    assert refused.status_code == 400
    assert refused.json()["code"] == "has-password"


def test_non_directors_change_nothing(tournament, td: User) -> None:
    stranger = token_client(UserFactory(username="mallory"))
    assert stranger.post(URL, {"username": "mallory"}, format="json").status_code == 403
    assert token_client(None).post(URL, {"username": "x"}, format="json").status_code == 401
    assert list(tournament.directors.all()) == [td]


def _pending(username: str, email: str = "") -> User:
    """An account with no password yet (as an invite makes it)."""
    user = UserFactory(username=username, email=email)
    user.set_unusable_password()
    user.save()
    return user


def test_a_pending_account_of_another_tournament_gets_its_link_by_email_only(
    api: APIClient, tournament, django_capture_on_commit_callbacks
) -> None:
    """Whoever holds a set-password link can take the account: a director of one
    tournament never sees the link of an account that directs another one."""
    bob = _pending("bob", "bob@example.org")
    TournamentFactory(name="Other Open", slug="other", director=bob)
    with django_capture_on_commit_callbacks(execute=True):
        added = api.post(URL, {"username": "bob"}, format="json").json()
    assert (added["created"], added["set_password_url"], added["emailed"]) == (False, None, True)
    renewed = api.post(f"{URL}{bob.pk}/link/")
    assert renewed.status_code == 200, renewed.json()
    assert renewed.json() == {"set_password_url": None, "emailed": True}
    quiet = _pending("quiet")
    TournamentFactory(name="Third Open", slug="third", director=quiet)
    assert api.post(URL, {"username": "quiet"}, format="json").json()["set_password_url"] is None
    refused = api.post(f"{URL}{quiet.pk}/link/")
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["detail"]["field"]) == ("link-private", "user")


def test_a_player_s_pending_account_gets_no_link_but_staff_see_one(tournament) -> None:
    from tests.factories import PlayerFactory

    player_account = _pending("pat")
    PlayerFactory(name="Pat Lee", user=player_account)
    td = tournament.directors.get()
    added = token_client(td).post(URL, {"username": "pat"}, format="json").json()
    assert added["set_password_url"] is None
    staff = token_client(UserFactory(username="root", is_staff=True))
    lone = _pending("lone")
    TournamentFactory(name="Lone Open", slug="lone", director=lone)
    shown = staff.post(URL, {"username": "lone"}, format="json").json()
    assert shown["set_password_url"].startswith("http://testserver/accounts/reset/")
