"""The defects of issue 25, each kept as an explicit example of the model's invariants.

An example whose fix another helper owns is a strict xfail naming the owner until the
fix lands on main (then the lead sees it flip to XPASS and the mark goes).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.db.models import Q
from django.utils import translation

from matches.errors import AppError
from matches.models import Match
from tests.factories import PlayerFactory, UserFactory
from tests.model.world import (
    correction_true,
    expected_field,
    field_counts,
    matches_of_player,
    notice_corrected,
    notice_true,
    run_worker,
    winning_games,
)
from tournament import selectors
from tournament.models import Entry, Event, Player, PlayerLink, Round, Tournament
from tournament.selectors.final_places import event_final
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.event_settings import event_update
from tournament.services.events import event_create
from tournament.services.results import match_award, match_reopen_decision, match_result_enter
from tournament.services.rounds import event_next_round, round_start
from tournament.services.signup import entry_signup
from tournament.services.tournaments import tournament_create
from tournament.services.withdrawals import entry_withdraw, entry_withdraw_undo

pytestmark = pytest.mark.django_db


def xfail_owned(owner: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"issue 25: {owner} fixes")


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def tournament(director) -> Tournament:
    return tournament_create(name="Example Open", director=director, starts_on=dt.date.today())


def enter(event: Event, count: int) -> list[Entry]:
    return [entry_register(event=event, player=PlayerFactory()) for _ in range(count)]


def play(match: Match, side: int, notices: list | None = None) -> None:
    match.refresh_from_db()
    match_result_enter(match=match, games=winning_games(match, side))
    run_worker([] if notices is None else notices)


def ready(event: Event) -> list[Match]:
    return list(Match.objects.filter(event=event, status=Match.Status.READY).order_by("pk"))


def play_league_to_the_end(event: Event) -> None:
    for _ in range(20):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return
        for match in ready(event):
            play(match, 1 + match.pk % 2)
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return
        pending = event.rounds.filter(status=Round.Status.PENDING).order_by("number").first()
        if pending is not None:
            round_start(round_=pending)
        elif not ready(event):
            event_next_round(event=event)
        run_worker([])
    raise AssertionError(f"{event.name} did not finish")


def assert_field_everywhere(tournament: Tournament, event: Event, size: int) -> None:
    assert len(expected_field(event)) == size
    counts = field_counts(tournament, [event])[event.pk]
    assert counts == dict.fromkeys(counts, size), counts


# ---- the field and the places (model) ---------------------------------------------------


def test_a_swiss_withdrawal_before_the_draw_is_in_no_count_and_no_place(tournament):
    swiss = event_create(
        tournament=tournament, name="Swiss", format=Event.Format.SWISS, match_lengths=[1], rounds=3
    )
    entries = enter(swiss, 9)
    entry_withdraw(entry=entries[0])  # before the draw: never plays
    draw_make(event=swiss, seed=3)
    run_worker([])
    assert_field_everywhere(tournament, swiss, 8)
    play_league_to_the_end(swiss)
    sheet = event_final(swiss)
    assert sheet is not None
    assert entries[0].pk not in {row.entry.pk for row in sheet.rows}
    assert [row.place.best for row in sheet.rows][-1] <= 8
    assert_field_everywhere(tournament, swiss, 8)


def _elimination_swiss(tournament: Tournament, players: int) -> tuple[Event, list[Entry]]:
    elim = event_create(
        tournament=tournament,
        name="Elimination Swiss",
        format=Event.Format.SWISS_ELIMINATION,
        losses_to_eliminate=2,
        match_lengths=[1],
    )
    return elim, enter(elim, players)


def test_a_late_entry_to_an_elimination_swiss_is_in_the_field_and_paired(tournament):
    elim, _ = _elimination_swiss(tournament, 8)
    draw_make(event=elim, seed=5)
    round_start(round_=elim.rounds.get(number=1))
    for match in ready(elim):
        play(match, 1)
    late = entry_register(event=elim, player=PlayerFactory())  # between rounds 1 and 2
    assert_field_everywhere(tournament, elim, 9)  # the count left the late entry out
    event_next_round(event=elim)
    run_worker([])
    paired = Match.objects.filter(Q(entry1=late) | Q(entry2=late), event=elim, round__number=2)
    assert paired.exists(), "the late entry was never paired"
    assert_field_everywhere(tournament, elim, 9)


def test_an_elimination_swiss_withdrawal_before_the_draw_is_in_no_count_and_no_place(
    tournament,
):
    elim, entries = _elimination_swiss(tournament, 9)
    entry_withdraw(entry=entries[0])  # before the draw: never plays
    draw_make(event=elim, seed=3)
    run_worker([])
    assert_field_everywhere(tournament, elim, 8)
    counts = selectors.elimination_counts(elim)
    assert counts.alive + counts.out == 8, counts
    play_league_to_the_end(elim)
    sheet = event_final(elim)
    assert sheet is not None
    assert entries[0].pk not in {row.entry.pk for row in sheet.rows}
    best = sorted(row.place.best for row in sheet.rows)
    assert all(b == 1 + sum(1 for o in best if o < b) for b in best), best
    assert_field_everywhere(tournament, elim, 8)


def test_a_main_drawn_from_the_checked_in_counts_the_drawn_everywhere(tournament):
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    entries = enter(main, 16)
    for entry in entries[:14]:
        entry_check_in(entry=entry)
    assert_field_everywhere(tournament, main, 16)  # before the draw: all who hold a place
    draw_make(event=main, seed=1)
    run_worker([])
    assert_field_everywhere(tournament, main, 14)  # the public Main said 16


# ---- a withdrawal in a Main that feeds a Consolation (model) -------------------------


def _main_and_consolation(tournament: Tournament) -> tuple[Event, Event, list[Entry]]:
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
    )
    entries = enter(main, 8)
    draw_make(event=main, seed=7)
    round_start(round_=main.rounds.get(number=1))
    round_start(round_=consolation.rounds.get(number=1))
    run_worker([])
    return main, consolation, entries


def test_a_withdrawn_player_is_out_of_every_event_of_the_feed(tournament):
    main, consolation, _ = _main_and_consolation(tournament)
    first, second = ready(main)[:2]
    withdrawn = first.entry1
    before = matches_of_player(tournament, withdrawn.player_id)
    mail.outbox = []
    notices: list = []
    entry_withdraw(entry=withdrawn, reason="ill")
    run_worker(notices)
    play(second, 1, notices)  # another round-1 loser reaches the Consolation
    assert matches_of_player(tournament, withdrawn.player_id) == before
    assert (
        not Entry.objects.filter(event=consolation, player=withdrawn.player)
        .exclude(status=Entry.Status.WITHDRAWN)
        .exists()
    )
    fed = Match.objects.get(
        Q(entry1__player=second.entry2.player) | Q(entry2__player=second.entry2.player),
        event=consolation,
        round__number=1,
    )
    assert fed.status == Match.Status.COMPLETE
    assert fed.decision == Match.Decision.BYE
    assert not Match.objects.filter(event=consolation, decision=Match.Decision.WALKOVER).exists()
    assert all(notice_true(n) for n in notices)  # no email about a match never played


# ---- undo a withdrawal in one step (model) ---------------------------------------------


def test_an_undo_takes_back_every_walkover_and_feed_the_withdrawal_caused(tournament):
    main, consolation, _ = _main_and_consolation(tournament)
    first, second = ready(main)[:2]
    withdrawn = first.entry1
    entry_withdraw(entry=withdrawn)
    run_worker([])
    play(second, 1)  # the Consolation's opponent arrives
    # Nothing has been played by anyone the withdrawal touched: the undo works in one step.
    entry_withdraw_undo(entry=withdrawn)
    run_worker([])
    first.refresh_from_db()
    assert first.status == Match.Status.READY
    assert first.winner_id is None
    assert {first.entry1_id, first.entry2_id} >= {withdrawn.pk}
    assert not Match.objects.filter(
        Q(entry1__player=withdrawn.player) | Q(entry2__player=withdrawn.player),
        event=consolation,
    ).exists()
    second.refresh_from_db()
    loser = second.entry2 if second.winner_id == second.entry1_id else second.entry1
    waiting = Match.objects.get(
        Q(entry1__player=loser.player) | Q(entry2__player=loser.player), event=consolation
    )
    assert waiting.status != Match.Status.COMPLETE  # their bye or walkover is taken back


def test_an_undo_refused_names_the_match_really_played_and_what_to_do(tournament):
    main, _consolation, _ = _main_and_consolation(tournament)
    first = ready(main)[0]
    withdrawn, opponent = first.entry1, first.entry2
    entry_withdraw(entry=withdrawn)
    run_worker([])
    for match in ready(main):
        play(match, 1)
    round_start(round_=main.rounds.get(number=2))
    run_worker([])
    played_on = Match.objects.get(
        Q(entry1=opponent) | Q(entry2=opponent), event=main, round__number=2
    )
    play(played_on, 1)
    with pytest.raises(AppError) as refused:
        entry_withdraw_undo(entry=withdrawn)
    assert refused.value.detail.get("match") == played_on.pk
    assert f"match {played_on.pk}" in refused.value.message.lower()
    assert "correct" in refused.value.message.lower()


def test_reopening_a_walkover_whose_feed_bye_was_played_on_is_refused_in_the_language(
    tournament,
):
    """The Consolation line the withdrawal left empty gave its opponent a bye, and they
    played on: reopening the Main walkover names that match, in the director's language."""
    main, consolation, _ = _main_and_consolation(tournament)
    first, *others = ready(main)
    entry_withdraw(entry=first.entry1)
    run_worker([])
    for match in others:
        play(match, 1)
    for match in ready(consolation):
        play(match, 1)
    round_start(round_=consolation.rounds.get(number=2))
    run_worker([])
    (final,) = ready(consolation)
    match_result_enter(match=final, games=winning_games(final, 1)[:1])
    first.refresh_from_db()
    with translation.override("de"), pytest.raises(AppError) as refused:
        match_reopen_decision(match=first, reason="back")
    assert refused.value.code == "next-match-started"
    assert refused.value.detail.get("match") == final.pk
    assert "hat schon begonnen" in refused.value.message, refused.value.message


