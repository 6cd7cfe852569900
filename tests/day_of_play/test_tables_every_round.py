"""Tables for every round, not only the draw's: a round the director starts later (a
Swiss round 2 and 3) gets its tables as it starts when the tournament numbers tables
(or the director ticks the box), and every "your match" notice names the table; tables
numbered after the players were told their match are emailed to them."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournament.models import Event, Round
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.results import match_award
from tournament.services.rounds import event_next_round, round_start
from tournament.services.tables import match_table_set, round_tables_assign

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def swiss(players: int = 8, *, tables: bool = True):  # type: ignore[no-untyped-def]
    director = UserFactory(username="td")
    t = TournamentFactory(name="Swiss Weekend", slug="sw", director=director)
    event = event_create(
        tournament=t, name="Swiss", format=Event.Format.SWISS, match_lengths=[3], rounds=3
    )
    for i in range(players):
        entry_register(
            event=event, player=PlayerFactory(name=f"Swiss {i + 1}", email=f"s{i + 1}@example.org")
        )
    draw_make(event=event, method="rating", by=director, tables=tables)
    return director, event


def play_out(rnd: Round, capture) -> None:  # type: ignore[no-untyped-def]
    """Every open match of ``rnd`` decided (the first player wins by forfeit)."""
    with capture(execute=True):
        for match in rnd.matches.filter(status=Match.Status.READY).select_related("entry1"):
            match_award(decision="forfeit", match=match, winner=match.entry1)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETE


def table_of(subject: str) -> int | None:
    found = re.search(r"table (\d+)\)$", subject)
    return int(found.group(1)) if found else None


def test_the_later_rounds_of_a_swiss_open_at_tables_and_their_notices_name_them(
    django_capture_on_commit_callbacks,
) -> None:
    director, event = swiss()
    first = event.rounds.get(number=1)
    assert sorted(first.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_=first, by=director)
    for number in (2, 3):
        play_out(event.rounds.get(number=number - 1), django_capture_on_commit_callbacks)
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            rnd = event_next_round(event=event, by=director)  # the tournament numbers tables
        assert rnd.number == number
        tables = sorted(rnd.matches.exclude(is_bye=True).values_list("table", flat=True))
        assert tables == [1, 2, 3, 4], tables
        told = [m for m in mail.outbox if m.subject.startswith("Your next match")]
        assert len(told) == 8
        for message in told:
            table = table_of(message.subject)
            assert table in tables, message.subject
            assert f"  at table {table}\n" in message.body


def test_a_director_may_start_a_round_without_tables_and_number_them_after(
    django_capture_on_commit_callbacks,
) -> None:
    director, event = swiss(tables=False)
    first = event.rounds.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_=first, by=director)  # the tournament numbers no tables
    assert not first.matches.filter(table__isnull=False).exists()
    told = [m for m in mail.outbox if m.subject.startswith("Your next match")]
    assert len(told) == 8
    assert all(table_of(m.subject) is None for m in told)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        given = round_tables_assign(round_=first, by=director)
    assert [m.table for m in given] == [1, 2, 3, 4]
    notices = sorted(mail.outbox, key=lambda m: m.to[0])
    assert len(notices) == 8
    for match in given:
        for entry, other in ((match.entry1, match.entry2), (match.entry2, match.entry1)):
            [notice] = [m for m in notices if m.to == [entry.player.email]]
            assert notice.subject.startswith(f"Table {match.table}: your match against")
            assert other.player.name in notice.subject
            assert f"is at table {match.table}." in notice.body
            assert "/r/" in notice.body
    # Moving one match to another table tells its two players again; the same table does not.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        match_table_set(match=given[0], table=9, by=director)
        match_table_set(match=given[1], table=given[1].table, by=director)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [given[0].entry1.player.email, given[0].entry2.player.email]
    )
    assert all(m.subject.startswith("Table 9:") for m in mail.outbox)
    # Round 2 started with tables=False stays without; round 3 with tables=True gets them.
    play_out(first, django_capture_on_commit_callbacks)
    rnd = event_next_round(event=event, by=director, tables=False)
    assert not rnd.matches.filter(table__isnull=False).exists()
    play_out(rnd, django_capture_on_commit_callbacks)
    rnd = event_next_round(event=event, by=director, tables=True)
    assert rnd.matches.exclude(is_bye=True).filter(table__isnull=True).count() == 0


def test_a_table_given_before_the_round_starts_sends_nothing_of_its_own(
    django_capture_on_commit_callbacks,
) -> None:
    director, event = swiss(tables=False)
    first = event.rounds.get(number=1)
    match = first.matches.order_by("slot").first()
    with django_capture_on_commit_callbacks(execute=True):
        match_table_set(match=match, table=4, by=director)
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round_=first, by=director, tables=False)
    told = {m.to[0]: m.subject for m in mail.outbox}
    assert table_of(told[match.entry1.player.email]) == 4
    assert not any(s.startswith("Table ") for s in told.values())


def test_the_console_starts_swiss_round_1_and_the_next_round_with_tables(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    director, event = swiss(tables=False)
    client.force_login(director)
    url = f"/director/t/sw/events/{event.slug}/"
    page = client.get(url).content.decode()
    first = event.rounds.get(number=1)
    # Round 1 has its own Start (with a clear hint), not "Start the next round".
    assert f'action="{url}rounds/{first.pk}/start/"' in page
    assert "Round 1 is paired by the draw." in page
    assert "Start the next round" not in page
    assert 'name="tables" value="1" checked' not in page  # no tables numbered yet
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            f"{url}rounds/{first.pk}/start/", {"tables": ["0", "1"]}, follow=True
        ).content.decode()
    assert "Round 1 started at tables 1, 2, 3, 4" in done
    assert sorted(first.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    assert f"{url}rounds/{first.pk}/start/" not in done
    play_out(first, django_capture_on_commit_callbacks)
    page = client.get(url).content.decode()
    assert "Start round 2" in page
    assert "paired from the standings now" in page
    assert 'name="tables" value="1" checked' in page  # the tournament numbers tables now
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(f"{url}rounds/next/", {"tables": ["0", "1"]}, follow=True)
    assert "Round 2 started at tables 1, 2, 3, 4" in done.content.decode()
    told = [m for m in mail.outbox if m.subject.startswith("Your next match")]
    assert len(told) == 8
    assert all(table_of(m.subject) for m in told)
    # Unticked: round 3 opens without tables.
    play_out(event.rounds.get(number=2), django_capture_on_commit_callbacks)
    client.post(f"{url}rounds/next/", {"tables": ["0"]})
    third = event.rounds.get(number=3)
    assert not third.matches.filter(table__isnull=False).exists()


def test_the_api_starts_a_round_with_or_without_tables(django_capture_on_commit_callbacks) -> None:
    director, event = swiss(tables=False)
    api = APIClient()
    api.force_authenticate(director)
    first = event.rounds.get(number=1)
    bad = api.post(f"/api/rounds/{first.pk}/start/", {"tables": "perhaps"}, format="json")
    assert bad.status_code == 400
    assert "tables" in str(bad.json())
    ok = api.post(f"/api/rounds/{first.pk}/start/", {"tables": True}, format="json")
    assert ok.status_code == 200, ok.json()
    assert sorted(first.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    play_out(first, django_capture_on_commit_callbacks)
    nxt = api.post(f"/api/events/{event.pk}/rounds/next/", {}, format="json")
    assert nxt.status_code == 201, nxt.json()
    assert all(m["table"] for m in nxt.json()["matches"] if not m.get("is_bye"))


def test_a_match_that_opens_by_itself_is_told_its_table_once(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    """Each match starting as soon as both players are known, tables numbered at the
    draw: a round-2 match opens with a result and gets the lowest free table; its two
    players learn the table exactly once (in the ready notice, or a table notice after;
    the correction of the forfeited match's notice lists what stands now as well)."""
    from tests.day_of_play.test_tables_at_draw import undrawn_event

    weekend = undrawn_event("auto")
    client.force_login(weekend.director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/director/t/links/events/main/draw/", {"method": "rating", "tables": "on"})
    first = list(Match.objects.filter(event=weekend.main, round__number=1).order_by("slot"))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for match in first[2:4]:
            match_award(decision="forfeit", match=match, winner=match.entry1)
    opened = Match.objects.get(event=weekend.main, round__number=2, slot=1)
    assert opened.status == Match.Status.READY
    assert opened.table is not None
    for entry in (opened.entry1, opened.entry2):
        if not entry.player.email:
            continue
        naming = [
            m
            for m in mail.outbox
            if m.to == [entry.player.email]
            and f"table {opened.table}" in m.body
            and not m.subject.startswith("Correction")
        ]
        assert len(naming) == 1, [m.subject for m in mail.outbox if m.to == [entry.player.email]]
