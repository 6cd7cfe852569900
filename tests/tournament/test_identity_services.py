"""One person, one player: a sign-up joins the player its email is, the player's own
link enters other events and withdraws (and takes it back) before the draw, bulk
approval, and the directors' "these two are one person" merge."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Q
from django.utils import timezone

from matches.errors import AppError, Invalid
from matches.models import Match
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournament.conftest import play, playable
from tournament.models import Entry, Event, Player, PlayerLink, PlayerMerge, RatingChange
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.events import event_create
from tournament.services.merge import players_merge
from tournament.services.ratings import ratings_recompute
from tournament.services.rounds import round_start
from tournament.services.signup import (
    entries_approve,
    entry_signup,
    entry_signup_from_link,
    entry_undo_by_player,
    entry_withdraw_by_player,
    signup_events_for_link,
)
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _forget_sent_notices():
    """Sign-up notices are sent once per entry id; ids are reused from test to test."""
    from tournament.pages.caching import clear_caches

    clear_caches()
    yield
    clear_caches()


def _open(event, **fields):
    Event.objects.filter(pk=event.pk).update(signup=Event.Signup.OPEN, **fields)
    event.refresh_from_db()
    return event


@pytest.fixture
def main(tournament):
    return _open(event_create(tournament=tournament, name="Main", match_lengths=[3]))


@pytest.fixture
def side(tournament):
    return _open(event_create(tournament=tournament, name="Side", match_lengths=[3]))


def test_the_same_email_for_a_second_event_is_the_same_player_with_one_link(main, side):
    first = entry_signup(event=main, name="Anna Berg", email="anna@example.org")
    second = entry_signup(event=side, name="Anna Berg", email="ANNA@example.org")
    assert second.entry.player_id == first.entry.player_id
    assert second.known
    assert not first.known
    assert second.link.pk == first.link.pk
    assert Player.objects.filter(email__iexact="anna@example.org").count() == 1
    assert PlayerLink.objects.filter(tournament=main.tournament).count() == 1
    assert set(
        Entry.objects.filter(player_id=first.entry.player_id).values_list("event_id", flat=True)
    ) == {main.pk, side.pk}


def test_a_contact_address_of_the_tournament_is_its_player_too(main, side):
    """A player whose email here is a contact (their own is elsewhere) is found by it."""
    owner = PlayerFactory(email="sue@example.org")
    entry_register(event=main, player=owner)  # entered by hand
    other = TournamentFactory(is_public=False)  # Sue plays in a stranger's private tournament
    hidden = PlayerFactory(email="hidden@example.org")
    entry_register(event=event_create(tournament=other, name="X", match_lengths=[3]), player=hidden)
    first = entry_signup(event=main, name="Hid Den", email="hidden@example.org")
    assert first.entry.player_id != hidden.pk  # never matched: this director must not see them
    assert first.link.email == "hidden@example.org"
    again = entry_signup(event=side, name="Hid Den", email="HIDDEN@example.org")
    assert again.entry.player_id == first.entry.player_id  # the contact identifies them here
    assert entry_signup(event=side, name="x", email="sue@example.org").entry.player_id == owner.pk


def test_a_returning_player_keeps_their_rating_and_record(main):
    past = TournamentFactory()
    old = event_create(tournament=past, name="Old", match_lengths=[1])
    anna = PlayerFactory(name="Anna Berg", email="anna@example.org", rating=1720.0)
    entry_register(event=old, player=anna)
    done = entry_signup(event=main, name="A. Berg", email="anna@example.org", club="New")
    anna.refresh_from_db()
    assert done.entry.player_id == anna.pk
    assert done.known
    assert (anna.name, anna.club, anna.rating) == ("Anna Berg", "Club Nord", 1720.0)


def test_from_the_link_a_player_enters_another_open_event_and_not_past_its_deadline(main, side):
    done = entry_signup(event=main, name="Anna Berg", email="anna@example.org")
    assert signup_events_for_link(done.link) == [side]
    entry_signup_from_link(link=done.link, event=side)
    assert signup_events_for_link(done.link) == []
    with pytest.raises(Invalid) as twice:
        entry_signup_from_link(link=done.link, event=side)
    assert twice.value.code == "already-signed-up"
    late = _open(
        event_create(tournament=main.tournament, name="Late", match_lengths=[3]),
        signup_deadline=timezone.now() - dt.timedelta(minutes=1),
    )
    assert late not in signup_events_for_link(done.link)
    with pytest.raises(Invalid) as closed:
        entry_signup_from_link(link=done.link, event=late)
    assert closed.value.code == "signup-closed"
    assert "deadline" in closed.value.message
    with pytest.raises(Invalid) as public:
        entry_signup(event=late, name="Anna Berg", email="anna@example.org")
    assert public.value.code == "signup-closed"


def test_the_players_own_withdrawal_is_taken_back_before_the_draw(main):
    Event.objects.filter(pk=main.pk).update(entry_cap=1)
    main.refresh_from_db()
    anna = entry_signup(event=main, name="Anna", email="anna@example.org")
    ben = entry_signup(event=main, name="Ben", email="ben@example.org")
    assert ben.entry.status == Entry.Status.WAITING
    entry_withdraw_by_player(link=anna.link, entry=anna.entry)
    assert Entry.objects.get(pk=ben.entry.pk).status == Entry.Status.REGISTERED  # moved up
    back = entry_undo_by_player(link=anna.link, entry=anna.entry)
    assert back.entry.status == Entry.Status.WAITING
    assert back.position == 1
    # Ben withdraws in turn: Anna moves up; his undo puts him on the list.
    entry_withdraw_by_player(link=ben.link, entry=ben.entry)
    assert Entry.objects.get(pk=anna.entry.pk).status == Entry.Status.REGISTERED
    with pytest.raises(AppError):  # not his entry
        entry_undo_by_player(link=ben.link, entry=anna.entry)


def test_a_pending_sign_up_taken_back_awaits_approval_again(main):
    Event.objects.filter(pk=main.pk).update(signup=Event.Signup.APPROVAL)
    main.refresh_from_db()
    anna = entry_signup(event=main, name="Anna", email="anna@example.org")
    entry_withdraw_by_player(link=anna.link, entry=anna.entry)
    assert entry_undo_by_player(link=anna.link, entry=anna.entry).entry.status == "pending"


def test_a_directors_withdrawal_or_a_drawn_event_is_not_the_players_to_undo(main, enter):
    anna = entry_signup(event=main, name="Anna", email="anna@example.org")
    entry_withdraw(entry=anna.entry)
    with pytest.raises(Invalid) as director:
        entry_undo_by_player(link=anna.link, entry=anna.entry)
    assert director.value.code == "not-yours"
    ben = entry_signup(event=main, name="Ben", email="ben@example.org")
    enter(main, 3)
    entry_withdraw_by_player(link=ben.link, entry=ben.entry)
    draw_make(event=main, seed=1)
    with pytest.raises(Invalid) as drawn:
        entry_undo_by_player(link=ben.link, entry=ben.entry)
    assert drawn.value.code == "event-drawn"


def test_bulk_approve_takes_the_ticked_pending_sign_ups_in_order(main):
    Event.objects.filter(pk=main.pk).update(signup=Event.Signup.APPROVAL, entry_cap=2)
    main.refresh_from_db()
    signed = [entry_signup(event=main, name=f"P{n}", email=f"p{n}@example.org") for n in range(3)]
    ids = [s.entry.pk for s in signed]
    assert entries_approve(event=main, entry_ids=ids) == 3
    statuses = [Entry.objects.get(pk=i).status for i in ids]
    assert statuses == ["registered", "registered", "waiting"]
    assert entries_approve(event=main, entry_ids=ids) == 0
    with pytest.raises(Invalid):
        entries_approve(event=main, entry_ids=[])


def _two_records_who_played(tournament):
    """Anna signed up twice (a typo in her email), once for each event, and played both."""
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    swiss = event_create(
        tournament=tournament, name="Swiss", match_lengths=[1], format=Event.Format.SWISS
    )
    anna = PlayerFactory(name="Anna Berg", email="anna@example.org")
    anna2 = PlayerFactory(name="Anna Berg", email="anna@exmaple.org")
    entry_register(event=main, player=anna)
    entry_register(event=swiss, player=anna2)
    for event in (main, swiss):
        for _ in range(3):
            entry_register(event=event, player=PlayerFactory())
        draw_make(event=event, seed=3)
        round_start(round_=event.rounds.order_by("number").first())
        for match in playable(event):
            play(match, 1)
    ratings_recompute()
    return main, swiss, anna, anna2


def test_merge_moves_entries_results_link_and_recomputes_ratings(tournament):
    _main, _swiss, anna, anna2 = _two_records_who_played(tournament)
    link2 = PlayerLink.objects.get(tournament=tournament, player=anna2)
    moved_entry = Entry.objects.get(player=anna2)
    director = tournament.directors.first()
    record = players_merge(tournament=tournament, keep=anna, other=anna2, by=director)
    assert not Player.objects.filter(pk=anna2.pk).exists()
    assert Entry.objects.get(pk=moved_entry.pk).player_id == anna.pk
    assert PlayerLink.objects.filter(tournament=tournament, player=anna).count() == 1
    assert not PlayerLink.objects.filter(pk=link2.pk).exists() or (
        PlayerLink.objects.get(pk=link2.pk).player_id == anna.pk
    )
    # Both events' matches are hers now; her rating history counts both.
    played = Match.objects.filter(status=Match.Status.COMPLETE, is_bye=False)
    assert (
        played.filter(entry1__player=anna).count() + played.filter(entry2__player=anna).count() == 2
    )
    assert RatingChange.objects.filter(player=anna).count() == 2
    assert (record.removed_id, record.removed_name, record.by) == (anna2.pk, "Anna Berg", director)
    assert record.moved["entries"] == [moved_entry.pk]
    assert PlayerMerge.objects.filter(kept=anna).count() == 1


def test_the_other_records_link_opens_the_kept_players_link(tournament):
    from matches.access import link_by_key

    _main, _swiss, anna, anna2 = _two_records_who_played(tournament)
    old_key = PlayerLink.objects.get(tournament=tournament, player=anna2).key
    players_merge(tournament=tournament, keep=anna, other=anna2)
    link, _ = link_by_key(key=old_key)
    assert link.player_id == anna.pk


def test_merge_is_refused_when_both_are_drawn_in_one_event(tournament):
    event = event_create(tournament=tournament, name="Main", match_lengths=[1])
    a, b = PlayerFactory(), PlayerFactory()
    for p in (a, b, PlayerFactory(), PlayerFactory()):
        entry_register(event=event, player=p)
    draw_make(event=event, seed=2)
    with pytest.raises(Invalid) as caught:
        players_merge(tournament=tournament, keep=a, other=b)
    assert caught.value.code == "both-drawn"
    assert event.name in caught.value.message
    assert Player.objects.filter(pk=b.pk).exists()  # nothing changed
    with pytest.raises(Invalid) as same:
        players_merge(tournament=tournament, keep=a, other=a)
    assert same.value.code == "same-player"


def test_merge_before_the_draw_keeps_the_entry_that_holds_the_place(tournament, main):
    Event.objects.filter(pk=main.pk).update(entry_cap=1)
    a, b = PlayerFactory(), PlayerFactory()
    held = entry_register(event=main, player=b)
    waiting = entry_register(event=main, player=a)
    Entry.objects.filter(pk=waiting.pk).update(
        status=Entry.Status.WAITING, waiting_since=timezone.now()
    )
    record = players_merge(tournament=tournament, keep=a, other=b)
    assert record.moved["dropped"] == [waiting.pk]
    assert Entry.objects.get(pk=held.pk).player_id == a.pk
    assert Entry.objects.get(pk=held.pk).status == Entry.Status.REGISTERED


def test_merge_of_a_record_in_another_directors_tournament_is_refused(tournament):
    event = event_create(tournament=tournament, name="Main", match_lengths=[1])
    a, b = PlayerFactory(), PlayerFactory()
    entry_register(event=event, player=a)
    entry_register(event=event, player=b)
    elsewhere = TournamentFactory(director=UserFactory())
    entry_register(event=event_create(tournament=elsewhere, name="E", match_lengths=[1]), player=b)
    with pytest.raises(AppError) as caught:
        players_merge(tournament=tournament, keep=a, other=b, by=tournament.directors.first())
    assert caught.value.code == "player-not-yours"
    # The other way round is theirs to do: b stays, a (only here) goes.
    players_merge(tournament=tournament, keep=b, other=a, by=tournament.directors.first())
    assert not Player.objects.filter(pk=a.pk).exists()


def test_a_merge_keeps_what_names_the_record_that_goes(tournament, main):
    """The audit of an earlier merge into the record that goes, the notices sent to it and
    the pairs the director keeps apart follow it to the kept record (they were deleted
    with it: an accepted merge vanished from the audit, a correction owed was lost)."""
    from tournament.models import ForbiddenPair, Notice
    from tournament.services.forbidden_pairs import forbidden_pair_add

    swiss = _open(
        event_create(
            tournament=tournament, name="Swiss", match_lengths=[1], format=Event.Format.SWISS
        )
    )
    first, second, third, rival = (PlayerFactory(name=n) for n in ("A", "B", "C", "R"))
    for player in (first, second, rival):
        entry_register(event=swiss, player=player)
    forbidden_pair_add(event=swiss, players=[second.pk, rival.pk], strength="avoid", rounds="all")
    forbidden_pair_add(
        event=swiss, players=[first.pk, rival.pk], strength="absolute", rounds="first"
    )
    for player in (third, PlayerFactory(), PlayerFactory(), PlayerFactory()):
        entry_register(event=main, player=player)
    draw_make(event=main, seed=1)
    match = Match.objects.get(Q(entry1__player=third) | Q(entry2__player=third), event=main)
    own, opponent = (
        (match.entry1, match.entry2)
        if match.entry1.player_id == third.pk
        else (match.entry2, match.entry1)
    )
    Notice.objects.create(
        match=match,
        player=third,
        entry_id_sent=own.pk,
        opponent_entry_id=opponent.pk,
        opponent_name=opponent.player.name,
        sent_at=timezone.now(),
    )
    players_merge(tournament=tournament, keep=second, other=third)
    assert Notice.objects.get().player_id == second.pk  # its correction is still owed
    players_merge(tournament=tournament, keep=first, other=second)  # the kept one goes
    assert PlayerMerge.objects.filter(tournament=tournament).count() == 2
    assert set(PlayerMerge.objects.values_list("kept_id", flat=True)) == {first.pk}
    assert Notice.objects.get().player_id == first.pk
    (pair,) = ForbiddenPair.objects.filter(event=swiss)
    assert (pair.player_a_id, pair.player_b_id) == tuple(sorted((first.pk, rival.pk)))
    assert (pair.strength, pair.rounds) == ("absolute", "all")  # the stricter of the two