# ---- one person, one player (identity) -------------------------------------------------


def test_signing_up_for_a_second_event_with_the_same_email_joins_the_player(tournament):
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    swiss = event_create(
        tournament=tournament, name="Swiss", format=Event.Format.SWISS, match_lengths=[1]
    )
    for event in (main, swiss):
        event_update(event=event, signup=Event.Signup.OPEN)
    first = entry_signup(event=main, name="Anna Berg", email="anna@example.org")
    second = entry_signup(event=swiss, name="Anna Berg", email="anna@example.org")
    assert second.entry.player_id == first.entry.player_id
    assert PlayerLink.objects.filter(tournament=tournament).count() == 1
    assert Player.objects.filter(entries__event__tournament=tournament).distinct().count() == 1


# ---- notices (notices) ----------------------------------------------------------------


def test_reopening_a_walkover_corrects_the_next_match_email_it_caused(tournament):
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    enter(main, 4)
    draw_make(event=main, seed=2)
    round_start(round_=main.rounds.get(number=1))
    run_worker([])
    notices: list = []
    first, second = ready(main)
    match_award(decision="walkover", match=first, winner=first.entry1)
    run_worker(notices)
    play(second, 1, notices)
    round_start(round_=main.rounds.get(number=2))
    run_worker(notices)
    assert notices, "the final's players were told of their match"
    match_reopen_decision(match=first, reason="they turned up")
    run_worker(notices)
    final_notices = [n for n in notices if n.match_id != first.pk and n.match_id != second.pk]
    assert final_notices
    for notice in final_notices:
        assert notice_true(notice) or notice_corrected(notice), notice


