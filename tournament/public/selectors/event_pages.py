"""An event's page: its bracket (with companion brackets) or standings and rounds, slips, draws."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Exists, Q
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.models import Match
from tournament import selectors
from tournament.formats.feed_in import FeedInBracket, FromLoser
from tournament.models import Draw, Event, Round
from tournament.public import bracket as layout
from tournament.public.boxes import Destination
from tournament.public.selectors.common import matches_with_players
from tournament.selectors import in_field
from tournament.selectors.brackets import double_elimination, feed_in

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

ELIMINATION = frozenset({Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION})
COMPANION_KINDS = (Event.Kind.CONSOLATION, Event.Kind.LAST_CHANCE)


@dataclass(frozen=True)
class LogLine:
    """A pairing log line no ``PairingNote`` stores: a Swiss's round 1, paired by the draw."""

    round_number: int
    display_text: StrOrPromise


def _pairing_log(event: Event) -> list[Any]:
    """The pairing log's lines: its notes, after a line for round 1 when none names it
    (the count in the summary is of the rounds listed, and round 1 is one of them)."""
    notes: list[Any] = list(event.pairing_notes.order_by("id"))
    if notes and all(note.round_number != 1 for note in notes):
        notes.insert(0, LogLine(1, gettext_lazy("Round 1 paired by the draw, from its seed.")))
    return notes


def event_by_slugs(slug: str, event_slug: str) -> Event:
    """The event ``event_slug`` of tournament ``slug`` (tournament and champion joined) or 404."""
    try:
        return Event.objects.select_related("tournament", "champion__player", "feeds_from").get(
            tournament__slug=slug, slug=event_slug
        )
    except Event.DoesNotExist:
        raise Http404(_("No such event")) from None


def event_url(event: Event) -> str:
    return reverse("public-event", args=[event.tournament.slug, event.slug])


@dataclass(frozen=True)
class EventPage:
    event: Event
    bracket: layout.Bracket | None
    companions: list[layout.Bracket]
    feeds_into: list[Event]
    standings: Standings | None
    rounds: list[tuple[Round, list[Match]]]
    draws: list[Draw]
    entry_count: int
    counts: Any = None
    """An elimination Swiss: players alive, cashing and out (``selectors.EliminationCounts``)."""
    pairing_notes: list[Any] = field(default_factory=list)
    """The public lines of the pairing log (``PairingNote`` or ``LogLine``), round by round."""
    apart_note: bool = False
    """A bracket with forbidden pairs: round 1 keeps them apart where the draw allows."""

    @property
    def pairing_rounds(self) -> int:
        """How many rounds the pairing log's lines are about."""
        return len({note.round_number for note in self.pairing_notes})


def _companions(event: Event) -> list[Event]:
    """Events drawn beside a Main: those it feeds, and the tournament's Consolation and Last
    Chance brackets that no event feeds, beside its first Main only (one query)."""
    if event.kind != Event.Kind.MAIN:
        return []
    earlier_main = Event.objects.filter(
        tournament_id=event.tournament_id, kind=Event.Kind.MAIN
    ).filter(Q(position__lt=event.position) | Q(position=event.position, pk__lt=event.pk))
    return list(
        Event.objects.filter(tournament_id=event.tournament_id, kind__in=COMPANION_KINDS)
        .filter(Q(feeds_from=event) | Q(feeds_from__isnull=True) & ~Exists(earlier_main))
        .select_related("tournament", "champion__player", "feeds_from")
        .order_by("position", "id")
    )


def _main_entrants(event_ids: Iterable[int]) -> dict[int, int]:
    """Players placed in round 1 of each event's main bracket (one query for all)."""
    ids = list(event_ids)
    if not ids:
        return {}
    rows = (
        Match.objects.filter(event_id__in=ids, round__bracket=Round.Bracket.MAIN, round__number=1)
        .values("event_id")
        .annotate(
            first=Count("pk", filter=Q(entry1__isnull=False)),
            second=Count("pk", filter=Q(entry2__isnull=False)),
        )
        .order_by()
    )
    return {row["event_id"]: row["first"] + row["second"] for row in rows}


def _feed_placeholders(
    structure: FeedInBracket, bracket: str, source: str
) -> dict[tuple[str, int, int, int], str]:
    fills: dict[tuple[str, int, int, int], str] = {}
    for number, matches in enumerate(structure.rounds, start=1):
        for match in matches:
            for position, line in enumerate((match.upper, match.lower)):
                if isinstance(line, FromLoser):
                    ref = line.match
                    fills[(bracket, number, match.ref.index, position)] = _(
                        "Loser of {source} R{round} M{match}"
                    ).format(source=source, round=ref.round, match=ref.index + 1)
    return fills


def _placeholders(event: Event, entrants: dict[int, int]) -> layout.Placeholders:
    """Who will fill each empty line of a Consolation or a losers bracket."""
    try:
        if (
            event.feeds_from_id
            and event.feed_rounds
            and event.feeds_from_id in entrants
            and event.feeds_from is not None
        ):
            structure = feed_in(entrants[event.feeds_from_id], tuple(event.feed_rounds))
            return _feed_placeholders(structure, Round.Bracket.MAIN, event.feeds_from.name)
        if event.format == Event.Format.DOUBLE_ELIMINATION and entrants.get(event.pk, 0) > 1:
            fills = _feed_placeholders(
                double_elimination(entrants[event.pk]).losers, Round.Bracket.LOSERS, "W"
            )
            fills[(Round.Bracket.FINAL, 1, 0, 0)] = _("Winners bracket champion")
            fills[(Round.Bracket.FINAL, 1, 0, 1)] = _("Losers bracket champion")
            return fills
    except ValueError:  # a structure the draw did not make: show plain empty lines
        return {}
    return {}


