"""The elimination Swiss through the services: out at N losses, one champion, places and
prizes; forbidden pairs kept, relaxed by the director when nothing else pairs."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from matches.errors import Invalid
from matches.models import Match
from tests.factories import PlayerFactory
from tournament.models import Entry, Event, ForbiddenPair, PairingNote, Round
from tournament.selectors import elimination_counts, elimination_records, standings
from tournament.selectors.final_places import event_final
from tournament.services.draws import draw_make
from tournament.services.entries import entry_register
from tournament.services.event_settings import event_update
from tournament.services.events import event_create
from tournament.services.forbidden_pairs import forbidden_pair_add
from tournament.services.rounds import event_end, event_next_round

from .conftest import play, playable

pytestmark = pytest.mark.django_db


def play_to_end(event: Event, seed: int = 1, limit: int = 60) -> int:
    """Play ``event`` to its end with random results, checking each round: the Swiss
    rounds pair exactly the players alive, who go out at N losses; a playoff round
    pairs only the playoff's players and leaves the Swiss records as they were."""
    rng = random.Random(seed)
    for rounds in range(limit):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return rounds
        before = dict(elimination_records(event))
        round_ = event_next_round(event=event)
        seated = {
            e
            for m in Match.objects.filter(round=round_)
            for e in (m.entry1_id, m.entry2_id)
            if e is not None
        }
        assert all(before[e].alive for e in seated)  # nobody out is paired
        if round_.bracket == Round.Bracket.PLAYOFF:
            event.refresh_from_db()
            assert seated <= set(event.playoff["seeds"])
        else:
            assert {e for e, r in before.items() if r.alive} == seated
        for match in playable(event):
            play(match, rng.choice([1, 2]))
        after = elimination_records(event)
        if round_.bracket == Round.Bracket.PLAYOFF:
            assert after == before  # the playoff leaves the Swiss records alone
            continue
        for pk, record in after.items():
            assert record.alive == (record.losses < event.losses_to_eliminate)
            if before[pk].alive and not record.alive:
                assert record.eliminated_in_round == round_.number
    raise AssertionError("the event did not end")


