"""Players: create and update the people who play."""

from __future__ import annotations

import unicodedata

from django.db import transaction

from tournament.models import Player, User
from tournament.services.common import refuse

MAX_RATING = 4000.0
#: Joiners some scripts need inside a word (Persian, Indic); other format characters
#: (bidi overrides and isolates, zero-width spaces) are refused.
ALLOWED_FORMAT = frozenset("\u200c\u200d")


def text_problem(text: str, what: str = "A name") -> str | None:
    """Why ``text`` cannot be a name (line breaks, tabs, bidi or other control
    characters), or None. Used for names and clubs by every way players arrive."""
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") or (category == "Cf" and char not in ALLOWED_FORMAT):
            kind = (
                "a line break" if char in "\r\n\x0b\x0c\x85\u2028\u2029" else "a control character"
            )
            return f"{what} may not contain {kind} (U+{ord(char):04X})."
    return None


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


def player_namesakes(name: str) -> list[Player]:
    """Players already called ``name`` (case and spacing aside)."""
    wanted = " ".join((name or "").split())
    if not wanted:
        return []
    return list(Player.objects.filter(name__iexact=wanted).order_by("pk")[:5])


def namesake_text(player: Player) -> str:
    """How a refusal names an existing player: name (club, email)."""
    facts = ", ".join(f for f in (player.club, player.email) if f) or "no club or email"
    return f"{player.name} ({facts})"


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
            named = "; ".join(namesake_text(p) for p in namesakes)
            raise refuse(
                f"A player named {' '.join(name.split())} already exists: {named}. Use that player, or "
                "confirm that this is a new one.",
                code="possible-duplicate",
                field="name",
                existing=[
                    {"id": p.pk, "name": p.name, "club": p.club, "email": p.email}
                    for p in namesakes
                ],
            )
    with transaction.atomic():
        player = Player(name=name, email=email, club=club, country=country, user=user)
        if rating is not None:
            player.rating = rating
        player.full_clean(exclude=["user"])
        player.save()
    return player


def player_update(
    *,
    player: Player,
    name: str | None = None,
    email: str | None = None,
    rating: float | None = None,
    club: str | None = None,
    country: str | None = None,
) -> Player:
    """Change a player's details; ``None`` leaves a field as it is."""
    new_name, new_email, new_rating, new_club, new_country = _clean(
        name=player.name if name is None else name,
        email=player.email if email is None else email,
        rating=rating,
        club=player.club if club is None else club,
        country=player.country if country is None else country,
    )
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        player.name, player.email, player.club, player.country = (
            new_name,
            new_email,
            new_club,
            new_country,
        )
        if new_rating is not None:
            player.rating = new_rating
        player.full_clean(exclude=["user"])
        player.save()
    return player
