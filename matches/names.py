"""Two players of the same name told apart wherever they meet: by club, then country,
then seed, then their player number; "you" on one's own page."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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


def names_told_apart(entries: Iterable[Any]) -> dict[int, str]:
    """Each entry's name (by its pk) in a list of many (a bracket, the match grid): its
    player's name, with "(club)", "(country)" or "(seed n)" only where another entry
    shares it. Linear in the entries: only namesakes are compared."""
    groups: dict[str, dict[int, Any]] = {}
    for entry in entries:
        groups.setdefault(_key(entry.player.name), {})[entry.pk] = entry
    names: dict[int, str] = {}
    for group in groups.values():
        members = list(group.values())
        names.update(zip(group, distinct_names(members), strict=True))
    return names
