"""Players: create the people who play, and correct their details."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from matches.errors import Invalid, refuse
from tournament import page_cache
from tournament.models import Event, Player, User
from tournament.text import text_problem

log = logging.getLogger(__name__)

MAX_RATING = 4000.0


def _clean(
    *, name: str, email: str, rating: float | None, club: str, country: str
) -> tuple[str, str, float | None, str, str]:
    name = (name or "").strip()
    if not name:
        raise refuse("A player needs a name.", code="invalid", field="name")
    if len(name) > 120:
        raise refuse("A name has at most 120 characters.", code="invalid", field="name")
    for value, field, what in ((name, "name", "A name"), (club or "", "club", "A club")):
        if problem := text_problem(value, what):
            raise refuse(problem, code="invalid", field=field)
    if rating is not None and not 0 < rating <= MAX_RATING:
        raise refuse(
            f"A rating is above 0 and at most {MAX_RATING:g}, not {rating:g}.",
            code="invalid",
            field="rating",
        )
    country = (country or "").strip().upper()
    if country and (len(country) != 2 or not country.isalpha()):
        raise refuse("A country is a two-letter ISO code.", code="invalid", field="country")
    return name, (email or "").strip(), rating, (club or "").strip(), country


def _spaced(name: str) -> str:
    return " ".join((name or "").split())


def player_namesakes(name: str, *, exclude: int | None = None) -> list[Player]:
    """Players already called ``name`` (case and spacing aside), but player ``exclude``."""
    wanted = _spaced(name)
    if not wanted:
        return []
    found = Player.objects.filter(name__iexact=wanted)
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return list(found.order_by("pk")[:5])


def name_key(name: str) -> str:
    """A name as namesakes compare it: case and spacing aside."""
    return _spaced(name).casefold()


#: Names asked about in one query by ``players_named`` (SQLite nests an OR per name).
NAMES_PER_QUERY = 200


def players_named(names: Iterable[str]) -> dict[str, list[Player]]:
    """``player_namesakes`` for many names at once, a query per 200 names instead of one
    each: the players already called each name, oldest first, by ``name_key``."""
    wanted = sorted({_spaced(n) for n in names} - {""})
    found: dict[str, list[Player]] = defaultdict(list)
    for start in range(0, len(wanted), NAMES_PER_QUERY):
        any_of = Q()
        for name in wanted[start : start + NAMES_PER_QUERY]:
            any_of |= Q(name__iexact=name)
        for player in Player.objects.filter(any_of).order_by("pk"):
            found[name_key(player.name)].append(player)
    return {key: players[:5] for key, players in found.items()}


def namesake_text(player: Player) -> str:
    """How a refusal names an existing player: name (club, email)."""
    facts = ", ".join(f for f in (player.club, player.email) if f) or "no club or email"
    return f"{player.name} ({facts})"


def possible_duplicate(name: str, namesakes: list[Player], advice: str) -> Invalid:
    """The refusal of a name that ``namesakes`` already have (``possible-duplicate``)."""
    named = "; ".join(namesake_text(p) for p in namesakes)
    return refuse(
        f"A player named {_spaced(name)} already exists: {named}. {advice}",
        code="possible-duplicate",
        field="name",
        existing=[
            {"id": p.pk, "name": p.name, "club": p.club, "email": p.email} for p in namesakes
        ],
    )


def player_create(
    *,
    name: str,
    email: str = "",
    rating: float | None = None,
    club: str = "",
    country: str = "",
    user: User | None = None,
    confirm_new: bool = True,
) -> Player:
    """Create a player (rating 1500 unless given).

    ``confirm_new=False`` (the console's and the API's default) refuses a name that a
    player already has (``possible-duplicate``, naming them), so that a director uses
    that player, or confirms that this is somebody else.
    """
    name, email, rating, club, country = _clean(
        name=name, email=email, rating=rating, club=club, country=country
    )
    if not confirm_new:
        namesakes = player_namesakes(name)
        if namesakes:
            raise possible_duplicate(
                name, namesakes, "Use that player, or confirm that this is a new one."
            )
    with transaction.atomic():
        player = Player(name=name, email=email, club=club, country=country, user=user)
        if rating is not None:
            player.rating = rating
        player.full_clean(exclude=["user"])
        player.save()
    return player


@dataclass(frozen=True)
class PlayerChange:
    """A player after ``player_update``, and the fields that changed (in form order)."""

    player: Player
    changed: tuple[str, ...]


def player_update(
    *,
    player: Player,
    by: User | None,
    name: str | None = None,
    email: str | None = None,
    club: str | None = None,
    country: str | None = None,
    confirm_new: bool = False,
) -> PlayerChange:
    """Correct a player's name, email, club or country; ``None`` leaves a field as it is.

    Checked and normalised as on creation. A new name that another player has is
    refused (``possible-duplicate``, naming them) unless ``confirm_new``; an email
    another player has is refused (``email-taken``: the CSV import knows a player by
    their email). The rating is computed from results, never edited. Once the change
    commits, the public pages of every tournament the player is entered in are stale.
    Who may do this is the caller's check (``selectors.user_may_edit_player``).
    """
    with transaction.atomic():
        player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        new = dict(
            zip(
                ("name", "email", "club", "country"),
                _clean_details(player, name=name, email=email, club=club, country=country),
                strict=True,
            )
        )
        changed = tuple(field for field, value in new.items() if getattr(player, field) != value)
        if not changed:
            return PlayerChange(player, ())
        renamed = _spaced(new["name"]).casefold() != _spaced(player.name).casefold()
        if renamed and not confirm_new:
            namesakes = player_namesakes(new["name"], exclude=player.pk)
            if namesakes:
                raise possible_duplicate(
                    new["name"],
                    namesakes,
                    "If this is somebody else, confirm the new name; if it is the same "
                    "person, keep the name.",
                )
        if "email" in changed and new["email"]:
            _refuse_taken_email(new["email"], player)
        for field in changed:
            setattr(player, field, new[field])
        player.full_clean(exclude=["user"])
        player.save(update_fields=list(changed))
        for tournament_id, event_ids in _events_showing(player).items():
            page_cache.invalidate_tournament_on_commit(tournament_id, event_ids)
    log.info(
        "player %s: %s changed by user %s", player.pk, ", ".join(changed), getattr(by, "pk", None)
    )
    return PlayerChange(player, changed)


def _clean_details(
    player: Player,
    *,
    name: str | None,
    email: str | None,
    club: str | None,
    country: str | None,
) -> tuple[str, str, str, str]:
    """The new name, email, club and country, checked as on creation (``None``: as now)."""
    name, email, _, club, country = _clean(
        name=player.name if name is None else name,
        email=player.email if email is None else email,
        rating=None,
        club=player.club if club is None else club,
        country=player.country if country is None else country,
    )
    return name, email, club, country


def _refuse_taken_email(email: str, player: Player) -> None:
    other = Player.objects.filter(email__iexact=email).exclude(pk=player.pk).order_by("pk").first()
    if other is not None:
        raise refuse(
            f"{namesake_text(other)} already has the email {email}: a player's email is "
            "how the CSV import knows them, so two players cannot share one.",
            code="email-taken",
            field="email",
            player=other.pk,
        )


def _events_showing(player: Player) -> dict[int, list[int]]:
    """Every event of every tournament ``player`` is entered in, by tournament id."""
    events: dict[int, list[int]] = defaultdict(list)
    for tournament_id, event_id in (
        Event.objects.filter(tournament__events__entries__player=player)
        .distinct()
        .values_list("tournament_id", "pk")
    ):
        events[tournament_id].append(event_id)
    return dict(events)
