"""Two players of the same name told apart wherever they meet: by club, then country,
then seed, then their entry number in the event (the console's "No."); "you" on one's own page."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext


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
        return gettext("seed {seed}").format(seed=seed)
    number = entry_number(entry)
    if number is None:  # a player (the players list) or a bracket's stand-in: no No.
        return gettext("record {number}").format(number=player.pk)
    return gettext("No. {number}").format(number=number)


def entry_number(entry: Any) -> int | None:
    """The entry's number in its event, as the console's entries table numbers them (in
    the order they were entered): "No." means this everywhere. ``None`` for what is not a
    stored entry (a player's row, a bracket's stand-in for a player to come)."""
    number = getattr(entry, "number", None)
    if number is None:
        manager = getattr(type(entry), "objects", None)
        if manager is None or getattr(entry, "event_id", None) is None or entry.pk is None:
            return None
        number = manager.filter(event_id=entry.event_id, pk__lte=entry.pk).count()
    return int(number)


def _same_player(a: Any, b: Any) -> bool:
    """One person's two entries (the Main and the Consolation) are not namesakes."""
    pk = getattr(a.player, "pk", None)
    return a.player is b.player or (pk is not None and pk == getattr(b.player, "pk", None))


def distinct_names(entries: Sequence[Any], *, me: Any = None) -> list[str]:
    """The players' names of ``entries`` (with ``.player``), one each, told apart when two
    share a name: "Anna Ballard (Club Nord)"; ``me`` (an entry) reads "you (Anna Ballard)"
    when it shares its name with another."""
    names = []
    for entry in entries:
        same = [
            o
            for o in entries
            if o is not entry
            and not _same_player(o, entry)
            and _key(o.player.name) == _key(entry.player.name)
        ]
        name = entry.player.name
        if not same:
            names.append(name)
        elif me is not None and entry.pk == me.pk:
            names.append(gettext("you ({name})").format(name=name))
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


class _PlayerRow:
    """A player standing in for an entry (no seed, no entry number: told by its record)."""

    seed = None

    def __init__(self, player: Any) -> None:
        self.player = player
        self.pk = player.pk


def players_told_apart(players: Iterable[Any]) -> dict[int, str]:
    """Each player's name (by pk) in a list of players (a select menu), told apart from a
    namesake in the list by club, then country, then record number."""
    return names_told_apart(_PlayerRow(player) for player in players)


def tell_apart(entries: Iterable[Any]) -> dict[int, str]:
    """Each entry's name (by its pk) told apart from every namesake in its tournament, not
    only among ``entries``: what the room board, the emails, the dispute queue, the side
    pools and the final sheet show (a few rows, or one match, at a time), the same as the
    bracket and the grid show. Sets ``told`` on each entry too. Two queries at most."""
    from tournament.models import Entry, Event

    given = [e for e in entries if e is not None]
    if not given:
        return {}
    names = Q()
    for key in {" ".join(e.player.name.split()) for e in given}:
        names |= Q(player__name__iexact=key)
    tournaments = Event.objects.filter(pk__in={e.event_id for e in given}).values("tournament_id")
    others = (
        Entry.objects.filter(names, event__tournament_id__in=tournaments)
        .exclude(pk__in=[e.pk for e in given])
        .select_related("player")
    )
    everyone = [*given, *others]
    _number_namesakes(everyone, Entry)
    told = names_told_apart(everyone)
    for entry in given:
        entry.told = told[entry.pk]
    return {e.pk: told[e.pk] for e in given}


def _number_namesakes(entries: list[Any], entry_model: Any) -> None:
    """Give every entry that has a namesake its ``number`` in its event, in one query (the
    last way to tell two namesakes apart), so that naming them costs no query per entry."""
    players: dict[str, set[int]] = {}
    for e in entries:
        players.setdefault(_key(e.player.name), set()).add(e.player_id)
    alike = [
        e
        for e in entries
        if len(players[_key(e.player.name)]) > 1 and getattr(e, "number", None) is None
    ]
    if not alike:
        return
    numbers: dict[int, int] = {}
    counts: dict[int, int] = {}
    rows = (
        entry_model.objects.filter(event_id__in={e.event_id for e in alike})
        .order_by("event_id", "pk")
        .values_list("event_id", "pk")
    )
    for event_id, pk in rows:
        counts[event_id] = counts.get(event_id, 0) + 1
        numbers[pk] = counts[event_id]
    for e in alike:
        e.number = numbers.get(e.pk)
