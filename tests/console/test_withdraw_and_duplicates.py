"""Withdrawing asks first and can be undone while the player's place is still theirs;
adding a player whose name exists warns of the duplicate (console and API)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.errors import Invalid
from matches.models import Match
from tests.console.test_player_links import make_weekend
from tests.factories import UserFactory
from tournament.models import Entry, Event, Player
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.events import event_create
from tournament.services.players import player_create
from tournament.services.results import match_award
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create
from tournament.services.withdrawals import entry_withdraw, entry_withdraw_undo

pytestmark = pytest.mark.django_db


def test_withdraw_asks_first_then_undo_restores_the_status(client: Client) -> None:
    director = UserFactory(username="td")
    t = tournament_create(name="Open", slug="open", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    player = player_create(name="Ann Lee")
    entry = entry_register(event=event, player=player)
    entry_check_in(entry=entry)
    client.force_login(director)
    url = f"/director/t/open/events/main/entries/{entry.pk}/withdraw/"
    page = client.get("/director/t/open/events/main/").content.decode()
    assert f'href="{url}"' in page  # the row's button leads to the confirmation
    ask = client.get(url)
    assert ask.status_code == 200
    assert "Yes, withdraw Ann Lee" in ask.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN  # asking is not doing
    assert client.post(url).status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    page = client.get("/director/t/open/events/main/").content.decode()
    assert "Undo withdraw" in page
    assert client.post(f"{url}undo/").status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    assert "back in, checked in" in client.get("/director/t/open/events/main/").content.decode()


def test_undo_takes_the_walkover_back_until_the_winner_has_played_on(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    from tests.browser.scenario import decide, report_game

    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    match, neighbour = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot")[
        :2
    ]
    leaver, stayer = match.entry1, match.entry2
    client.force_login(weekend.director)
    url = f"/director/t/links/events/main/entries/{leaver.pk}/withdraw/"
    ask = client.get(url).content.decode()
    assert "go to their opponents by walkover" in ask
    assert stayer.player.name in ask
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 302
    match.refresh_from_db()
    assert match.decision == Match.Decision.WALKOVER
    semi = Match.objects.get(event=weekend.main, round__number=2, slot=0)
    assert stayer.pk in (semi.entry1_id, semi.entry2_id)

    # The winner has not played on: the undo reopens the walkover.
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(f"{url}undo/", follow=True).content.decode()
    assert "back in" in page
    leaver.refresh_from_db()
    match.refresh_from_db()
    semi.refresh_from_db()
    assert leaver.status == Entry.Status.REGISTERED
    assert (match.status, match.winner_id, match.decision) == (Match.Status.READY, None, "")
    assert stayer.pk not in (semi.entry1_id, semi.entry2_id)
    assert match.submissions.filter(kind="resolve", payload__reopen=True).exists()

    # Withdrawn again, and this time the winner plays on in round 2: the place is gone.
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 302
        decide(neighbour, 1, seed=3, director=weekend.director)
        round_start(round_=weekend.main.rounds.get(number=2))
    semi.refresh_from_db()
    report_game(semi, winner_side=1)
    page = client.post(f"{url}undo/", follow=True).content.decode()
    assert "withdrawal cannot be undone" in page
    assert f"(match {semi.pk})" in page  # the match really played, named
    assert f"Correct match {semi.pk} first" in page  # and what to do
    leaver.refresh_from_db()
    assert leaver.status == Entry.Status.WITHDRAWN
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=weekend.director)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    answer = api.post(f"/api/entries/{leaver.pk}/withdraw/undo/")
    assert answer.status_code == 400
    assert answer.json()["code"] == "place-given-away"


def test_a_finished_event_offers_no_withdraw(client: Client) -> None:
    weekend = make_weekend()
    entry = weekend.main.entries.first()
    client.force_login(weekend.director)
    url = f"/director/t/links/events/main/entries/{entry.pk}/withdraw/"
    assert f'href="{url}"' in client.get("/director/t/links/events/main/").content.decode()
    Event.objects.filter(pk=weekend.main.pk).update(status=Event.Status.FINISHED)
    assert f'href="{url}"' not in client.get("/director/t/links/events/main/").content.decode()
    page = client.post(url, follow=True).content.decode()
    assert "is finished: nobody can withdraw" in page
    entry.refresh_from_db()
    assert entry.status != Entry.Status.WITHDRAWN


def test_a_walkover_or_forfeit_is_reopened_from_the_match_page(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    first, second = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match_award(decision="walkover", match=first, winner=first.entry2)
        match_award(decision="forfeit", match=second, winner=second.entry1)
    client.force_login(weekend.director)
    for match, what in ((first, "walkover"), (second, "forfeit")):
        page = client.get(f"/director/t/links/matches/{match.pk}/").content.decode()
        assert f"Reopen the {what}" in page
        with django_capture_on_commit_callbacks(execute=True):
            done = client.post(f"/director/t/links/matches/{match.pk}/reopen/", follow=True)
        assert "the match is ready to be played" in done.content.decode()
        match.refresh_from_db()
        assert (match.status, match.winner_id, match.decision) == ("ready", None, "")
    semi = Match.objects.get(event=weekend.main, round__number=2, slot=0)
    assert (semi.entry1_id, semi.entry2_id) == (None, None)
    # A played result is corrected, not reopened.
    with django_capture_on_commit_callbacks(execute=True):
        from tests.browser.scenario import decide

        decide(first, 1, seed=1, director=weekend.director)
    page = client.get(f"/director/t/links/matches/{first.pk}/").content.decode()
    assert "Reopen the" not in page
    refused = client.post(f"/director/t/links/matches/{first.pk}/reopen/", follow=True)
    assert "nothing to reopen" in refused.content.decode()


def test_undo_after_the_draw_gives_the_place_back_while_it_is_still_theirs(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    """A round-1 winner withdrawn while their round-2 opponent is not known yet (no
    walkover given) is taken back after the draw: they keep their seat, and the match
    opens as usual when the opponent arrives."""
    from tests.browser.scenario import decide

    weekend = make_weekend()
    round_start(round_=weekend.main.rounds.get(number=1))
    first, second = Match.objects.filter(event=weekend.main, round__number=1).order_by("slot")[:2]
    with django_capture_on_commit_callbacks(execute=True):
        decide(first, 1, seed=1, director=weekend.director)
    winner = Entry.objects.get(pk=first.entry1_id)
    semi = Match.objects.get(event=weekend.main, round__number=2, slot=0)
    assert semi.entry1_id == winner.pk
    assert semi.entry2_id is None
    client.force_login(weekend.director)
    url = f"/director/t/links/events/main/entries/{winner.pk}/withdraw/"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 302
    winner.refresh_from_db()
    assert winner.status == Entry.Status.WITHDRAWN
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(f"{url}undo/", follow=True).content.decode()
    assert f"{winner.player.name} is back in, registered." in page
    winner.refresh_from_db()
    assert winner.status == Entry.Status.REGISTERED
    with django_capture_on_commit_callbacks(execute=True):
        decide(second, 2, seed=2, director=weekend.director)
    semi.refresh_from_db()
    assert (semi.entry1_id, semi.entry2_id) == (winner.pk, second.entry2_id)
    assert semi.status == Match.Status.PENDING  # by round: waits for Start, no walkover
    assert semi.decision == ""
    round_start(round_=weekend.main.rounds.get(number=2))
    semi.refresh_from_db()
    assert semi.status == Match.Status.READY


def test_undo_is_refused_after_a_draw_made_without_them() -> None:
    director = UserFactory()
    t = tournament_create(name="Open", slug="open", director=director)
    event = event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    entries = [entry_register(event=event, player=player_create(name=f"P{i}")) for i in range(4)]
    entry_withdraw(entry=entries[0])
    draw_make(event=event, method="rating")
    with pytest.raises(Invalid, match="drawn without"):
        entry_withdraw_undo(entry=entries[0])


def test_adding_a_player_whose_name_exists_warns_in_the_console(client: Client) -> None:
    director = UserFactory()
    t = tournament_create(name="Open", slug="open", director=director)
    event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    player_create(name="Hiro Tanaka", club="Club Nord", email="hiro@example.org")
    client.force_login(director)
    url = "/director/t/open/events/main/entries/"
    warned = client.post(url, {"name": "hiro  tanaka", "club": "Elsewhere"})
    assert warned.status_code == 400
    body = warned.content.decode()
    assert (
        "A player named hiro tanaka already exists: Hiro Tanaka (Club Nord, hiro@example.org)"
        in body
    )
    assert "Yes, this is a new player" in body
    assert Player.objects.filter(name__iexact="hiro tanaka").count() == 1
    confirmed = client.post(url, {"name": "Hiro Tanaka", "club": "Elsewhere", "confirm_new": "on"})
    assert confirmed.status_code == 302
    assert Player.objects.filter(name="Hiro Tanaka").count() == 2
    assert Event.objects.get(slug="main").entries.count() == 1


def test_the_same_person_typed_again_with_their_email_is_entered_not_made_twice(
    client: Client,
) -> None:
    """A name and an email (in another case) that are a known player's are that player:
    entered as they are, no "is this a new player?" dead end. Another name with the
    address is still refused: one address, one person."""
    director = UserFactory()
    t = tournament_create(name="Open", slug="open", director=director)
    event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    karin = player_create(name="Karin Schulz", email="karin.schulz@example.de")
    client.force_login(director)
    url = "/director/t/open/events/main/entries/"
    entered = client.post(url, {"name": "karin  Schulz", "email": "Karin.Schulz@Example.DE"})
    assert entered.status_code == 302, entered.content.decode()[:600]
    assert Player.objects.filter(name__iexact="karin schulz").count() == 1
    assert list(Event.objects.get(slug="main").entries.values_list("player", flat=True)) == [
        karin.pk
    ]
    other = client.post(url, {"name": "Lena Schulz", "email": "KARIN.schulz@example.de"})
    assert other.status_code == 400
    assert "already has the email" in other.content.decode()
    assert not Player.objects.filter(name="Lena Schulz").exists()


def test_adding_a_player_whose_name_exists_needs_confirmation_in_the_api() -> None:
    director = UserFactory()
    tournament_create(name="Open", slug="open", director=director)
    player_create(name="Hiro Tanaka", club="Club Nord")
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=director)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    refused = api.post("/api/players/", {"name": "Hiro Tanaka"}, format="json")
    assert refused.status_code == 400
    data = refused.json()
    assert data["code"] == "possible-duplicate"
    assert data["detail"]["field"] == "name"
    assert data["detail"]["existing"][0]["club"] == "Club Nord"
    made = api.post("/api/players/", {"name": "Hiro Tanaka", "confirm_new": True}, format="json")
    assert made.status_code == 201
    assert api.post("/api/players/", {"name": "Someone New"}, format="json").status_code == 201


CSV = "name,email,rating,club\nHiro Tanaka,,1600,Elsewhere\nNew Person,,,\n"


def test_a_csv_import_names_new_players_who_share_a_known_name_console(client: Client) -> None:
    director = UserFactory()
    t = tournament_create(name="Open", slug="open", director=director)
    event_create(tournament=t, name="Main", match_lengths=[3], slug="main")
    hiro = player_create(name="Hiro Tanaka", club="Club Nord")
    client.force_login(director)
    url = "/director/t/open/import/"
    preview = client.post(url, {"text": CSV})
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "1 new player shares a name with a player already known" in page
    assert 'Same name as </span><span class="warning-text">Hiro Tanaka (Club Nord)' in page
    assert f"#{hiro.pk}" not in page  # "No." and "#" are never a player's database id
    assert page.count("Same name as") == 1  # New Person is simply new
    done = client.post(url, {"text": CSV, "confirm": "1"}, follow=True)
    shown = done.content.decode()
    assert "2 new player(s), 0 already known" in shown
    assert (
        "Check for duplicates: Hiro Tanaka (line 2) has the name of Hiro Tanaka (Club Nord" in shown
    )
    assert Player.objects.filter(name="Hiro Tanaka").count() == 2  # a warning, not a refusal


def test_a_csv_import_names_new_players_who_share_a_known_name_api() -> None:
    director = UserFactory()
    tournament_create(name="Open", slug="open", director=director)
    hiro = player_create(name="Hiro Tanaka", club="Club Nord")
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=director)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    answer = api.post("/api/players/import/", {"csv": CSV}, format="json")
    assert answer.status_code == 200, answer.json()
    (dup,) = answer.json()["possible_duplicates"]
    assert dup["row"] == 2
    assert dup["player"]["club"] == "Elsewhere"
    assert [p["id"] for p in dup["existing"]] == [hiro.pk]
    again = api.post("/api/players/import/", {"csv": CSV}, format="json").json()
    assert again["possible_duplicates"] == []  # same file twice: both rows are known now
    assert len(again["existing"]) == 2


def test_a_name_twice_in_one_csv_flags_the_second_line_against_the_first() -> None:
    from tournament.services.imports import players_import_csv

    result = players_import_csv(
        data="name,email,rating,club\nMia Wong,,,North\nmia  WONG,,,South\n"
    )
    assert not result.errors
    first, second = result.created
    (dup,) = result.namesakes
    assert (dup.row, dup.player, dup.existing) == (3, second, [first])
