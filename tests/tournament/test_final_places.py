"""Final places and prizes of finished events, played through the services."""

from __future__ import annotations

from decimal import Decimal

import pytest

from matches.models import Match
from tournament.models import Event
from tournament.selectors.final_places import event_final
from tournament.services.draws import draw_make
from tournament.services.events import event_create
from tournament.services.payments import entries_mark_paid

from .conftest import run_to_champion

pytestmark = pytest.mark.django_db


def _labels(sheet):
    return [(str(r.place), r.entry.player.name) for r in sheet.rows]


def test_a_main_and_its_consolation_are_placed_each_on_its_own(tournament, enter, client):
    main = event_create(
        tournament=tournament,
        name="Main",
        match_lengths=[3],
        entry_fee=Decimal("20"),
        payout_split=[50, 30, 10, 10],
    )
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[3],
        feeds_from=main,
        feed_rounds=[1],
    )
    entries = enter(main, 14)
    entries_mark_paid(event=main, entry_ids=[e.pk for e in entries[:12]], method="cash")
    entries_mark_paid(event=main, entry_ids=[entries[12].pk], method="waived")
    Event.objects.filter(pk=main.pk).update(added_money=Decimal("55"), prize_unit=5)
    draw_make(event=main, method="random", seed=5)
    assert event_final(main) is None  # not before the end
    run_to_champion([main, consolation], choose=lambda m: 1 if m.slot % 2 else 2)
    main.refresh_from_db()
    consolation.refresh_from_db()

    sheet = event_final(main)
    spans = [str(r.place) for r in sheet.rows]
    assert spans.count("1st") == spans.count("2nd") == 1
    assert spans.count("3rd-4th") == 2
    assert spans.count("5th-8th") == 4
    assert spans.count("9th-14th") == 6
    assert sheet.rows[0].entry.pk == main.champion_id
    final = Match.objects.filter(event=main).order_by("-round__number").first()
    runner_up = final.entry1_id if final.winner_id == final.entry2_id else final.entry2_id
    assert sheet.rows[1].entry.pk == runner_up
    # 12 paid (the waived one adds nothing) x 20 + 55 added = 295; 50% = 147.5 -> 145 ...
    assert (sheet.pool, sheet.paid_entries) == (Decimal("295"), 12)
    assert [r.prize for r in sheet.rows[:4]] == [145, 85, 25, 25]
    assert sheet.rows[4].prize is None
    assert sheet.paid_out + sheet.remainder == sheet.pool
    assert sheet.remainder == Decimal("15")

    # The same places on the event page, the player's page and their link's results.
    event_page = client.get(f"/t/{tournament.slug}/main/").content.decode()
    assert "Final places" in event_page
    assert "Prize pool 295" in event_page
    assert "remainder 15" in event_page
    champion = sheet.rows[0].entry.player
    assert "1st of 14 · prize 145" in client.get(f"/players/{champion.pk}/").content.decode()
    second = sheet.rows[1].entry.player
    key = second.links.get().key
    results = client.get(f"/r/{key}/results/").content.decode()
    assert "Final place: <strong>2nd of 14 · prize 85</strong>" in results
    final_sheet = client.get(f"/t/{tournament.slug}/main/final/").content.decode()
    assert final_sheet.count("<tr>") == 15  # a header and 14 players
    assert "remainder <strong>15</strong>" in final_sheet

    consolation_sheet = event_final(consolation)
    fed = consolation.entries.count()
    assert len(consolation_sheet.rows) == fed
    assert str(consolation_sheet.rows[0].place) == "1st"
    assert consolation_sheet.rows[0].entry.pk == consolation.champion_id
    assert not {r.entry.player_id for r in consolation_sheet.rows[:1]} & {main.champion.player_id}


def test_a_round_robin_is_placed_by_its_standings(tournament, enter):
    event = event_create(
        tournament=tournament,
        name="Robin",
        format=Event.Format.ROUND_ROBIN,
        match_lengths=[3],
        entry_fee=Decimal("10"),
        payout_split=[100],
    )
    entries = enter(event, 4)
    entries_mark_paid(event=event, entry_ids=[e.pk for e in entries], method="online")
    draw_make(event=event, method="random", seed=2)
    run_to_champion([event], choose=lambda m: 1)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    sheet = event_final(event)
    assert sorted(str(r.place) for r in sheet.rows)[0] == "1st"
    assert len(sheet.rows) == 4
    winners = [r for r in sheet.rows if r.prize]
    assert sum(r.prize for r in winners) == Decimal("40")


