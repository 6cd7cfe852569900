"""What was collected stays what it was: an entry fee cannot change once fees were taken
at it (the final sheet and its refunds count with it), and a fed Consolation, whose
players pay nothing there, takes neither a fee nor payments."""

from __future__ import annotations

from decimal import Decimal

import pytest

from matches.errors import AppError
from tournament.models import Event
from tournament.services.event_settings import event_update
from tournament.services.events import event_create
from tournament.services.payments import entries_mark_paid

pytestmark = pytest.mark.django_db


@pytest.fixture
def main(tournament) -> Event:
    return event_create(
        tournament=tournament, name="Main", match_lengths=[1], entry_fee=Decimal(20)
    )


def test_the_fee_is_kept_once_collected_and_free_again_once_unpaid(main, enter) -> None:
    entries = enter(main, 4)
    event_update(event=main, entry_fee=Decimal(25))  # nobody paid yet: a typo fixed
    entries_mark_paid(event=main, entry_ids=[entries[0].pk], method="waived")
    event_update(event=main, entry_fee=Decimal(20))  # a waived fee was not collected
    entries_mark_paid(event=main, entry_ids=[entries[1].pk], method="cash")
    with pytest.raises(AppError) as refused:
        event_update(event=main, entry_fee=Decimal(30))
    assert (refused.value.code, refused.value.detail["field"]) == ("setting-locked", "entry_fee")
    assert "Fees were collected" in refused.value.message
    main.refresh_from_db()
    assert main.entry_fee == Decimal(20)
    event_update(event=main, name="Main Event")  # the other settings still change
    entries_mark_paid(event=main, entry_ids=[entries[1].pk], method="")
    event_update(event=main, entry_fee=Decimal(30))
    main.refresh_from_db()
    assert main.entry_fee == Decimal(30)


def test_a_fed_consolation_takes_no_fee_and_no_payment(tournament, main, enter) -> None:
    with pytest.raises(AppError) as refused:
        event_create(
            tournament=tournament,
            name="Consolation",
            match_lengths=[1],
            feeds_from=main,
            feed_rounds=[1],
            entry_fee=Decimal(10),
        )
    assert (refused.value.code, refused.value.detail["field"]) == ("no-fee-here", "entry_fee")
    consolation = event_create(
        tournament=tournament,
        name="Consolation",
        match_lengths=[1],
        feeds_from=main,
        feed_rounds=[1],
    )
    with pytest.raises(AppError) as refused:
        event_update(event=consolation, entry_fee=Decimal(10))
    assert refused.value.code == "no-fee-here"
    side = event_create(tournament=tournament, name="Side", match_lengths=[1], entry_fee=Decimal(5))
    with pytest.raises(AppError) as refused:
        event_update(event=side, feeds_from=main, feed_rounds=[1])
    assert refused.value.code == "no-fee-here"
    # (its entries come from the Main's losers; the refusal comes before any is looked at)
    with pytest.raises(AppError) as refused:
        entries_mark_paid(event=consolation, entry_ids=[1], method="cash")
    assert refused.value.code == "no-fee-here"