@pytest.mark.parametrize(
    ("decision", "language"), [("walkover", ""), ("forfeit", ""), ("walkover", "ja")]
)
def test_a_walkover_or_forfeit_corrects_the_next_match_email_of_its_match(
    tournament, decision, language
):
    """A "your next match" about a match the director then decides without play is off:
    both players are told (a correction); the model counts it true no longer. The model
    reads the notices and corrections in the language they are written in."""
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    entries = enter(main, 4)
    Player.objects.filter(pk__in=[e.player_id for e in entries]).update(language=language)
    draw_make(event=main, seed=2)
    notices: list = []
    corrections: list = []
    round_start(round_=main.rounds.get(number=1))
    run_worker(notices, corrections=corrections)
    first = ready(main)[0]
    told = [n for n in notices if n.match_id == first.pk]
    assert len(told) == 2
    match_award(decision=decision, match=first, winner=first.entry1, reason="model")
    run_worker(notices, corrections=corrections)
    for notice in told:
        assert not notice_true(notice)
        assert notice_corrected(notice, corrections), notice
    for correction in corrections:
        assert correction_true(correction, notices)


def test_a_withdrawn_players_own_walkover_needs_no_correction(tournament):
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    enter(main, 4)
    draw_make(event=main, seed=2)
    notices: list = []
    corrections: list = []
    round_start(round_=main.rounds.get(number=1))
    run_worker(notices, corrections=corrections)
    first = ready(main)[0]
    entry_withdraw(entry=first.entry1, reason="ill")
    run_worker(notices, corrections=corrections)
    (own,) = [n for n in notices if n.match_id == first.pk and n.entry_id == first.entry1_id]
    (theirs,) = [n for n in notices if n.match_id == first.pk and n.entry_id == first.entry2_id]
    assert notice_true(own)  # they withdrew: they know
    assert not notice_corrected(own, corrections)
    assert not notice_true(theirs)
    assert notice_corrected(theirs, corrections)


