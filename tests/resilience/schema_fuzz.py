"""Schemathesis against ``/api/schema/``: every operation, as a director and as a player.

The schema is loaded from the Django WSGI application in-process (same database
transaction as the test). Generated path ids point at real objects of a small
running tournament two times in three (the rest stay random, so 404s are fuzzed
too); each request carries a director's or a player's token. Checks: no 5xx, a
status code, content type and body the schema documents for that operation.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import schemathesis
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.resilience.world import World, build_world

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

#: Requests sent, by role and by status code (the stress run asserts its total).
SENT: Counter[tuple[str, int]] = Counter()


def load_schema(*, coverage: bool) -> Any:
    """The OpenAPI schema as the running application serves it.

    ``coverage`` adds schemathesis' coverage phase (every boundary and missing-field
    case the schema implies: thousands of requests) to the random fuzzing.
    """
    schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
    phases = ["examples", "fuzzing", "coverage"] if coverage else ["examples", "fuzzing"]
    schema.config.phases.update(phases=phases)
    return schema


@contextmanager
def connection_kept() -> Iterator[None]:
    """Keep the test's database connection (and its transaction) across WSGI requests.

    Django's handler closes connections at the end of each request; its test client
    stops that, and so must an in-process WSGI app that shares the test transaction.
    """
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def fuzz_world() -> World:
    """A running 8-player event whose players' accounts and director have tokens."""
    return build_world(size=8, lengths=(3,))


def _ids(world: World) -> dict[str, list[Any]]:
    event = world.event
    matches = list(event.matches.order_by("round__number", "slot"))
    return {
        "events": [event.pk],
        "matches": [m.pk for m in matches],
        "rounds": list(event.rounds.values_list("pk", flat=True)),
        "entries": list(event.entries.values_list("pk", flat=True)),
        "players": [p.pk for p in world.players],
        "tournaments": [world.tournament.slug, world.other_tournament.slug],
    }


_COLLECTION = re.compile(r"^/api/(\w+)/\{")


def aim(case: Any, world: World) -> None:
    """Point two generated path ids in three at real objects of ``world``."""
    match = _COLLECTION.match(case.path)
    if not match or not case.path_parameters:
        return
    choices = _ids(world).get(match.group(1))
    if not choices:
        return
    for name, value in list(case.path_parameters.items()):
        pick = hash(str(value))
        if pick % 3:
            case.path_parameters[name] = choices[pick % len(choices)]


def token_headers(world: World, role: str) -> dict[str, str]:
    """The Authorization header of ``role``: the director, or player 1 of match 1."""
    user = world.director if role == "director" else world.accounts[0]
    return {"Authorization": f"Token {world.token(user)}"}


def run_case(case: Any, world: World, role: str) -> None:
    """Send ``case`` as ``role`` and validate the answer against the schema."""
    aim(case, world)
    response = case.call_and_validate(headers=token_headers(world, role), checks=CHECKS)
    SENT[(role, response.status_code)] += 1


def total_sent() -> int:
    return sum(SENT.values())
