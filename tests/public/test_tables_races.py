"""Two directors give out tables at the same instant (PostgreSQL row locks): a table is
never held by two unfinished matches, and nobody gets an error other than a clear refusal."""

from __future__ import annotations

import pytest

from matches.errors import Invalid
from matches.models import Match
from tests.resilience.concurrency import run_at_once
from tests.resilience.world import build_world
from tournament.services.tables import match_table_set, round_tables_assign

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _ready(world) -> list[Match]:
    return list(Match.objects.filter(event=world.event, status="ready").order_by("slot"))


def test_two_directors_asking_for_one_table_at_once_get_it_once() -> None:
    world = build_world(size=16)
    matches = _ready(world)
    outcomes = run_at_once([lambda m=m: match_table_set(match=m, table=7) for m in matches[:6]])
    won = [o for o in outcomes if o.error is None]
    refused = [o for o in outcomes if o.error is not None]
    assert len(won) == 1
    assert all(isinstance(o.error, Invalid) for o in refused), [o.error for o in refused]
    assert Match.objects.filter(event=world.event, table=7).count() == 1


def test_numbering_a_round_while_tables_are_set_by_hand_hands_out_each_table_once() -> None:
    world = build_world(size=16)
    matches = _ready(world)
    round_ = matches[0].round
    calls = [lambda: round_tables_assign(round_=round_) for _ in range(3)]
    calls += [
        lambda m=m, k=k: match_table_set(match=m, table=k) for k, m in enumerate(matches[:3], 1)
    ]
    outcomes = run_at_once(calls)
    assert all(o.error is None or isinstance(o.error, Invalid) for o in outcomes)
    tables = list(
        Match.objects.filter(event=world.event, table__isnull=False).values_list("table", flat=True)
    )
    assert len(tables) == len(set(tables)) == len(matches)
