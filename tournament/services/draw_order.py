"""The order of a drawn field (best seed first) and the public log that lets anyone re-run it."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.models import Entry, Event
from tournament.services.common import refuse

MAX_SEED = 2**53 - 1


@dataclass(frozen=True)
class DrawOrder:
    """Entry ids best seed first, the random seed used (if any) and the public log."""

    entry_ids: list[int]
    seed: int | None
    log: str


def order_field(
    entries: Sequence[Entry],
    *,
    method: str,
    seed: int | None,
    order: Sequence[int] | None,
    event: Event,
) -> DrawOrder:
    """Order ``entries`` by ``method`` (random with ``seed``, rating, or manual ``order``)."""
    by_player = {e.player_id: e for e in entries}
    if method == "random":
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise refuse(
                f"A draw seed is a whole number from 0 to {MAX_SEED}.", code="invalid", field="seed"
            )
        ordered = sorted(entries, key=lambda e: e.player_id)
        random.Random(seed).shuffle(ordered)
        header = [
            f"Random draw of {event.name} ({len(entries)} players), seed {seed}.",
            "To re-run it: sort the players by player id, then shuffle that list with "
            f"Python's random.Random({seed}).shuffle; seed 1 is the first.",
        ]
    elif method == "rating":
        ordered = sorted(entries, key=lambda e: (-e.player.rating, e.player.name, e.player_id))
        seed = None
        header = [f"Draw of {event.name} by rating ({len(entries)} players), best rated first."]
    else:
        seed = None
        if order:
            unknown = [p for p in order if p not in by_player]
            repeated = sorted({p for p in order if list(order).count(p) > 1})
            missing = [e.player_id for e in entries if e.player_id not in set(order)]
            if unknown or repeated or missing:
                problems = []
                if unknown:
                    problems.append(f"not in the drawn field: {unknown[:10]}")
                if repeated:
                    problems.append(f"named twice: {repeated[:10]}")
                if missing:
                    problems.append(f"missing: {missing[:10]}")
                raise refuse(
                    "The order must name every drawn player once (player ids); "
                    + "; ".join(problems)
                    + ".",
                    code="bad-order",
                    field="order",
                )
            ordered = [by_player[p] for p in order]
        else:
            ordered = sorted(
                entries,
                key=lambda e: (e.seed is None, e.seed or 0, -e.player.rating, e.player_id),
            )
        header = [f"Draw of {event.name} by hand ({len(entries)} players), in the order given."]
    lines = [
        f"{place:>4}. {e.player.name} (player {e.player_id}, rating {e.player.rating:.0f})"
        for place, e in enumerate(ordered, start=1)
    ]
    return DrawOrder([e.pk for e in ordered], seed, "\n".join([*header, "", *lines]) + "\n")