# ---- the standings of a Swiss are the field (model) -------------------------------------


def test_swiss_standings_rows_are_the_field(tournament):
    swiss = event_create(
        tournament=tournament, name="Swiss", format=Event.Format.SWISS, match_lengths=[1], rounds=2
    )
    entries = enter(swiss, 9)
    entry_withdraw(entry=entries[4])
    draw_make(event=swiss, seed=11)
    assert len(selectors.standings(swiss)) == 8


def test_the_console_and_the_forfeit_form_say_the_field_and_the_feed(tournament, director, client):
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
    )
    entries = enter(main, 16)
    for entry in entries[:14]:
        entry_check_in(entry=entry)
    draw_make(event=main, seed=1)
    round_start(round_=main.rounds.get(number=1))
    client.force_login(director)
    page = client.get(f"/director/t/{tournament.slug}/events/{main.slug}/").content.decode()
    assert "14 in the field · 16 listed" in page
    match = ready(main)[0]
    page = client.get(f"/director/t/{tournament.slug}/matches/{match.pk}/").content.decode()
    assert "its loser still goes into the Consolation" in page


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_model_reads_a_table_notice_in_the_players_language(tournament, director, language):
    """The model's table invariant reads each email in its own language: a player who
    signed up in German or Japanese is told "an Tisch 3" / "テーブル 3", not "table 3"."""
    from tests.model.world import tells_table
    from tournament.services.tables import match_table_set

    main = event_create(tournament=tournament, name="Main", match_lengths=[3])
    entries = enter(main, 2)
    Player.objects.filter(pk__in=[e.player_id for e in entries]).update(language=language)
    draw_make(event=main, seed=1)
    round_start(round_=main.rounds.get(number=1))
    run_worker([])
    [match] = ready(main)
    match_table_set(match=match, table=3, by=director)
    run_worker([])
    match.refresh_from_db()
    told = {m.to[0] for m in mail.outbox if tells_table(m, match)}
    assert told == {e.player.email for e in entries}
    assert not any("table 3" in m.body for m in mail.outbox)


