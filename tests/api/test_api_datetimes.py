"""One clock: every moment the API gives is ISO 8601 with its offset (or Z), whatever the
tournament's time zone, so that a client reads the same moment the pages show on the
tournament's clock."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest

from matches.access import Actor
from matches.models import Match
from matches.services.bmab import match_bmab_set
from tests.factories import PlayerFactory, UserFactory, token_client
from tests.model.world import run_worker, winning_games
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.events import event_create
from tournament.services.results import match_result_enter
from tournament.services.rounds import round_start
from tournament.services.tournaments import tournament_create
from tournament.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

#: A value that looks like a moment (a date and a time of day).
MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
#: ISO 8601 with the offset: ``Z`` or ``+hh:mm`` / ``-hh:mm`` at the end.
WITH_OFFSET = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")


def moments(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in ``value`` (a decoded JSON body) that looks like a moment, by path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from moments(item, f"{path}.{key}")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from moments(item, f"{path}[{k}]")
    elif isinstance(value, str) and MOMENT.match(value):
        yield path, value


def test_the_api_gives_every_moment_with_its_offset() -> None:
    director = UserFactory()
    tournament = tournament_create(
        name="Copenhagen Open",
        director=director,
        starts_on=dt.date.today(),
        time_zone="Europe/Copenhagen",
    )
    main = event_create(tournament=tournament, name="Main", match_lengths=[1])
    entries = [entry_register(event=main, player=PlayerFactory()) for _ in range(5)]
    for entry in entries[:4]:
        entry_check_in(entry=entry)
    entry_withdraw(entry=entries[4], reason="ill")
    draw_make(event=main, seed=1)
    round_start(round_=main.rounds.get(number=1))
    run_worker([])
    first, second = Match.objects.filter(event=main, round__number=1).order_by("pk")
    match_result_enter(match=first, games=winning_games(first, 1))
    match_bmab_set(match_id=second.pk, actor=Actor(user=director), designated=True)
    run_worker([])
    api = token_client(director)
    urls = [
        f"/api/tournaments/{tournament.slug}/",
        f"/api/tournaments/{tournament.slug}/events/",
        f"/api/events/{main.pk}/",
        f"/api/events/{main.pk}/entries/",
        f"/api/events/{main.pk}/bracket/",
        f"/api/rounds/{first.round_id}/",
        f"/api/matches/?event={main.pk}",
        f"/api/matches/{first.pk}/",
        f"/api/matches/{second.pk}/",
    ]
    found: dict[str, str] = {}
    for url in urls:
        answer = api.get(url)
        assert answer.status_code == 200, (url, answer.content)
        for path, value in moments(answer.json()):
            found[f"{url} {path}"] = value
    without = {where: value for where, value in found.items() if not WITH_OFFSET.match(value)}
    assert not without, f"moments without their offset: {without}"
    # Not a vacuous pass: the check-ins, the draw, the match's start and end, a BMAB mark.
    said = " ".join(found)
    for name in ("checked_in_at", "started_at", "decided_at", "bmab_marks"):
        assert name in said, f"no {name} among {sorted(found)}"
