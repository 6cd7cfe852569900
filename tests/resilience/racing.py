"""Racing clients on matches through the API: each request in its own thread and
database connection, all of a wave released at once, every answer checked."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from matches.models import Match
from tests.resilience.concurrency import run_at_once
from tests.resilience.invariants import assert_invariants
from tests.resilience.world import World

#: What a racing request may be answered: done, refused with a reason, or "changed under you".
CLEAN = {200, 201, 400, 403, 409}
#: Refusals before a request counts as a report about the match (nothing to store).
NOT_A_REPORT = {"not-authenticated", "permission-denied"}


def post_call(
    headers: dict[str, str], path: str, body: dict[str, Any]
) -> Callable[[], tuple[int, str]]:
    """A racing POST: its status code and error code (``""`` when it succeeded)."""

    def call() -> tuple[int, str]:
        response = APIClient().post(path, body, format="json", **headers)
        assert response.status_code < 500, (path, body, response.content[:500])
        if response.status_code >= 400:
            assert set(response.json()) == {"code", "message", "detail"}, response.json()
            return response.status_code, response.json()["code"]
        return response.status_code, ""

    return call


def token_headers(world: World, user: Any) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {world.token(user)}"}


def link_headers(entry: Any) -> dict[str, str]:
    return {"HTTP_X_REPORT_KEY": entry.report_key}


def race_matches(
    world: World, matches: list[Match], *, waves: int, clients: int, seed: int
) -> tuple[list[int], Counter[int]]:
    """``waves`` waves of ``clients`` requests spread over ``matches``: the players (by
    token and by link) report games (mostly the next one, some repeated or
    contradicting), confirm, dispute and report whole matches; a director resolves.
    After each wave the invariants hold and every request is a stored submission.
    Returns every status code and the submissions expected per match."""
    rng = random.Random(seed)
    stored: Counter[int] = Counter()
    answers: list[int] = []
    callers: dict[int, dict[str, dict[str, str]]] = {}
    for match in matches:
        e1, e2 = match.entry1, match.entry2
        assert e1 is not None
        assert e2 is not None
        callers[match.pk] = {
            "p1-token": token_headers(world, world.account_of(e1)),
            "p1-link": link_headers(e1),
            "p2-token": token_headers(world, world.account_of(e2)),
            "p2-link": link_headers(e2),
            "director": token_headers(world, world.director),
        }
    for _wave in range(waves):
        calls: list[Callable[[], Any]] = []
        targets: list[int] = []
        for match in matches:
            match.refresh_from_db()
            base = f"/api/matches/{match.pk}"
            mine = callers[match.pk]
            players = [k for k in mine if k != "director"]
            p1, p2 = match.entry1.player_id, match.entry2.player_id  # type: ignore[union-attr]
            next_game = match.games.filter(voided=False).count() + 1
            calls.append(post_call(mine["director"], f"{base}/resolve/", {"note": "play on"}))
            targets.append(match.pk)
            for _ in range(clients // len(matches) - 1):
                who = rng.choice(players)
                kind = rng.choices(["game", "confirm", "dispute", "report"], weights=[12, 3, 1, 1])[
                    0
                ]
                if kind == "game":
                    winner = p1 if rng.random() < 0.85 else p2
                    body: dict[str, Any] = {"winner": winner}
                    if rng.random() < 0.8:
                        body["game_number"] = next_game
                    calls.append(post_call(mine[who], f"{base}/games/", body))
                elif kind == "confirm":
                    calls.append(post_call(mine[rng.choice(list(mine))], f"{base}/confirm/", {}))
                elif kind == "dispute":
                    calls.append(
                        post_call(mine[who], f"{base}/dispute/", {"reason": "wrong score"})
                    )
                else:
                    games = [{"winner": p1}] * match.length
                    calls.append(post_call(mine[who], f"{base}/report/", {"games": games}))
                targets.append(match.pk)
        outcomes = run_at_once(calls)
        errors = [o.error for o in outcomes if o.error is not None]
        assert not errors, errors
        for target, outcome in zip(targets, outcomes, strict=True):
            answers.append(outcome.value[0])
            # Everything is stored but requests turned away at the door (an expired link).
            stored[target] += outcome.value[1] not in NOT_A_REPORT
        assert_invariants(match_ids=[m.pk for m in matches], submissions=dict(stored))
    return answers, stored
