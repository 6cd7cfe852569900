"""Import players from CSV (``name,email,rating,club``; ``country`` too), all or nothing.

Every row is checked first; when any row is wrong nothing is saved and each error
names its line and column. A row whose email (or, without one, name and club)
matches a known player reuses that player, so importing a file twice adds nobody. A new
player whose name another player already has is created, and named among the result's
``namesakes`` for the director to check (two people can share a name; one person typed
twice with another club is a duplicate).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from matches.errors import refuse
from tournament.models import Entry, Event, Player, User
from tournament.services.entries import entry_register
from tournament.services.players import (
    MAX_RATING,
    name_key,
    player_create,
    players_named,
)
from tournament.text import text_problem

COLUMNS = ("name", "email", "rating", "club", "country")
MAX_ROWS = 5000


@dataclass(frozen=True)
class RowError:
    """A problem in one line of the file (the header is line 1)."""

    row: int
    field: str | None
    message: str


@dataclass(frozen=True)
class Namesake:
    """A new player from line ``row`` whose name players already known have."""

    row: int
    player: Player
    existing: list[Player]


@dataclass
class ImportResult:
    """Players created, players already known, how many were entered, the errors, and
    the new players who share a name with a known one."""

    created: list[Player] = field(default_factory=list)
    existing: list[Player] = field(default_factory=list)
    entered: int = 0
    errors: list[RowError] = field(default_factory=list)
    namesakes: list[Namesake] = field(default_factory=list)


@dataclass(frozen=True)
class _Row:
    line: int
    name: str
    email: str
    rating: float | None
    club: str
    country: str


def decode_text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def parse_rows(text: str) -> tuple[list[_Row], list[RowError]]:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    header = next(reader, None)
    if not header:
        return [], [
            RowError(1, None, _("The file is empty: it needs a header row name,email,rating,club."))
        ]
    names = [h.strip().lower() for h in header]
    if "name" not in names:
        return [], [
            RowError(
                1,
                "name",
                _("The header has no 'name' column (found: {found}).").format(
                    found=", ".join(names)
                ),
            )
        ]
    unknown = [h for h in names if h and h not in COLUMNS]
    errors: list[RowError] = []
    if unknown:
        errors.append(
            RowError(
                1,
                None,
                _("Unknown column(s) {unknown}: use {columns}.").format(
                    unknown=", ".join(unknown), columns=", ".join(COLUMNS)
                ),
            )
        )
    rows: list[_Row] = []
    seen_emails: dict[str, int] = {}
    for line, values in enumerate(reader, start=2):
        if not any(v.strip() for v in values):
            continue
        if len(rows) >= MAX_ROWS:
            errors.append(
                RowError(line, None, _("At most {count} players per file.").format(count=MAX_ROWS))
            )
            break
        if len(values) > len(names):
            errors.append(
                RowError(
                    line,
                    None,
                    _("{values} values for {columns} columns.").format(
                        values=len(values), columns=len(names)
                    ),
                )
            )
            continue
        cell = {names[k]: values[k].strip() for k in range(len(values))}
        name, email = cell.get("name", ""), cell.get("email", "")
        club, country = cell.get("club", ""), cell.get("country", "").upper()
        rating_text = cell.get("rating", "")
        row_errors: list[RowError] = []
        if not name:
            row_errors.append(RowError(line, "name", _("The name is empty.")))
        elif len(name) > 120:
            row_errors.append(RowError(line, "name", _("The name is longer than 120 characters.")))
        elif problem := text_problem(name):
            row_errors.append(RowError(line, "name", problem))
        if problem := text_problem(club, "A club"):
            row_errors.append(RowError(line, "club", problem))
        if email:
            try:
                validate_email(email)
            except ValidationError:
                row_errors.append(
                    RowError(
                        line,
                        "email",
                        _("{email} is not an email address.").format(email=repr(email)),
                    )
                )
            else:
                if email.lower() in seen_emails:
                    row_errors.append(
                        RowError(
                            line,
                            "email",
                            _("{email} is already on line {line}.").format(
                                email=email, line=seen_emails[email.lower()]
                            ),
                        )
                    )
                seen_emails.setdefault(email.lower(), line)
        rating: float | None = None
        if rating_text:
            try:
                rating = float(rating_text.replace(",", "."))
            except ValueError:
                row_errors.append(
                    RowError(
                        line,
                        "rating",
                        _("{value} is not a number.").format(value=repr(rating_text)),
                    )
                )
            else:
                if not 0 < rating <= MAX_RATING:
                    row_errors.append(
                        RowError(
                            line,
                            "rating",
                            _("A rating is above 0 and at most {max:g}.").format(max=MAX_RATING),
                        )
                    )
        if len(club) > 120:
            row_errors.append(RowError(line, "club", _("The club is longer than 120 characters.")))
        if country and (len(country) != 2 or not country.isalpha()):
            row_errors.append(RowError(line, "country", _("A country is a two-letter ISO code.")))
        errors.extend(row_errors)
        if not row_errors:
            rows.append(_Row(line, name, email, rating, club, country))
    return rows, errors


def known_player(row: _Row, by: User | None = None) -> Player | None:
    """The player a row names: by email, else by name and club among those without one;
    only a player ``by`` may see (``hidden_rows`` refuses a hidden player's email)."""
    from tournament.services.players import players_seen_by

    seen = players_seen_by(by)
    if row.email:
        return seen.filter(email__iexact=row.email).order_by("id").first()
    return (
        seen.filter(name__iexact=row.name, club__iexact=row.club)
        .filter(Q(email="") | Q(email__isnull=True))
        .order_by("id")
        .first()
    )


def hidden_rows(rows: list[_Row], by: User | None) -> list[RowError]:
    """Rows whose email belongs to a player ``by`` may not see (one seen only in another
    director's private tournament): refused as no player of theirs, never entered, and
    no second player gets the address."""
    if by is None:
        return []
    from tournament.selectors import players_visible_to

    emails = {row.email.casefold() for row in rows if row.email}
    if not emails:
        return []
    any_of = Q()
    for email in emails:
        any_of |= Q(email__iexact=email)
    taken = {e.casefold() for e in Player.objects.filter(any_of).values_list("email", flat=True)}
    seen = {
        e.casefold() for e in players_visible_to(by).filter(any_of).values_list("email", flat=True)
    }
    return [
        RowError(
            row.line,
            "email",
            _(
                "Another player already has the email {email}, and is not one you can "
                "enter: leave the email out (and set it as your tournament's contact for them "
                "once imported), or ask staff."
            ).format(email=row.email),
        )
        for row in rows
        if row.email and row.email.casefold() in taken - seen
    ]


def players_import_csv(
    *, data: str | bytes, event: Event | None = None, by: User | None = None
) -> ImportResult:
    """Create the file's players (and enter them in ``event``), or nothing if a row is wrong."""
    result = ImportResult()
    rows, result.errors = parse_rows(decode_text(data))
    if not result.errors and not rows:
        result.errors.append(RowError(2, None, _("The file has a header but no players.")))
    if not result.errors:
        result.errors = hidden_rows(rows, by)
    if result.errors:
        return result
    if event is not None and event.feeds_from_id is not None:
        raise refuse(
            _("{event_name} is filled by its Main's losers.").format(event_name=event.name),
            code="fed-event",
            field="event",
        )
    with transaction.atomic():
        named = players_named((row.name for row in rows), by=by)
        for row in rows:
            player = known_player(row, by)
            if player is None:
                namesakes = named.get(name_key(row.name), [])[:5]
                player = player_create(
                    name=row.name,
                    email=row.email,
                    rating=row.rating,
                    club=row.club,
                    country=row.country,
                    by=by,
                )
                result.created.append(player)
                named.setdefault(name_key(row.name), []).append(player)  # for the rows below
                if namesakes:
                    result.namesakes.append(Namesake(row.line, player, namesakes))
            else:
                result.existing.append(player)
            if (
                event is not None
                and not Entry.objects.filter(event=event, player=player)
                .exclude(status=Entry.Status.WITHDRAWN)
                .exists()
            ):
                entry_register(event=event, player=player, by=by)
                result.entered += 1
    return result
