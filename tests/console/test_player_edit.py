"""A director corrects a player's details in the console: from the event's entries or the
player-links page, back to where they came from; a name another player has is
questioned first; the public pages show the change at once."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.console.test_player_links import Weekend, make_weekend
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournament.models import Entry, Player
from tournament.pages.caching import clear_caches

pytestmark = pytest.mark.django_db


@pytest.fixture
def weekend(db: None) -> Weekend:
    clear_caches()  # each test's database reuses ids: no page cached by an earlier test
    yield make_weekend()
    clear_caches()


@pytest.fixture
def director(client: Client, weekend: Weekend) -> Client:
    client.force_login(weekend.director)
    return client


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def edit_url(p: Player, **query: str) -> str:
    tail = "".join(f"?{k}={v}" for k, v in query.items())
    return f"/director/t/links/players/{p.pk}/{tail}"


def fields(p: Player, **changes: str) -> dict[str, str]:
    """The form as the page sends it: every field, with ``changes``."""
    return {"name": p.name, "email": p.email, "club": p.club, "country": p.country, **changes}


def test_a_rename_from_the_event_page_shows_on_the_public_bracket_at_once(
    director: Client, django_capture_on_commit_callbacks
) -> None:
    ana = player("Player 3")
    public = Client()
    assert "Player 3" in public.get("/t/links/main/").content.decode()  # cached now
    entries = director.get("/director/t/links/events/main/").content.decode()
    url = edit_url(ana, event="main")
    assert f'href="{url}"' in entries.replace("&amp;", "&")
    form = director.get(url)
    assert form.status_code == 200
    assert 'value="Player 3"' in form.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        saved = director.post(url, fields(ana, name="Anna Berg"))
    entry = Entry.objects.get(player=ana, event__slug="main")
    assert saved.status_code == 302
    assert saved["Location"] == f"/director/t/links/events/main/#entry-{entry.pk}"
    shown = director.get(saved["Location"]).content.decode()
    assert "Anna Berg: name (was Player 3) changed." in shown
    after = public.get("/t/links/main/").content.decode()
    assert "Anna Berg" in after
    assert "Player 3" not in after
    ana.refresh_from_db()
    assert (ana.name, ana.email) == ("Anna Berg", "p3@example.org")


def test_a_name_another_player_has_is_questioned_then_accepted(director: Client) -> None:
    ana = player("Player 3")
    url = edit_url(ana)
    first = director.get(url).content.decode()
    assert 'type="checkbox" name="confirm_new"' not in first  # no question asked yet
    warned = director.post(url, fields(ana, name="player  4"))
    assert warned.status_code == 400
    body = warned.content.decode()
    assert "A player named player 4 already exists: Player 4 (p4@example.org)." in body
    assert re.search(r'type="checkbox" name="confirm_new"[^>]*>', body)
    assert "Yes, this is another person of that name" in body
    ana.refresh_from_db()
    assert ana.name == "Player 3"
    confirmed = director.post(url, fields(ana, name="Player 4", confirm_new="on"))
    assert confirmed.status_code == 302
    assert Player.objects.filter(name="Player 4").count() == 2


def test_a_name_with_a_line_break_is_refused_next_to_the_field(director: Client) -> None:
    ana = player("Player 3")
    refused = director.post(edit_url(ana), fields(ana, name="Anna\nBerg"))
    assert refused.status_code == 400
    body = refused.content.decode()
    assert re.search(
        r'class="field has-error">.*A name may not contain a line break \(U\+000A\)', body, re.S
    )
    ana.refresh_from_db()
    assert ana.name == "Player 3"


def test_a_new_email_from_the_links_page_goes_back_there_with_a_reminder(
    director: Client,
) -> None:
    ana = player("Player 3")
    links = director.get("/director/t/links/player-links/").content.decode()
    assert f'href="{edit_url(ana)}"' in links
    saved = director.post(edit_url(ana), fields(ana, email="anna.berg@example.org", country="no"))
    assert saved.status_code == 302
    assert saved["Location"] == f"/director/t/links/player-links/#player-{ana.pk}"
    shown = director.get(saved["Location"]).content.decode()
    assert (
        "Player 3: email and country changed. Their private link can be emailed again "
        "from Player links." in shown
    )
    ana.refresh_from_db()
    assert (ana.email, ana.country) == ("anna.berg@example.org", "NO")


def test_an_email_another_player_has_is_refused(director: Client) -> None:
    ana = player("Player 3")
    refused = director.post(edit_url(ana), fields(ana, email="P4@example.org"))
    assert refused.status_code == 400
    assert "already has the email P4@example.org" in refused.content.decode()
    ana.refresh_from_db()
    assert ana.email == "p3@example.org"


def test_saving_unchanged_says_so(director: Client) -> None:
    ana = player("Player 3")
    saved = director.post(edit_url(ana), fields(ana), follow=True)
    assert "Nothing changed for Player 3." in saved.content.decode()


def test_other_tournaments_and_their_players_answer_404(client: Client, weekend: Weekend) -> None:
    ana = player("Player 3")
    elsewhere = EventFactory()
    stranger = PlayerFactory(name="Only Elsewhere")
    EntryFactory(event=elsewhere, player=stranger)
    client.force_login(elsewhere.tournament.directors.get())
    for method in ("get", "post"):
        assert getattr(client, method)(edit_url(ana)).status_code == 404
        own = f"/director/t/{elsewhere.tournament.slug}/players/{ana.pk}/"
        assert getattr(client, method)(own).status_code == 404  # not entered there
    client.force_login(weekend.director)
    assert client.get(edit_url(stranger)).status_code == 404
    assert client.get(edit_url(ana, event="no-such-event")).status_code == 404
    ana.refresh_from_db()
    assert ana.name == "Player 3"


def test_staff_may_edit(client: Client, weekend: Weekend) -> None:
    ana = player("Player 3")
    client.force_login(UserFactory(is_staff=True))
    assert client.post(edit_url(ana), fields(ana, club="Club Sør")).status_code == 302
    ana.refresh_from_db()
    assert ana.club == "Club Sør"