def event_and_companion_ids(event: Event) -> list[int]:
    """``event``'s id followed by the ids of the events its page draws beside it."""
    return [event.pk, *(e.pk for e in _companions(event))]


def _brackets(
    events: Sequence[Event], destinations: dict[int, Destination] | None = None
) -> dict[int, layout.Bracket]:
    """The bracket of each elimination event in ``events``: four queries for all of them."""
    chosen = [e for e in events if e.format in ELIMINATION]
    if not chosen:
        return {}
    ids = [e.pk for e in chosen]
    rounds: dict[int, list[Round]] = {}
    for rnd in Round.objects.filter(event_id__in=ids):
        rounds.setdefault(rnd.event_id, []).append(rnd)
    matches: dict[int, list[layout.MatchRow]] = {}
    rows = (
        Match.objects.filter(event_id__in=ids)
        .order_by("round_id", "slot")
        .values_list(*layout.MatchRow.FIELDS)
    )
    for row in rows:
        match = layout.MatchRow.from_values(row)
        matches.setdefault(match.event_id, []).append(match)
    feeders = {e.feeds_from_id for e in chosen if e.feeds_from_id and e.feed_rounds}
    doubles = {e.pk for e in chosen if e.format == Event.Format.DOUBLE_ELIMINATION}
    entrants = _main_entrants(feeders | doubles)
    return {
        e.pk: layout.build(
            e,
            rounds.get(e.pk, []),
            matches.get(e.pk, []),
            destinations,
            _placeholders(e, entrants),
        )
        for e in chosen
    }


def _destinations(companions: Iterable[layout.Bracket]) -> dict[int, Destination]:
    """Player -> the first companion round they appear in (for the Main's losers)."""
    found: dict[int, Destination] = {}
    for companion in companions:
        href = event_url(companion.event)
        for section in companion.sections:
            for column in section.columns:
                for box in column.boxes:
                    for line in (box.top, box.bottom):
                        if line.player_id is not None and line.player_id not in found:
                            found[line.player_id] = Destination(
                                f"{companion.event.name} R{column.number}",
                                f"{href}#m{box.match_id}",
                            )
    return found


@dataclass(frozen=True)
class Standings:
    """The standings table: its tie-break columns (name, label) and each row's values."""

    columns: list[tuple[str, StrOrPromise]]
    rows: list[tuple[Any, list[float]]]
    elimination: int | None = None
    """An elimination Swiss: the losses that put a player out."""

    @property
    def columns_in_text(self) -> list[StrOrPromise]:
        """The tie-breaks as they read inside the sentence under the table."""
        return [
            selectors.TIEBREAKS_IN_TEXT.get(name, str(label).lower())
            for name, label in self.columns
        ]


def _standings(event: Event) -> Standings:
    """Swiss or round-robin standings (``tournament.selectors.standings``) laid out as a table."""
    rows = selectors.standings(event)
    names = [n for n in (event.tiebreaks or selectors.DEFAULT_TIEBREAKS) if n != "wins"]
    columns = [(n, selectors.TIEBREAKS.get(n, n.replace("_", " "))) for n in names]
    return Standings(
        columns,
        [(row, [row.columns.get(n, 0) for n in names]) for row in rows],
        event.losses_to_eliminate if event.is_elimination_swiss else None,
    )


def event_page(event: Event) -> EventPage:
    """Everything the event page shows: the bracket (and companions) or standings and pairings."""
    draws = list(event.draws.order_by("-created_at"))
    entry_count = in_field(event.entries.all()).count()
    feeds_into = list(event.feeds.order_by("position", "id"))
    if event.format in ELIMINATION:
        companions = _companions(event)
        side = list(_brackets(companions).values())
        destinations = _destinations(side)
        main = _brackets([event], destinations).get(event.pk)
        apart = event.feeds_from_id is None and (
            event.avoid_same_club_first_round or event.forbidden_pairs.exists()
        )
        return EventPage(
            event, main, side, feeds_into, None, [], draws, entry_count, apart_note=apart
        )
    rounds = list(event.rounds.order_by("number"))
    by_round: dict[int, list[Match]] = {r.pk: [] for r in rounds}
    for match in matches_with_players().filter(event=event).order_by("round__number", "slot"):
        by_round.setdefault(match.round_id, []).append(match)
    return EventPage(
        event,
        None,
        [],
        feeds_into,
        _standings(event),
        [(r, by_round[r.pk]) for r in reversed(rounds)],
        draws,
        entry_count,
        counts=selectors.elimination_counts(event) if event.is_elimination_swiss else None,
        pairing_notes=_pairing_log(event),
        apart_note=event.format == Event.Format.ROUND_ROBIN
        and (event.avoid_same_club_first_round or event.forbidden_pairs.exists()),
    )


def event_slips(event: Event) -> list[Match]:
    """Matches to print slips for: both players known and not yet decided, in round order."""
    return list(
        matches_with_players()
        .select_related("round")
        .filter(event=event, entry1__isnull=False, entry2__isnull=False, is_bye=False)
        .exclude(status=Match.Status.COMPLETE)
        .order_by("round__bracket", "round__number", "slot")
    )


def draw_of(event: Event, draw_id: int) -> Draw:
    """One draw of ``event`` (its maker joined) or 404."""
    try:
        return Draw.objects.select_related("made_by").get(event=event, pk=draw_id)
    except Draw.DoesNotExist:
        raise Http404(_("No such draw")) from None
