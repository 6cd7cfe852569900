"""Director actions the console needs beyond the core services: undo a check-in, enter
a player new to the tournament in one step, settle a match from its final score, and
preview a players CSV (checked by the import's own parser) before importing it.

Same conventions as the other services: keyword-only, typed, one transaction each,
rows locked where shared state changes, refusals as ``Invalid`` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from matches.errors import refuse
from tournament.models import Entry, Event, Player, User
from tournament.services.entries import entry_register
from tournament.services.imports import RowError, decode_text, hidden_rows, known_player, parse_rows
from tournament.services.players import name_key, player_create, players_named
from tournament.services.results import match_final_score_enter
from tournament.services.signup import signup_known_player

#: Settling a match from its final score is a decision like the others (``results``).
__all__ = [
    "entry_check_in_undo",
    "entry_register_player",
    "match_final_score_enter",
    "players_csv_preview",
]


def entry_check_in_undo(*, entry: Entry, by: User | None = None) -> Entry:
    """Take back a check-in (a mistaken click) while the event is not drawn yet."""
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update(of=("self",), no_key=True)
            .select_related("event", "player")
            .get(pk=entry.pk)
        )
        if entry.status == Entry.Status.REGISTERED:
            return entry
        if entry.status != Entry.Status.CHECKED_IN:
            raise refuse(
                _("{entry_player} is {entry_get_status_display_lower}, not checked in.").format(
                    entry_player=entry.player,
                    entry_get_status_display_lower=entry.status_in_text(),
                ),
                code="not-checked-in",
            )
        if entry.event.status != Event.Status.REGISTRATION:
            raise refuse(
                _(
                    "{entry_event_name} is drawn: a check-in can no longer be "
                    "taken back; withdraw the player instead."
                ).format(entry_event_name=entry.event.name),
                code="event-drawn",
            )
        entry.status = Entry.Status.REGISTERED
        entry.checked_in_at = None
        entry.save(update_fields=["status", "checked_in_at"])
    return entry


def entry_register_player(
    *,
    event: Event,
    player: Player | None = None,
    name: str = "",
    email: str = "",
    rating: float | None = None,
    club: str = "",
    seed: int | None = None,
    by: User | None = None,
    confirm_new: bool = False,
) -> Entry:
    """Enter ``player``, or a new player made from ``name`` and the rest, in ``event``.

    Both happen or neither does: a refused entry leaves no stray player behind. A new
    name that a player already has is refused (``possible-duplicate``) unless
    ``confirm_new``.
    """
    if (player is None) == (not (name or "").strip()):
        raise refuse(
            _("Choose a player or type a new player's name (one of the two)."),
            code="invalid",
            field="name",
        )
    with transaction.atomic():
        if player is None:
            player = _typed_again(event, name, email) or player_create(
                name=name, email=email, rating=rating, club=club, confirm_new=confirm_new, by=by
            )
        return entry_register(event=event, player=player, seed=seed, by=by)


def _typed_again(event: Event, name: str, email: str) -> Player | None:
    """The player a new name and email already are: the one a sign-up with that address
    would be (the tournament's contact, else their own email, in any case), when the
    name is theirs too. The same person typed again is entered, not made twice."""
    if not email.strip():
        return None
    known = signup_known_player(event=event, email=email.strip())
    return known if known is not None and name_key(known.name) == name_key(name) else None


@dataclass(frozen=True)
class PreviewRow:
    """A line of the CSV that would import, and whether it is a player already known."""

    line: int
    name: str
    email: str
    rating: float | None
    club: str
    country: str
    known: Player | None
    namesakes: list[Player] = field(default_factory=list)


@dataclass
class CsvPreview:
    """What ``players_import_csv`` would do with a file, without doing it."""

    rows: list[PreviewRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def new_count(self) -> int:
        return sum(1 for row in self.rows if row.known is None)

    @property
    def known_count(self) -> int:
        return len(self.rows) - self.new_count

    @property
    def namesake_count(self) -> int:
        """New players whose name a known player has (to check: the same person?)."""
        return sum(1 for row in self.rows if row.namesakes)


def players_csv_preview(*, data: str | bytes, by: User | None = None) -> CsvPreview:
    """Check a players CSV exactly as the import will (as ``by`` would import it), and say
    who is new; saves nothing."""
    rows, errors = parse_rows(decode_text(data))
    if not errors and not rows:
        errors.append(RowError(2, None, _("The file has a header but no players.")))
    if not errors:
        errors = hidden_rows(rows, by)
    preview = CsvPreview(errors=errors)
    named = players_named((row.name for row in rows), by=by)
    for row in rows:
        known = known_player(row, by)
        preview.rows.append(
            PreviewRow(
                line=row.line,
                name=row.name,
                email=row.email,
                rating=row.rating,
                club=row.club,
                country=row.country,
                known=known,
                namesakes=named.get(name_key(row.name), []) if known is None else [],
            )
        )
    return preview