def test_a_side_pool_is_shared_by_its_players_places_among_themselves(tournament, enter, client):
    from tournament.services.side_pools import side_pool_create, side_pool_set_entries

    main = event_create(tournament=tournament, name="Main", match_lengths=[1], slug="main")
    entries = enter(main, 8)
    pool = side_pool_create(event=main, name="Calcutta", stake=Decimal("10"), payout_split=[70, 30])
    draw_make(event=main, method="random", seed=8)
    run_to_champion([main], choose=lambda m: 1 if m.slot % 2 else 2)
    main.refresh_from_db()
    sheet = event_final(main)
    by_entry = {r.entry.pk: r.place for r in sheet.rows}
    # Three players who went out in the first round, one semi-finalist.
    first_out = [e.pk for e in entries if str(by_entry[e.pk]) == "5th-8th"][:3]
    semi = next(e.pk for e in entries if str(by_entry[e.pk]) == "3rd-4th")
    side_pool_set_entries(pool=pool, entry_ids=[*first_out, semi])
    side = event_final(main).side_pools[0]
    assert side.total == Decimal("40")
    assert side.rows[0].entry.pk == semi
    assert str(side.rows[0].place) == "1st"
    assert {str(r.place) for r in side.rows[1:]} == {"2nd-4th"}
    # 70% = 28 to the semi-finalist; places 2-4 share 30% (+0 +0) = 12: 4 each.
    assert [r.prize for r in side.rows] == [28, 4, 4, 4]
    assert side.remainder == 0
    page = client.get(f"/t/{tournament.slug}/main/final/").content.decode()
    assert "Side pool: Calcutta" in page


def test_the_final_sheet_sums_up_the_payments_and_says_what_a_fed_consolation_pays(
    tournament, enter, client
):
    from tournament.pages.caching import clear_caches
    from tournament.services.side_pools import side_pool_create, side_pool_set_entries
    from tournament.services.withdrawals import entry_withdraw

    clear_caches()  # an earlier test's tournament had the same slug and event slugs
    main = event_create(
        tournament=tournament,
        name="Main",
        match_lengths=[1],
        entry_fee=Decimal("20"),
        payout_split=[50, 30, 10, 10],
        slug="main",
    )
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
        slug="consolation",
    )
    entries = enter(main, 13)
    entries_mark_paid(event=main, entry_ids=[e.pk for e in entries[:6]], method="cash")
    entries_mark_paid(event=main, entry_ids=[e.pk for e in entries[6:8]], method="transfer")
    entries_mark_paid(event=main, entry_ids=[entries[8].pk], method="waived")
    gone = entries[12]  # paid online, then withdrew before the draw: refunded
    entries_mark_paid(event=main, entry_ids=[gone.pk], method="online")
    entry_withdraw(entry=gone)
    Event.objects.filter(pk=main.pk).update(added_money=Decimal("55"), prize_unit=5)
    pool = side_pool_create(event=main, name="Calcutta", stake=Decimal("7"), payout_split=[100])
    side_pool_set_entries(pool=pool, entry_ids=[e.pk for e in entries[:3]])
    main.refresh_from_db()
    draw_make(event=main, method="random", seed=3)
    run_to_champion([main, consolation], choose=lambda m: 1 if m.slot % 2 else 2)
    main.refresh_from_db()

    sheet = event_final(main)
    pay = sheet.payments
    assert [(c.method, c.count, c.amount) for c in pay.by_method] == [
        ("cash", 6, Decimal("120")),
        ("transfer", 2, Decimal("40")),
        ("online", 1, Decimal("20")),
    ]
    assert pay.waived == 1
    assert pay.side_stakes == Decimal("21")
    assert pay.collected == Decimal("201")
    assert (pay.refunded, [e.pk for e in pay.refunded_to]) == (Decimal("20"), [gone.pk])
    assert pay.added == Decimal("55")
    # 8 paid x 20 + 55 = 215: 50% 107.5 -> 105, 30% 64.5 -> 60, 10% 21.5 -> 20 (x2 shared)
    assert sheet.pool == Decimal("215")
    side = sheet.side_pools[0]
    assert pay.paid_out == sheet.paid_out + side.paid_out
    assert pay.kept == sheet.remainder + side.remainder
    assert pay.collected - pay.refunded + pay.added - pay.paid_out == pay.kept

    page = client.get(f"/t/{tournament.slug}/main/final/").content.decode()
    assert '<h2 id="payments-h">Payments</h2>' in page
    assert "Collected: cash" in page
    assert ">120<" in page
    assert "Refunded to withdrawals" in page
    assert gone.player.name in page
    assert f"<strong>{int(pay.kept)}</strong>" in page
    # The side pool's line says how its amounts are rounded, as the main pool's does.
    side_line = page.split("Side pool: Calcutta", 1)[1].split("</p>", 1)[0]
    assert "rounded down to 5" in side_line

    fed = client.get(f"/t/{tournament.slug}/consolation/final/").content.decode()
    assert "Prize pool 0" not in fed
    assert "paid entr" not in fed
    assert "No prize pool of its own" in fed
    assert "Its players came from Main" in fed
    assert "paid from Main&#x27;s pool" in fed or "paid from Main's pool" in fed