def test_a_triple_elimination_runs_to_one_champion(tournament, enter):
    event = event_create(
        tournament=tournament,
        name="Elimination Swiss",
        format="swiss-elimination",
        match_lengths=[1],
        entry_fee=Decimal(20),
        payout_split=[50, 30, 20],
    )
    assert event.losses_to_eliminate == 3
    entries = enter(event, 13)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(paid=Entry.Payment.CASH)
    draw = draw_make(event=event, method="random", seed=42)
    assert "42" in draw.log
    event.refresh_from_db()
    assert event.rounds_planned is None
    play_to_end(event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    records = elimination_records(event)
    alive = [pk for pk, r in records.items() if r.alive]
    # One champion: the one player alive, or the winner of the playoff of those left.
    assert sorted(alive) == sorted(
        [event.champion_id] if not event.playoff else event.playoff["seeds"]
    )
    table = standings(event)
    assert table[0].entry.pk == event.champion_id
    assert table[0].status == "alive"
    assert {row.status for row in table[len(alive) :]} == {"eliminated"}
    assert all(row.eliminated_in_round for row in table[len(alive) :])
    counts = elimination_counts(event)
    assert (counts.alive, counts.out) == (len(alive), 13 - len(alive))
    sheet = event_final(event)
    assert sheet is not None
    assert sheet.rows[0].entry.pk == event.champion_id
    assert sheet.rows[0].place.best == 1
    assert sum(r.prize or 0 for r in sheet.rows) == sheet.paid_out > 0
    with pytest.raises(Invalid) as err:
        event_next_round(event=event)
    assert err.value.code == "event-finished"


def test_the_same_seed_gives_the_same_event(tournament, enter):
    def run() -> list[tuple[int, int, int]]:
        event = event_create(
            tournament=tournament, name="E", format="swiss-elimination", losses_to_eliminate=2
        )
        for k in range(10):
            entry_register(event=event, player=players[k])
        draw_make(event=event, method="random", seed=7)
        play_to_end(event, seed=3)
        return [
            (m.round.number, m.entry1.player_id, m.entry2.player_id if m.entry2 else 0)
            for m in Match.objects.filter(event=event)
            .select_related("round", "entry1", "entry2")
            .order_by("round__number", "slot")
        ]

    players = [PlayerFactory() for _ in range(10)]
    assert run() == run()


def test_the_playoff_switch_ends_at_the_places_paid(tournament, enter):
    event = event_create(
        tournament=tournament,
        name="E",
        format="swiss-elimination",
        losses_to_eliminate=2,
        places_paid=4,
        playoff_switch=True,
        match_lengths=[1],
    )
    enter(event, 16)
    draw_make(event=event, method="rating")
    play_to_end(event)
    event.refresh_from_db()
    records = elimination_records(event)
    alive = sum(r.alive for r in records.values())
    assert 1 <= alive <= 4
    counts = elimination_counts(event)
    assert counts.cashing == alive
    sheet = event_final(event)
    assert sheet is not None
    assert all(row.place.best <= alive for row in sheet.rows if records[row.entry.pk].alive)


def test_the_director_ends_it_between_rounds(tournament, enter):
    event = event_create(tournament=tournament, name="E", format="swiss-elimination")
    enter(event, 8)
    draw_make(event=event, method="rating")
    event_next_round(event=event)
    with pytest.raises(Invalid) as err:
        event_end(event=event)
    assert err.value.code == "round-in-progress"
    for match in playable(event):
        play(match, 1)
    event_end(event=event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert event_final(event) is not None


def test_settings_are_checked(tournament):
    for bad in (1, 7):
        with pytest.raises(Invalid) as err:
            event_create(
                tournament=tournament, name="E", format="swiss-elimination", losses_to_eliminate=bad
            )
        assert err.value.detail["field"] == "losses_to_eliminate"
    event = event_create(tournament=tournament, name="E", format="swiss-elimination")
    event_update(event=event, losses_to_eliminate=4, places_paid=8, playoff_switch=True)
    event.refresh_from_db()
    assert (event.losses_to_eliminate, event.places_paid, event.playoff_switch) == (4, 8, True)


def test_forbidden_pairs_are_kept_and_relaxed_by_the_director(tournament, enter):
    event = event_create(tournament=tournament, name="E", format="swiss-elimination")
    a, b = enter(event, 2)
    forbidden = forbidden_pair_add(event=event, players=[a.player_id, b.player_id])
    with pytest.raises(Invalid) as err:
        forbidden_pair_add(event=event, players=[b.player_id, a.player_id])
    assert err.value.code == "duplicate"
    with pytest.raises(Invalid) as err:
        draw_make(event=event, method="rating")
    assert err.value.code == "no-legal-pairing"
    assert err.value.detail["blocking"] == [
        {"id": forbidden.pk, "players": [forbidden.player_a_id, forbidden.player_b_id]}
    ]


def test_forbidden_pairs_in_a_bigger_field(tournament, enter):
    event = event_create(
        tournament=tournament, name="E", format="swiss-elimination", losses_to_eliminate=2
    )
    entries = enter(event, 12)
    apart = []
    for k in range(0, 12, 2):
        apart.append(
            forbidden_pair_add(
                event=event, players=[entries[k].player_id, entries[k + 1].player_id]
            )
        )
    draw_make(event=event, method="manual")
    forbidden = {frozenset((entries[k].pk, entries[k + 1].pk)) for k in range(0, 12, 2)}
    entry_of = {e.player_id: e.pk for e in entries}
    relaxed = 0
    for _ in range(30):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        lifted: set[frozenset[int]] = set()
        try:
            round_ = event_next_round(event=event)
        except Invalid as refusal:
            code, detail = refusal.code, refusal.detail
            assert code == "no-legal-pairing"
            relax = [item["id"] for item in detail["blocking"]]
            lifted = {
                frozenset(entry_of[p] for p in item["players"]) for item in detail["blocking"]
            }
            relaxed += 1
            round_ = event_next_round(event=event, relax=relax)
            note = PairingNote.objects.filter(event=event, round_number=round_.number).last()
            assert "relaxed" in note.text
            assert note.detail
        for m in Match.objects.filter(round=round_, is_bye=False):
            # Only a pair the director relaxed for this round may meet in it.
            assert frozenset((m.entry1_id, m.entry2_id)) not in forbidden - lifted
        for match in playable(event):
            play(match, 1 + match.slot % 2)
    assert ForbiddenPair.objects.filter(event=event).count() == len(apart)
    assert event.status == Event.Status.FINISHED
    # Pairs of two who keep winning are forbidden: at the end, the two left must meet.
    assert relaxed <= 1


def test_same_club_kept_apart_in_round_one(tournament):
    event = event_create(
        tournament=tournament,
        name="E",
        format="swiss-elimination",
        avoid_same_club_first_round=True,
    )
    clubs = ["Oslo", "Oslo", "Oslo", "Oslo", "Bergen", "Bergen", "Bergen", "Bergen"]
    for club in clubs:
        entry_register(event=event, player=PlayerFactory(club=club))
    draw_make(event=event, method="rating")
    for m in Match.objects.filter(event=event, is_bye=False).select_related(
        "entry1__player", "entry2__player"
    ):
        assert m.entry1.player.club != m.entry2.player.club


def test_the_director_relaxes_what_blocks_the_round(tournament, enter):
    event = event_create(
        tournament=tournament, name="E", format="swiss-elimination", match_lengths=[1]
    )
    a, b = enter(event, 2)
    draw_make(event=event, method="rating")
    event_next_round(event=event)
    for match in playable(event):
        play(match, 1)
    rule = forbidden_pair_add(event=event, players=[a.player_id, b.player_id])
    with pytest.raises(Invalid) as err:
        event_next_round(event=event)
    assert err.value.code == "no-legal-pairing"
    assert [item["id"] for item in err.value.detail["blocking"]] == [rule.pk]
    with pytest.raises(Invalid) as err:
        event_next_round(event=event, relax=[rule.pk + 1000])
    assert err.value.detail["field"] == "relax"
    round_ = event_next_round(event=event, relax=[rule.pk])
    assert round_.number == 2
    note = PairingNote.objects.get(event=event, round_number=2)
    assert "relaxed 1 forbidden pair" in note.text
    assert a.player.name not in note.text  # the public line names nobody
    assert a.player.name in note.detail


def test_a_bracket_keeps_forbidden_pairs_apart_in_round_one(tournament, enter, client):
    event = event_create(tournament=tournament, name="Main", format="single-elimination")
    entries = enter(event, 8)
    # By rating the seeds are the entry order here; 1 meets 8, 2 meets 7... in round 1.
    for k, entry in enumerate(entries, start=1):
        entry.player.rating = 2000 - k
        entry.player.save(update_fields=["rating"])
    pairs = [(entries[0], entries[7]), (entries[1], entries[6])]
    for a, b in pairs:
        forbidden_pair_add(event=event, players=[a.player_id, b.player_id], rounds="first")
    draw_make(event=event, method="rating")
    first = Match.objects.filter(event=event, round__number=1, is_bye=False)
    met = {frozenset((m.entry1_id, m.entry2_id)) for m in first}
    for a, b in pairs:
        assert frozenset((a.pk, b.pk)) not in met
    assert first.count() == 4
    note = PairingNote.objects.get(event=event)
    assert "swap" in note.text
    page = client.get(f"/t/{tournament.slug}/{event.slug}/")
    assert b"later rounds" in page.content
    assert entries[0].player.name.encode() in page.content  # the bracket, names shown
