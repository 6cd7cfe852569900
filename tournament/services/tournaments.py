"""Tournaments: create one, change its details and name its directors."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.conf import settings
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core.money import is_currency
from matches.errors import refuse
from tournament import page_cache
from tournament.models import Tournament, User


def _free_slug(base: str) -> str:
    base = (slugify(base) or "tournament")[:40]
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _check_details(
    *, name: str, starts_on: dt.date | None, ends_on: dt.date | None, time_zone: str
) -> str:
    """The tournament's name, stripped, once its name, dates and time zone are valid."""
    name = (name or "").strip()
    if not name:
        raise refuse(_("A tournament needs a name."), code="invalid", field="name")
    if starts_on and ends_on and ends_on < starts_on:
        raise refuse(
            _("The tournament cannot end before it starts."), code="invalid", field="ends_on"
        )
    try:
        zoneinfo.ZoneInfo(time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as err:
        raise refuse(
            _("Unknown time zone {time_zone!r}.").format(time_zone=time_zone),
            code="invalid",
            field="time_zone",
        ) from err
    return name


#: The tournament's settings of GNU Backgammon's analysis.
ANALYSIS_FIELDS = ("analysis_enabled", "analysis_plies", "analysis_public")


def _plies(plies: int) -> int:
    if plies not in (0, 2):
        raise refuse(
            _("The analysis runs at 0 or 2 plies."), code="invalid", field="analysis_plies"
        )
    return plies


def _language(code: str) -> str:
    """``code`` if the site offers it (``settings.LANGUAGES``), else refused on ``language``."""
    offered = [c for c, _label in settings.LANGUAGES]
    if code not in offered:
        raise refuse(
            _("Choose one of the site's languages: {languages}.").format(
                languages=", ".join(offered)
            ),
            code="invalid",
            field="language",
        )
    return code


def currency_code(code: str) -> str:
    """``code`` upper-cased if it names a currency (ISO 4217, known to Babel), "" for none;
    else refused on ``currency``."""
    code = (code or "").strip().upper()
    if code and not is_currency(code):
        raise refuse(
            _("Unknown currency {code!r}: give its ISO 4217 code, e.g. EUR, or none.").format(
                code=code
            ),
            code="invalid",
            field="currency",
        )
    return code


def tournament_create(
    *,
    name: str,
    director: User | None = None,
    slug: str = "",
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    venue: str = "",
    time_zone: str = "UTC",
    is_public: bool = True,
    analysis_enabled: bool = True,
    analysis_plies: int = 2,
    analysis_public: bool = True,
    language: str = "en",
    currency: str = "",
) -> Tournament:
    """Create a tournament; ``director`` (usually the user creating it) directs it.

    ``language``: the tournament's language (one of ``settings.LANGUAGES``): its pages for
    visitors whose browser asks for none of the site's, its print sheets, and its emails
    to players who signed up in no language of their own.

    ``currency``: the ISO 4217 code its fees and prizes are shown in ("" for none).

    ``analysis_*``: GNU Backgammon's analysis of uploaded match files (on, at 2 plies,
    figures shown to all before the event ends, unless the director says otherwise).
    """
    name = _check_details(name=name, starts_on=starts_on, ends_on=ends_on, time_zone=time_zone)
    currency = currency_code(currency)
    with transaction.atomic():
        if slug:
            slug = slugify(slug)
            if not slug:
                raise refuse(
                    _("A slug is letters, digits and hyphens."), code="invalid", field="slug"
                )
            if Tournament.objects.filter(slug=slug).exists():
                raise refuse(
                    _("The slug {slug!r} is taken.").format(slug=slug),
                    code="slug-taken",
                    field="slug",
                )
        else:
            slug = _free_slug(name)
        tournament = Tournament(
            name=name,
            slug=slug,
            starts_on=starts_on,
            ends_on=ends_on,
            venue=(venue or "").strip(),
            time_zone=time_zone or "UTC",
            is_public=is_public,
            analysis_enabled=analysis_enabled,
            analysis_plies=_plies(analysis_plies),
            analysis_public=analysis_public,
            language=_language(language or "en"),
            currency=currency,
        )
        tournament.full_clean()
        tournament.save()
        if director is not None:
            tournament.directors.add(director)
    return tournament


def tournament_update(
    *,
    tournament: Tournament,
    name: str,
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    venue: str = "",
    time_zone: str = "UTC",
    is_public: bool = True,
    analysis_enabled: bool = True,
    analysis_plies: int = 2,
    analysis_public: bool = True,
    language: str | None = None,
    currency: str | None = None,
) -> Tournament:
    """Change a tournament's details; its slug (the address of its pages) stays
    (``language`` ``None`` or empty: the tournament's language stays as it is;
    ``currency`` ``None``: its currency stays, ``""``: amounts without one).

    The tournament's pages, the site's lists and its events' pages (which show its
    name, dates, time zone and money) are invalidated once the change commits.
    """
    name = _check_details(name=name, starts_on=starts_on, ends_on=ends_on, time_zone=time_zone)
    code = None if currency is None else currency_code(currency)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        tournament.name = name
        tournament.starts_on = starts_on
        tournament.ends_on = ends_on
        tournament.venue = (venue or "").strip()
        tournament.time_zone = time_zone or "UTC"
        tournament.is_public = is_public
        tournament.analysis_enabled = analysis_enabled
        tournament.analysis_plies = _plies(analysis_plies)
        tournament.analysis_public = analysis_public
        if language:
            tournament.language = _language(language)
        if code is not None:
            tournament.currency = code
        tournament.full_clean(exclude=["slug"])
        tournament.save(
            update_fields=[
                "name",
                "starts_on",
                "ends_on",
                "venue",
                "time_zone",
                "is_public",
                "language",
                "currency",
                *ANALYSIS_FIELDS,
            ]
        )
        page_cache.invalidate_tournament_on_commit(
            tournament.pk, list(tournament.events.values_list("pk", flat=True))
        )
    return tournament


def tournament_director_add(*, tournament: Tournament, user: User) -> Tournament:
    """Make ``user`` a director of ``tournament`` (no change if already one)."""
    with transaction.atomic():
        tournament.directors.add(user)
    return tournament
