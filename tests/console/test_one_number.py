""" "No." means one number everywhere: the entry's number in its event, as the first column
of the console's entries table shows it. The namesake notes, the CSV import preview and
the names that tell namesakes apart never quote a player's database id as "No."."""

from __future__ import annotations

import logging
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from matches.errors import AppError
from matches.names import names_told_apart
from tests.factories import PlayerFactory, UserFactory
from tournament.models import Entry, Event, PlayerMerge, Tournament
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.merge import players_merge
from tournament.services.signup import entry_signup
from tournament.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

PAGE = "/director/t/open/events/main/"


@pytest.fixture
def event(client: Client):
    director = UserFactory(username="td")
    t = tournament_create(name="Open", slug="open", director=director)
    event = event_create(
        tournament=t, name="Main", match_lengths=[3], slug="main", entry_fee=Decimal("20")
    )
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN)
    client.force_login(director)
    for _ in range(5):  # player ids no longer match entry numbers
        PlayerFactory()
    return event


def _table_number(page: str, entry: Entry) -> str:
    row = re.search(rf'<tr id="entry-{entry.pk}".*?<td class="num">(\d+)</td>', page, re.S)
    assert row is not None
    return row.group(1)


def test_a_signups_namesake_note_quotes_the_entry_number_of_the_table(
    client: Client, event
) -> None:
    entry_register(event=event, player=PlayerFactory(name="Other One"))
    anna = PlayerFactory(name="Anna Berg", club="Odense BK")
    entered = entry_register(event=event, player=anna)
    entry_signup(event=event, name="Anna Berg", email="anna.b@example.org")
    page = client.get(PAGE).content.decode()
    number = _table_number(page, entered)
    assert number == "2"
    assert anna.pk != 2
    assert f"(No. {number} in this event, Odense BK)" in page
    assert f"No. {anna.pk}" not in page


def test_the_csv_preview_quotes_no_player_ids(client: Client, event) -> None:
    known = PlayerFactory(name="Anna Berg", club="Odense BK", email="anna@example.org")
    text = "name,email\nAnna Berg,\nAnna Berg,anna@example.org\n"
    page = client.post("/director/t/open/import/", {"text": text}).content.decode()
    assert "Same name as" in page
    assert "Known: Anna Berg (Odense BK)" in page
    assert f"#{known.pk}" not in page


def test_namesakes_alike_in_all_else_are_told_apart_by_their_entry_number(event) -> None:
    first = entry_register(event=event, player=PlayerFactory(name="Anna Berg"))
    entry_register(event=event, player=PlayerFactory(name="Bo"))
    second = entry_register(event=event, player=PlayerFactory(name="Anna Berg"))
    names = names_told_apart(Entry.objects.filter(event=event).select_related("player"))
    assert names[first.pk] == "Anna Berg (No. 1)"
    assert names[second.pk] == "Anna Berg (No. 3)"


# ---- a player's record is "record n", never "No." ----------------------------------------


def test_the_merge_says_record_for_the_player_ids(client: Client, event, caplog) -> None:
    """The merge's success message, its audit line, its log line and its refusals name the
    records by "record n" (as the merge page does): "No." is the entry number."""
    kept = PlayerFactory(name="Anna Berg")
    gone = PlayerFactory(name="Anna Berg")
    entry_register(event=event, player=kept)
    entry_register(event=event, player=gone)
    url = f"/director/t/open/players/{kept.pk}/merge/"
    with caplog.at_level(logging.WARNING, logger="tournament.services.merge"):
        done = client.post(url, {"other": gone.pk, "confirm": "1"}, follow=True)
    page = done.content.decode()
    assert f"Anna Berg (record {gone.pk}) is now part of Anna Berg (record {kept.pk})" in page
    assert f"No. {gone.pk}" not in page
    assert f"No. {kept.pk}" not in page
    record = PlayerMerge.objects.get()
    assert str(record) == f"Anna Berg (record {gone.pk}) merged into record {kept.pk}"
    (line,) = [r.getMessage() for r in caplog.records if "merged" in r.getMessage()]
    assert f"(record {gone.pk}) into record {kept.pk}" in line
    assert "No." not in line


def test_the_merge_refusals_say_record_for_the_player_ids(event) -> None:
    tournament = event.tournament
    director = tournament.directors.get()
    here = PlayerFactory(name="Bo Lind")
    entry_register(event=event, player=here)
    stranger = PlayerFactory(name="Cai Holm")  # in no tournament of this one
    with pytest.raises(AppError) as missing:
        players_merge(tournament=tournament, keep=here, other=stranger, by=director)
    assert missing.value.message == f"No player record {stranger.pk} in Open."
    with translation.override("de"), pytest.raises(AppError) as missing:
        players_merge(tournament=tournament, keep=here, other=stranger, by=director)
    assert missing.value.message == f"Kein Spielereintrag {stranger.pk} in Open."
    elsewhere = tournament_create(name="Elsewhere", director=UserFactory())
    other_event = event_create(tournament=elsewhere, name="E", match_lengths=[1])
    both = PlayerFactory(name="Dana Eck")
    entry_register(event=event, player=both)
    entry_register(event=other_event, player=both)
    with pytest.raises(AppError) as not_yours:
        players_merge(tournament=tournament, keep=here, other=both, by=director)
    assert not_yours.value.code == "player-not-yours"
    assert f"Dana Eck (record {both.pk}) also plays" in not_yours.value.message
    assert "No." not in not_yours.value.message
    hidden = PlayerFactory(name="Eli Nord")  # only in another director's private tournament
    Tournament.objects.filter(pk=elsewhere.pk).update(is_public=False)
    entry_register(event=other_event, player=hidden)
    with pytest.raises(AppError) as unseen:
        players_merge(tournament=tournament, keep=hidden, other=here, by=director)
    assert unseen.value.message == f"No player record {hidden.pk}."
