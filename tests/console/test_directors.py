"""The console's directors page: add a co-director (an existing account by username or
email, or a new account with a set-password link, emailed when it has an address),
remove one (never the last), a fresh link; and the set-password page the link opens."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory
from tournament.models import Tournament, User
from tournament.services.directors import tournament_director_invite

pytestmark = pytest.mark.django_db

PAGE = "/director/t/club/directors/"
LINK = re.compile(r'<p class="copy-box"[^>]*>(http://testserver/accounts/reset/[^<]+/)</p>')


@pytest.fixture
def td() -> User:
    return UserFactory(username="td", first_name="Tess", last_name="Director")


@pytest.fixture
def tournament(td: User) -> Tournament:
    return TournamentFactory(name="Club Open", slug="club", director=td)


@pytest.fixture
def director(td: User, tournament: Tournament) -> Client:
    client = Client()
    client.force_login(td)
    return client


def add(client: Client, username: str, email: str = "", **kwargs):  # type: ignore[no-untyped-def]
    return client.post(PAGE, {"username": username, "email": email}, follow=True, **kwargs)


def test_the_tournament_page_links_the_directors_page(director: Client) -> None:
    page = director.get("/director/t/club/").content.decode()
    assert f'href="{PAGE}"' in page
    listing = director.get(PAGE)
    assert listing.status_code == 200
    body = listing.content.decode()
    assert "td" in body
    assert "td@example.org" in body
    assert "Add a director" in body


def test_an_existing_account_is_added_by_username(director: Client, tournament) -> None:
    other = UserFactory(username="Ann")
    body = add(director, "Ann").content.decode()
    assert "Ann is now a director." in body
    assert tournament.directors.filter(pk=other.pk).exists()
    assert "copy-box" not in body  # she has a password: no link
    again = add(director, "ann").content.decode()  # any case
    assert "Ann is a director already." in again
    assert tournament.directors.count() == 2


def test_an_existing_account_is_added_by_email_ignoring_case(director: Client, tournament) -> None:
    other = UserFactory(username="bob", email="Bob.Smith@example.org")
    body = add(director, "bob.smith@EXAMPLE.org").content.decode()
    assert "bob is now a director." in body
    assert tournament.directors.filter(pk=other.pk).exists()
    assert User.objects.count() == 2  # no account made


def test_a_new_account_gets_a_set_password_link_shown_once_and_emailed(
    director: Client, tournament, mailoutbox, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        body = add(director, "carla", "carla@example.org").content.decode()
    carla = User.objects.get(username="carla")
    assert carla.email == "carla@example.org"
    assert not carla.has_usable_password()
    assert tournament.directors.filter(pk=carla.pk).exists()
    assert "Account carla created; carla is now a director." in body
    url = LINK.search(body).group(1)
    assert "It was emailed to carla@example.org as well." in body
    assert "has not set a password yet" in body
    # The email: to her, with a link of its own that works too.
    assert len(mailoutbox) == 1
    sent = mailoutbox[0]
    assert sent.to == ["carla@example.org"]
    assert sent.subject == "Tess Director made you a director of Club Open"
    emailed = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", sent.body).group(1)
    assert Client().get(emailed).status_code == 302  # a valid link moves to the form
    # Shown once: the page does not show the link again.
    assert "copy-box" not in director.get(PAGE).content.decode()
    assert url.startswith("http://testserver/accounts/reset/")


def test_a_new_account_without_email_is_not_emailed(
    director: Client, mailoutbox, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        body = add(director, "dmitri").content.decode()
    assert LINK.search(body)
    assert "It was not emailed: copy it and give it to dmitri yourself." in body
    assert mailoutbox == []


def test_an_email_of_another_account_is_refused(director: Client, tournament) -> None:
    UserFactory(username="elif", email="elif@example.org")
    response = director.post(PAGE, {"username": "elif2", "email": "ELIF@example.org"})
    assert response.status_code == 400
    assert "Another account already has the email address" in response.content.decode()
    assert not User.objects.filter(username="elif2").exists()
    assert tournament.directors.count() == 1


def test_a_name_that_cannot_be_a_username_is_refused_on_the_field(director: Client) -> None:
    response = director.post(PAGE, {"username": "Greta Hahn!", "email": ""})
    assert response.status_code == 400
    body = response.content.decode()
    assert "cannot be a new username" in body
    assert not User.objects.filter(username="Greta Hahn!").exists()
    assert director.post(PAGE, {"username": "x" * 300}).status_code == 400


def test_the_last_director_cannot_be_removed(director: Client, td, tournament) -> None:
    url = f"/director/t/club/directors/{td.pk}/remove/"
    assert "Add another director first." in director.get(url).content.decode()
    response = director.post(url)
    assert response.status_code == 400
    assert "the only director of Club Open" in response.content.decode()
    assert tournament.directors.filter(pk=td.pk).exists()


def test_removing_asks_first_then_removes(director: Client, td, tournament) -> None:
    other = UserFactory(username="hiro")
    tournament.directors.add(other)
    url = f"/director/t/club/directors/{other.pk}/remove/"
    assert "Yes, remove hiro" in director.get(url).content.decode()
    body = director.post(url, follow=True).content.decode()
    assert "hiro no longer directs Club Open." in body
    assert not tournament.directors.filter(pk=other.pk).exists()
    assert director.post(url).status_code == 404  # not a director any more
    assert (
        director.get("/director/t/club/directors/99999999999999999999/remove/").status_code == 404
    )


def test_a_director_may_remove_themselves_while_another_remains(
    director: Client, td, tournament
) -> None:
    tournament.directors.add(UserFactory(username="ines"))
    response = director.post(f"/director/t/club/directors/{td.pk}/remove/")
    assert response.status_code == 302
    assert response["Location"] == "/director/"
    assert list(tournament.directors.values_list("username", flat=True)) == ["ines"]
    assert director.get(PAGE).status_code == 404


def test_others_cannot_see_or_change_the_directors(tournament, td) -> None:
    """Someone who does not direct the tournament is refused (404, as every console page
    of another tournament: its existence is not told) and changes nothing."""
    stranger = UserFactory(username="mallory")
    TournamentFactory(slug="theirs", director=stranger)
    client = Client()
    client.force_login(stranger)
    assert client.get(PAGE).status_code == 404
    assert client.post(PAGE, {"username": "mallory"}).status_code == 404
    assert client.post(f"/director/t/club/directors/{td.pk}/remove/").status_code == 404
    assert client.post(f"/director/t/club/directors/{td.pk}/link/").status_code == 404
    assert list(tournament.directors.all()) == [td]
    assert Client().get(PAGE)["Location"].startswith("/accounts/login/")


def test_staff_manage_any_tournaments_directors(tournament) -> None:
    client = Client()
    client.force_login(UserFactory(username="staff", is_staff=True))
    assert add(client, "newbie").status_code == 200
    assert tournament.directors.filter(username="newbie").exists()


def test_a_lost_link_is_replaced_for_a_director_without_a_password(
    director: Client, tournament
) -> None:
    invite = tournament_director_invite(tournament=tournament, by=None, username="jo")
    body = director.post(f"/director/t/club/directors/{invite.user.pk}/link/", follow=True)
    url = LINK.search(body.content.decode()).group(1)
    assert Client().get(url.removeprefix("http://testserver")).status_code == 302  # valid
    with_password = UserFactory(username="kim")
    tournament.directors.add(with_password)
    refused = director.post(f"/director/t/club/directors/{with_password.pk}/link/", follow=True)
    assert "kim has set a password already" in refused.content.decode()


def test_the_link_sets_a_password_then_the_director_logs_in_and_sees_the_tournament(
    director: Client,
) -> None:
    body = add(director, "lena", "lena@example.org").content.decode()
    url = LINK.search(body).group(1).removeprefix("http://testserver")
    lena = Client()
    form = lena.get(url, follow=True)
    assert "Set your password" in form.content.decode()
    assert "lena" in form.content.decode()
    done = lena.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-long-secret-9", "new_password2": "a-long-secret-9"},
        follow=True,
    )
    assert "Your password is set" in done.content.decode()
    login = lena.post(
        "/accounts/login/?next=/director/",
        {"username": "lena", "password": "a-long-secret-9", "next": "/director/"},
        follow=True,
    )
    assert login.redirect_chain[-1][0] == "/director/"
    assert "Club Open" in login.content.decode()
    # The link was for one use.
    used = Client().get(url, follow=True).content.decode()
    assert "This set-password link does not work" in used


def test_an_invalid_link_says_so_and_whom_to_ask(client: Client) -> None:
    for url in ("/accounts/reset/MQ/not-a-token/", "/accounts/reset/%FF%FF/x-y/"):
        body = client.get(url).content.decode()
        assert "This set-password link does not work" in body
        assert "Ask a director of your tournament for a new link." in body


def test_a_line_break_in_a_name_does_not_break_the_email(
    tournament, mailoutbox, django_capture_on_commit_callbacks
) -> None:
    inviter = UserFactory(username="nina", first_name="Nina\r\nBcc: evil@example.org")
    Tournament.objects.filter(pk=tournament.pk).update(name="Club\nOpen")
    tournament.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        invite = tournament_director_invite(
            tournament=tournament, by=inviter, username="olga", email="olga@example.org"
        )
    assert invite.emailed
    assert len(mailoutbox) == 1
    sent = mailoutbox[0]
    assert "\n" not in sent.subject
    assert "\r" not in sent.subject
    assert sent.subject == "Nina Bcc: evil@example.org made you a director of Club Open"
    raw = sent.message().as_bytes()  # would raise BadHeaderError with a raw line break
    headers = raw.split(b"\n\n", 1)[0]
    assert not re.search(rb"^Bcc:", headers, re.MULTILINE)
    assert "Nina Bcc: evil@example.org made you a director of Club Open." in sent.body
    assert sent.recipients() == ["olga@example.org"]
