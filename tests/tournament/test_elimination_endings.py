"""The endings and options of an elimination Swiss through the services: the three-player
playoff, the Wisconsin knockout, players kept one more round to avoid a bye, and cashing
on the last loss (the players out in the round the field reached the places paid share)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest

from matches.errors import Invalid
from matches.models import Match
from tests.factories import PlayerFactory
from tournament.formats.places import Place
from tournament.models import Entry, Event, PairingNote, Round
from tournament.selectors import elimination_counts, elimination_records, standings
from tournament.selectors.final_places import event_final
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.event_settings import event_update
from tournament.services.events import event_create
from tournament.services.forbidden_pairs import forbidden_pair_add
from tournament.services.rounds import event_end, event_next_round
from tournament.services.withdrawals import entry_withdraw

from .conftest import play, playable

pytestmark = pytest.mark.django_db

#: Picks a match's winning side (1 or 2) from the match and the records before it.
type Chooser = Callable[[Match, dict], int]


def play_round(event: Event, choose: Chooser) -> Round:
    records = elimination_records(event)
    round_ = event_next_round(event=event)
    for match in playable(event):
        play(match, choose(match, records))
    return round_


def upper_wins(match: Match, records: dict) -> int:
    return 1


def three_alive_on_two_one(tournament, enter, **settings) -> tuple[Event, list[Entry]]:
    """Four players, out at 3: after three rounds three of them are on 2-1, the fourth
    out at 0-3. The three-player playoff is on unless ``settings`` say otherwise."""
    settings = {"three_player_playoff": True, **settings}
    event = event_create(
        tournament=tournament,
        name="E",
        format="swiss-elimination",
        losses_to_eliminate=3,
        match_lengths=[1],
        entry_fee=Decimal(10),
        payout_split=[50, 30, 20],
        **settings,
    )
    entries = enter(event, 4)
    Entry.objects.filter(event=event).update(paid=Entry.Payment.CASH)
    draw_make(event=event, method="manual")
    play_round(event, upper_wins)  # two on 1-0, two on 0-1

    def second(match: Match, records: dict) -> int:
        # Between the two on 1-0 the lower wins; between the two on 0-1 the upper.
        return 2 if records[match.entry1_id].wins else 1

    play_round(event, second)  # 2-0, 1-1, 1-1, 0-2

    def third(match: Match, records: dict) -> int:
        # The player on 2-0 loses; the one on 0-2 loses.
        one, two = records[match.entry1_id], records[match.entry2_id]
        if one.wins == 2 or one.losses == 2:
            return 2
        if two.wins == 2 or two.losses == 2:
            return 1
        raise AssertionError("round 3 pairs 2-0 with 1-1 and 1-1 with 0-2")

    play_round(event, third)
    records = elimination_records(event)
    alive = sorted((r.wins, r.losses) for r in records.values() if r.alive)
    assert alive == [(2, 1), (2, 1), (2, 1)]
    event.refresh_from_db()
    return event, entries


def test_the_three_player_playoff_is_an_option_off_by_default(tournament):
    """Off by default, the event ends as the format says: at most one player under the
    loss limit (the playoff would leave three); the director turns it on."""
    event = event_create(
        tournament=tournament, name="Plain", format="swiss-elimination", match_lengths=[1]
    )
    assert not event.three_player_playoff


def test_three_players_with_identical_records_play_the_three_player_playoff(tournament, enter):
    event, entries = three_alive_on_two_one(tournament, enter)
    assert event.three_player_playoff
    before = elimination_records(event)
    alive = [pk for pk, r in before.items() if r.alive]
    first = event_next_round(event=event)
    event.refresh_from_db()
    assert first.bracket == Round.Bracket.PLAYOFF
    assert first.number == 4  # numbered on from the Swiss rounds
    assert str(first) == "Playoff 1"
    a, b, c = event.playoff["seeds"]
    assert sorted(event.playoff["seeds"]) == sorted(alive)
    assert [row.entry.pk for row in standings(event) if row.entry.pk in alive] == [a, b, c]
    assert event.playoff["kind"] == "three-player"
    note = PairingNote.objects.get(event=event, round_number=4)
    assert "three-player playoff" in note.text
    (match,) = Match.objects.filter(round=first)
    assert (match.entry1_id, match.entry2_id) == (a, b)  # the first two seeds meet
    play(match, 1)  # a beats b
    second = event_next_round(event=event)
    (match,) = Match.objects.filter(round=second)
    assert (match.entry1_id, match.entry2_id) == (b, c)  # the loser meets the third
    play(match, 1)  # b beats c: c is 3rd
    final = event_next_round(event=event)
    assert str(final) == "Playoff final"
    (match,) = Match.objects.filter(round=final)
    assert (match.entry1_id, match.entry2_id) == (a, b)  # the two winners
    play(match, 2)  # b, who lost match 1, wins the event
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert event.champion_id == b
    assert elimination_records(event) == before  # the playoff leaves the records
    sheet = event_final(event)
    assert sheet is not None
    places = {row.entry.pk: row.place for row in sheet.rows}
    assert (places[b], places[a], places[c]) == (Place(1, 1), Place(2, 2), Place(3, 3))
    out = next(e.pk for e in entries if e.pk not in alive)
    assert places[out] == Place(4, 4)
    prizes = {row.entry.pk: row.prize for row in sheet.rows}
    assert (prizes[b], prizes[a], prizes[c]) == (Decimal(20), Decimal(12), Decimal(8))
    rows = {row.entry.pk: row for row in standings(event)}
    assert (rows[b].playoff, rows[a].playoff, rows[c].playoff) == ("won", "out", "out")
    assert rows[b].status == "alive"  # the Swiss status stays
    with pytest.raises(Invalid) as err:
        event_next_round(event=event)
    assert err.value.code == "event-finished"


def test_without_the_playoff_the_swiss_goes_on(tournament, enter):
    event, _ = three_alive_on_two_one(tournament, enter, three_player_playoff=False)
    round_ = event_next_round(event=event)
    assert round_.bracket == Round.Bracket.MAIN
    assert Match.objects.filter(round=round_, is_bye=True).count() == 1
    event.refresh_from_db()
    assert event.playoff == {}


def test_the_playoff_keeps_a_forbidden_pair_out_of_its_first_match(tournament, enter):
    event, _ = three_alive_on_two_one(tournament, enter)
    alive = [row.entry for row in standings(event) if row.status == "alive"]
    forbidden_pair_add(event=event, players=[alive[0].player_id, alive[1].player_id])
    first = event_next_round(event=event)
    (match,) = Match.objects.filter(round=first)
    assert {match.entry1_id, match.entry2_id} == {alive[0].pk, alive[2].pk}


def test_the_director_ends_the_event_during_the_playoff(tournament, enter):
    event, _ = three_alive_on_two_one(tournament, enter)
    first = event_next_round(event=event)
    (match,) = Match.objects.filter(round=first)
    play(match, 1)
    event_end(event=event)
    event.refresh_from_db()
    sheet = event_final(event)
    assert sheet is not None
    a, b, c = event.playoff["seeds"]
    places = {row.entry.pk: row.place for row in sheet.rows}
    # Nobody is out of the playoff yet: its three players share the top places.
    assert places[a] == places[b] == places[c] == Place(1, 3)
    assert event.champion_id is None


def wisconsin_event(tournament, count: int, **settings) -> tuple[Event, list[Entry]]:
    event = event_create(
        tournament=tournament,
        name="W",
        format="swiss-elimination",
        match_lengths=[1],
        entry_fee=Decimal(10),
        payout_split=[40, 30, 15, 15],
        **settings,
    )
    entries = [entry_register(event=event, player=PlayerFactory()) for _ in range(count)]
    Entry.objects.filter(event=event).update(paid=Entry.Payment.CASH)
    draw_make(event=event, method="manual")
    return event, entries


def test_the_wisconsin_ending_plays_a_knockout_seeded_by_losses(tournament):
    event, entries = wisconsin_event(tournament, 8, losses_to_eliminate=2, wisconsin_after_rounds=2)
    play_round(event, upper_wins)
    play_round(event, upper_wins)
    records = elimination_records(event)
    alive = {pk for pk, r in records.items() if r.alive}
    assert len(alive) == 6  # two on 2-0, four on 1-1; two out on 0-2
    knockout = event_next_round(event=event)
    event.refresh_from_db()
    assert knockout.bracket == Round.Bracket.PLAYOFF
    assert event.playoff["kind"] == "knockout"
    seeds = event.playoff["seeds"]
    assert set(seeds) == alive
    assert [records[e].losses for e in seeds] == [0, 0, 1, 1, 1, 1]  # by losses
    first = list(Match.objects.filter(round=knockout).order_by("slot"))
    assert len(first) == 4
    byes = [m for m in first if m.is_bye]
    # Six players in an eight-line bracket: the two top seeds have the byes.
    assert sorted(m.entry1_id for m in byes) == sorted(seeds[:2])
    assert str(knockout) == "Knockout: Quarter-final"
    rounds = 1
    while event.status != Event.Status.FINISHED:
        for match in playable(event):
            play(match, 2)  # the lower line wins: upsets all the way
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        event_next_round(event=event)
        rounds += 1
        event.refresh_from_db()
    assert rounds == 3
    assert elimination_records(event) == records
    sheet = event_final(event)
    assert sheet is not None
    places = {row.entry.pk: row.place for row in sheet.rows}
    assert places[event.champion_id] == Place(1, 1)
    assert sorted(str(places[e]) for e in seeds) == [
        "1st",
        "2nd",
        "3rd-4th",
        "3rd-4th",
        "5th-6th",
        "5th-6th",
    ]
    out = [e.pk for e in entries if e.pk not in alive]
    assert all(places[e] == Place(7, 8) for e in out)
    with pytest.raises(Invalid) as err:
        event_next_round(event=event)
    assert err.value.code == "event-finished"


def test_the_wisconsin_setting_is_checked_and_shown_until_the_playoff(tournament):
    for bad in (0, 51, True, "3"):
        with pytest.raises(Invalid) as err:
            event_create(
                tournament=tournament,
                name="E",
                format="swiss-elimination",
                wisconsin_after_rounds=bad,
            )
        assert err.value.detail["field"] == "wisconsin_after_rounds"
    event, _ = wisconsin_event(tournament, 4, wisconsin_after_rounds=3)
    event_update(event=event, wisconsin_after_rounds=1)  # allowed while the Swiss runs
    play_round(event, upper_wins)
    event_next_round(event=event)  # the knockout
    with pytest.raises(Invalid) as err:
        event_update(event=event, wisconsin_after_rounds=5)
    assert err.value.code == "setting-locked"
    with pytest.raises(Invalid) as err:
        event_update(event=event, three_player_playoff=not event.three_player_playoff)
    assert err.value.code == "setting-locked"


def odd_field_after_a_round(tournament, enter) -> tuple[Event, list[Entry]]:
    """An elimination Swiss (out at 2) played until, after a round in which someone
    went out, an odd number of players is alive."""
    event = event_create(
        tournament=tournament,
        name="K",
        format="swiss-elimination",
        losses_to_eliminate=2,
        match_lengths=[1],
        three_player_playoff=False,
        places_paid=4,
        playoff_switch=True,
    )
    entries = enter(event, 10)
    draw_make(event=event, method="manual")
    for _ in range(8):
        round_ = play_round(event, upper_wins)
        records = elimination_records(event)
        alive = sum(r.alive for r in records.values())
        went_out = [pk for pk, r in records.items() if r.eliminated_in_round == round_.number]
        if alive % 2 and went_out and alive > 4:
            return event, entries
    raise AssertionError("no odd field after a round with players out")


def test_players_out_in_the_last_round_are_kept_to_avoid_a_bye(tournament, enter):
    event, entries = odd_field_after_a_round(tournament, enter)
    records = elimination_records(event)
    last = event.rounds.order_by("-number").first()
    assert last is not None
    went_out = [e for e in entries if records[e.pk].eliminated_in_round == last.number]
    earlier = [e for e in entries if records[e.pk].eliminated_in_round not in (None, last.number)]
    alive = [e for e in entries if records[e.pk].alive]
    # Only those out in the last round: one out earlier, else (none yet) one still in.
    # (entries[0] was the fallback once, and it was out in the last round on some draws.)
    with pytest.raises(Invalid) as err:
        event_next_round(event=event, keep=[e.player_id for e in (earlier or alive)[:1]])
    assert err.value.detail["field"] == "keep"
    if len(went_out) >= 2:
        with pytest.raises(Invalid) as err:  # two kept would leave a bye again
            event_next_round(event=event, keep=[e.player_id for e in went_out[:2]])
        assert err.value.detail["field"] == "keep"
    kept = went_out[0]
    round_ = event_next_round(event=event, keep=[kept.player_id])
    matches = list(Match.objects.filter(round=round_))
    assert not any(m.is_bye for m in matches)  # nobody has a bye
    seated = {e for m in matches for e in (m.entry1_id, m.entry2_id)}
    assert kept.pk in seated
    note = PairingNote.objects.filter(event=event, round_number=round_.number).last()
    assert note is not None
    assert "kept 1 player" in note.text
    for match in playable(event):
        play(match, 1 if match.entry1_id == kept.pk else 2)  # the kept player wins
    after = elimination_records(event)
    # Still out, in the same round, with one more win (which places them better among
    # those out with them).
    assert after[kept.pk].eliminated_in_round == last.number
    assert after[kept.pk].wins == records[kept.pk].wins + 1


def test_keep_is_for_a_swiss_elimination_only(tournament, enter):
    event = event_create(tournament=tournament, name="S", format="swiss", match_lengths=[1])
    entries = enter(event, 4)
    draw_make(event=event, method="manual")
    with pytest.raises(Invalid) as err:
        event_next_round(event=event, keep=[entries[0].player_id])
    assert err.value.detail["field"] == "keep"


def test_players_out_in_the_same_round_share_with_equal_records(tournament, enter):
    """Every player alive plays every round (a bye is a win), so the players out in one
    round have the same record and share their places: those out in the round the field
    dropped to the places paid share the paid places left, with or without the option."""
    event = event_create(
        tournament=tournament,
        name="C",
        format="swiss-elimination",
        losses_to_eliminate=2,
        match_lengths=[1],
        places_paid=4,
        playoff_switch=True,
        entry_fee=Decimal(10),
        payout_split=[40, 30, 20, 10],
    )
    enter(event, 10)
    Entry.objects.filter(event=event).update(paid=Entry.Payment.CASH)
    draw_make(event=event, method="manual")
    while event.status != Event.Status.FINISHED:
        play_round(event, upper_wins)
        event.refresh_from_db()
    records = elimination_records(event)
    sheet = event_final(event)
    assert sheet is not None
    by_round: dict[int, set[Place]] = {}
    for row in sheet.rows:
        out = records[row.entry.pk].eliminated_in_round
        if out is not None:
            by_round.setdefault(out, set()).add(row.place)
    assert all(len(places) == 1 for places in by_round.values())


def test_cashing_on_the_last_loss_shares_the_paid_places_left(tournament, enter):
    """A player who withdraws in the round the field drops to the places paid is out in
    it with a better record than those who lost their last life there: by record they
    take the paid place left alone; with cashing on the last loss, all of them share it."""
    event = event_create(
        tournament=tournament,
        name="C",
        format="swiss-elimination",
        losses_to_eliminate=2,
        match_lengths=[1],
        places_paid=4,
        playoff_switch=True,
        entry_fee=Decimal(10),
        payout_split=[40, 30, 20, 10],
    )
    enter(event, 8)
    Entry.objects.filter(event=event).update(paid=Entry.Payment.CASH)
    draw_make(event=event, method="manual")
    play_round(event, upper_wins)
    play_round(event, upper_wins)  # 2-0 twice, 1-1 four times, 0-2 twice (out)
    records = elimination_records(event)
    unbeaten = [pk for pk, r in records.items() if r.wins == 2]
    round_ = event_next_round(event=event)
    leaver = Entry.objects.get(pk=unbeaten[1])
    entry_withdraw(entry=leaver)  # a walkover loss: 2-1, and out
    for match in playable(event):
        play(match, 1)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED  # 3 alive, no more than 4 paid
    records = elimination_records(event)
    alive = [pk for pk, r in records.items() if r.alive]
    bubble = [pk for pk, r in records.items() if r.eliminated_in_round == round_.number]
    assert len(alive) == 3
    assert len(bubble) == 3
    assert leaver.pk in bubble
    by_record = event_final(event)
    counts = elimination_counts(event)
    event_update(event=event, last_loss_cashes=True)
    event.refresh_from_db()
    shared = event_final(event)
    assert by_record is not None
    assert shared is not None
    before = {row.entry.pk: row for row in by_record.rows}
    after = {row.entry.pk: row for row in shared.rows}
    others = [pk for pk in bubble if pk != leaver.pk]
    assert before[leaver.pk].place == Place(4, 4)
    assert before[leaver.pk].prize == Decimal(8)  # 10 % of 80
    assert all(before[pk].prize is None for pk in others)
    assert {after[pk].place for pk in bubble} == {Place(4, 6)}
    assert {after[pk].prize for pk in bubble} == {Decimal(2)}  # 8 / 3, rounded down to 1
    for pk in alive:
        assert after[pk] == before[pk]
    # Cashing: the places paid as they stand.
    assert counts.cashing == 4
    assert elimination_counts(event).cashing == 6
