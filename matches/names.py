"""Two players of the same name told apart wherever they meet: by club, then country,
then seed, then their player number; "you" on one's own page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _tell(entry: Any, others: Sequence[Any]) -> str:
    """What sets ``entry``'s player apart from ``others`` of the same name."""
    player = entry.player
    for attr in ("club", "country"):
        mine = (getattr(player, attr, "") or "").strip()
        if mine and all((getattr(o.player, attr, "") or "").strip() != mine for o in others):
            return mine
    seed = getattr(entry, "seed", None)
    if seed:
        return f"seed {seed}"
    return f"no. {player.pk}"


def distinct_names(entries: Sequence[Any], *, me: Any = None) -> list[str]:
    """The players' names of ``entries`` (with ``.player``), one each, told apart when two
    share a name: "Anna Ballard (Club Nord)"; ``me`` (an entry) reads "you (Anna Ballard)"
    when it shares its name with another."""
    names = []
    for entry in entries:
        same = [
            o for o in entries if o is not entry and _key(o.player.name) == _key(entry.player.name)
        ]
        name = entry.player.name
        if not same:
            names.append(name)
        elif me is not None and entry.pk == me.pk:
            names.append(f"you ({name})")
        else:
            names.append(f"{name} ({_tell(entry, same)})")
    return names