def test_the_model_asks_and_confirms_a_sign_up_in_two_page_languages() -> None:
    """The model's sign-up door in two steps: asked on a Japanese page (its mail in
    Japanese: the address is no player's yet), confirmed on a German one (the player's
    language from then on), asked again on an English page (the mail saying they are
    already in follows the player's German). The invariant checks each mail as it goes."""
    from tests.model.machine import PEOPLE, TournamentModel

    model = TournamentModel()
    try:
        name, email = PEOPLE[5]
        model.ask_to_sign_up(pick=0, person=5, language="ja")
        [asked] = mail.outbox
        assert asked.to == [email]
        assert asked.extra_headers["Content-Language"] == "ja"
        model.emails_in_the_recipients_language()
        assert len(model.unconfirmed) == 1
        model.confirm_from_the_mail(pick=0, language="de", again=False)
        assert not model.unconfirmed
        player = Player.objects.get(email__iexact=email)
        assert (player.name, player.language) == (name, "de")
        model.emails_in_the_recipients_language()
        sent = len(mail.outbox)
        model.ask_to_sign_up(pick=0, person=5, language="en")
        [already] = mail.outbox[sent:]
        assert already.extra_headers["Content-Language"] == "de"
        model.emails_in_the_recipients_language()
    finally:
        model.teardown()


def test_the_model_confirms_a_sign_up_on_a_page_nobody_chose_a_language_for() -> None:
    """Asked on a Danish page, confirmed where no offered language was chosen (no header,
    or French): the player's mails stay Danish. The rule itself checks the player's
    language after each confirmation."""
    from tests.model.machine import PEOPLE, TournamentModel

    model = TournamentModel()
    try:
        _name, email = PEOPLE[6]
        model.ask_to_sign_up(pick=0, person=6, language="da")
        model.confirm_from_the_mail(pick=0, language="fr", again=False)
        assert Player.objects.get(email__iexact=email).language == "da"
        model.emails_in_the_recipients_language()
    finally:
        model.teardown()


def test_the_model_keeps_a_collected_fee_and_the_fed_consolation_free() -> None:
    """A fee paid at the desk holds the event's fee until the payment is taken back; the
    fed Consolation refuses a fee and a payment. The invariant checks after each step."""
    from decimal import Decimal

    from tests.model.machine import TournamentModel

    model = TournamentModel()
    try:
        main, consolation = model.main, model.consolation
        model.enter_by_hand(pick=0, person=3)  # pick 0: the Main
        assert main.entries.count() >= 1
        model.set_entry_fee(pick=model.events.index(main), fee=Decimal(20))
        model.mark_paid(pick=model.events.index(main), method="cash")
        model.fees_kept_as_collected()
        model.set_entry_fee(pick=model.events.index(main), fee=Decimal(30))
        model.fees_kept_as_collected()
        main.refresh_from_db()
        assert main.entry_fee == Decimal(20)
        model.mark_paid(pick=model.events.index(main), method="")
        model.set_entry_fee(pick=model.events.index(main), fee=Decimal(30))
        main.refresh_from_db()
        assert main.entry_fee == Decimal(30)
        model.set_entry_fee(pick=model.events.index(consolation), fee=Decimal(10))
        model.fees_kept_as_collected()
        assert model.refusals["setting-locked"] == 1
        assert model.refusals["no-fee-here"] == 1
    finally:
        model.teardown()
