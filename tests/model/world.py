"""What the tournament model reads and runs besides the services: the worker's part
(the outbox's follow-up tasks, run in this process), the notices it sent, the field as
every page and the API count it, and games that finish a match.

Everything here reads through the same selectors and serializers the pages and the API
use, so that an invariant checked here is what a visitor sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core import mail
from django.db.models import Q

from matches.models import Match
from matches.rules.match import MatchRules, MatchState
from tournament.models import Entry, Event, OutboxTask, Tournament
from tournament.services.results import GameResult

#: Entries that hold a place and may still play.
ACTIVE = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
#: A match a player sits at now (both players known, not decided).
OPEN = (Match.Status.READY, Match.Status.PLAYING, Match.Status.REPORTED, Match.Status.DISPUTED)
LEAGUES = (Event.Format.SWISS, Event.Format.SWISS_ELIMINATION, Event.Format.ROUND_ROBIN)


# ---- games --------------------------------------------------------------------------


def winning_games(match: Match, side: int) -> list[GameResult]:
    """Games that take ``side`` (1 or 2) from the match's score to its length."""
    rules = MatchRules(length=match.length, crawford=match.crawford)
    state = MatchState.start(match.length, (match.score1, match.score2))
    games: list[GameResult] = []
    while not state.is_over:
        remaining = match.length - state.score[side - 1]
        cube = 1
        if not state.is_crawford_game(rules):
            while cube * 2 <= remaining and cube < 8:
                cube *= 2
        games.append(GameResult(winner=side, cube=cube))
        state = state.after_game(side - 1, cube)
    return games


# ---- the worker's part --------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """One "your next match" email as it went out: to whom, about which match and opponent."""

    index: int  # its place in ``mail.outbox``
    to: str
    match_id: int
    entry_id: int
    opponent_id: int
    opponent_name: str
    withdrawn_at_send: bool  # either player was withdrawn when it was sent


@dataclass(frozen=True)
class Correction:
    """One correction email as it went out: which notice (match, entry, opponent) it took
    back, to whom."""

    index: int  # its place in ``mail.outbox``
    to: str
    match_id: int
    entry_id: int
    opponent_id: int
    opponent_name: str


def _subject_is(message: mail.EmailMessage, *templates: str) -> bool:
    """The subject was written from one of ``templates``, in the language the email is
    written in (its ``Content-Language``): every fixed part of the translation is in it."""
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override(message.extra_headers.get("Content-Language") or "en"):
        translated = [gettext(t) for t in templates]
    return any(
        all(part in message.subject for part in re.split(r"\{\w+\}", text) if part.strip())
        for text in translated
    )


def says_next_match(message: mail.EmailMessage) -> bool:
    """A "your next match" email (with or without its table), in any language."""
    return _subject_is(
        message,
        "Your next match: {opponent} ({event}, {round})",
        "Your next match: {opponent} ({event}, {round}, table {table})",
    )


def says_correction(message: mail.EmailMessage) -> bool:
    """A correction of a "your next match" email, in any language."""
    return _subject_is(message, "Correction: your match against {opponent} is off ({round})")


class FollowUpFailed(AssertionError):
    """A follow-up task of the outbox failed: the services left work that cannot be done."""


def run_worker(
    notices: list[Notice], *, corrections: list[Correction] | None = None, limit: int = 60
) -> None:
    """Run every outbox row, in order, as the worker would after the commit, until none is
    left (a task may write more); record the "your next match" emails they send, and the
    corrections (in ``corrections``, if given)."""
    from tournament.services.player_links import notice_emails
    from tournament.tasks.notifications import notify_corrections, notify_match_ready
    from tournament.tasks.outbox import run_outbox

    for _ in range(limit):
        rows = list(OutboxTask.objects.order_by("pk").values_list("pk", "task", "args"))
        if not rows:
            return
        for pk, task, args in rows:
            before = len(mail.outbox)
            seen = None
            if task == notify_match_ready.name:
                seen = (
                    Match.objects.select_related("event", "entry1__player", "entry2__player")
                    .filter(pk=args[0])
                    .first()
                )
            standing = (
                _uncorrected(args[0])
                if task == notify_corrections.name and corrections is not None
                else {}
            )
            run_outbox(pk)
            left = OutboxTask.objects.filter(pk=pk).values_list("last_error", flat=True).first()
            if left is not None:
                raise FollowUpFailed(f"outbox task {task}{tuple(args)} failed: {left}")
            if standing and corrections is not None:
                _record_corrections(standing, before, corrections)
            if seen is None or seen.entry1 is None or seen.entry2 is None:
                continue
            pair = (seen.entry1, seen.entry2)
            contacts = notice_emails(seen.event.tournament_id, [e.player_id for e in pair])
            withdrawn = any(e.status == Entry.Status.WITHDRAWN for e in pair)
            for index in range(before, len(mail.outbox)):
                message = mail.outbox[index]
                for entry, opponent in (pair, pair[::-1]):
                    to = contacts.get(entry.player_id, "")
                    if to and to in message.to and says_next_match(message):
                        notices.append(
                            Notice(
                                index=index,
                                to=to,
                                match_id=seen.pk,
                                entry_id=entry.pk,
                                opponent_id=opponent.pk,
                                opponent_name=opponent.player.name,
                                withdrawn_at_send=withdrawn,
                            )
                        )
                        break
    raise FollowUpFailed("the outbox never empties: a task keeps writing more")


def _uncorrected(event_id: int) -> dict[int, tuple[int, int, int, int, str, int]]:
    """The event's notices not corrected yet: id -> (match, entry, opponent, player,
    opponent's name, tournament)."""
    from tournament.models import Notice as SentNotice

    return {
        row[0]: row[1:]
        for row in SentNotice.objects.filter(
            match__event_id=event_id, corrected_at__isnull=True
        ).values_list(
            "pk",
            "match_id",
            "entry_id_sent",
            "opponent_entry_id",
            "player_id",
            "opponent_name",
            "match__event__tournament_id",
        )
    }


def _record_corrections(
    standing: dict[int, tuple[int, int, int, int, str, int]],
    before: int,
    corrections: list[Correction],
) -> None:
    """The corrections a run of ``notify_corrections`` sent: each notice it marked
    corrected, with the email that went to the player's address about that opponent."""
    from tournament.models import Notice as SentNotice
    from tournament.services.player_links import notice_emails

    done = set(
        SentNotice.objects.filter(pk__in=list(standing), corrected_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    if not done:
        return
    (tournament_id,) = {row[5] for row in standing.values()}
    contacts = notice_emails(tournament_id, [standing[pk][3] for pk in done])
    for pk in sorted(done):
        match_id, entry_id, opponent_id, player_id, opponent_name, _t = standing[pk]
        to = contacts.get(player_id, "")
        for index in range(before, len(mail.outbox)):
            message = mail.outbox[index]
            subject = message.subject.lower()
            if to in message.to and opponent_name.lower() in subject and says_correction(message):
                corrections.append(
                    Correction(index, to, match_id, entry_id, opponent_id, opponent_name)
                )
                break


#: Words a correction of a "your next match" email uses.
CORRECTION_WORDS = ("is off", "cancel", "no longer", "called off")


def notice_corrected(notice: Notice, corrections: Sequence[Correction] | None = None) -> bool:
    """A later correction takes the notice back: one of ``corrections`` about its match,
    player and opponent; without them, a later email to the same address that names the
    opponent and says the match is off."""
    if corrections is not None:
        return any(
            c.index > notice.index
            and (c.match_id, c.entry_id, c.opponent_id)
            == (notice.match_id, notice.entry_id, notice.opponent_id)
            for c in corrections
        )
    for message in mail.outbox[notice.index + 1 :]:
        if notice.to not in message.to:
            continue
        text = f"{message.subject}\n{message.body}".lower()
        if notice.opponent_name.lower() in text and any(w in text for w in CORRECTION_WORDS):
            return True
    return False


#: Decisions that mean a match is not played (or not on): a notice of it is off.
UNPLAYED = (Match.Decision.WALKOVER, Match.Decision.FORFEIT)


def match_holds(match_id: int, entry_id: int, opponent_id: int) -> bool:
    """Match ``match_id`` is on between these two entries, as a "your next match" said:
    they are its players, it is not waiting (pending) nor a bye, and it was not decided by
    walkover or forfeit (a match that will not be played, or not on) but for the player
    whose own withdrawal gave it away by walkover: they know."""
    match = Match.objects.select_related("entry1", "entry2").filter(pk=match_id).first()
    if match is None or match.is_bye or match.status == Match.Status.PENDING:
        return False
    if {match.entry1_id, match.entry2_id} != {entry_id, opponent_id}:
        return False
    if match.decision not in UNPLAYED:
        return True
    own = match.entry1 if match.entry1_id == entry_id else match.entry2
    return (
        match.decision == Match.Decision.WALKOVER
        and match.winner_id != entry_id
        and own is not None
        and own.status == Entry.Status.WITHDRAWN
    )


def notice_true(notice: Notice) -> bool:
    """The notice still holds: its match is on between these two players
    (``match_holds``), and neither had withdrawn when it went out."""
    if notice.withdrawn_at_send:
        return False
    return match_holds(notice.match_id, notice.entry_id, notice.opponent_id)


def correction_true(correction: Correction, notices: Sequence[Notice]) -> bool:
    """The correction still holds: the match it called off is not on between these two
    (``match_holds``), or a later "your next match" told them it is on again."""
    if not match_holds(correction.match_id, correction.entry_id, correction.opponent_id):
        return True
    return any(
        n.index > correction.index
        and (n.match_id, n.entry_id, n.opponent_id)
        == (correction.match_id, correction.entry_id, correction.opponent_id)
        for n in notices
    )


# ---- the field ----------------------------------------------------------------------


def seated(event: Event) -> set[int]:
    """Entries of ``event`` that sit in one of its matches."""
    ids: set[int] = set()
    for e1, e2 in Match.objects.filter(event=event).values_list("entry1_id", "entry2_id"):
        ids.update(e for e in (e1, e2) if e is not None)
    return ids


def expected_field(event: Event) -> set[int]:
    """The model's own definition of an event's field (independent of the code's):
    before the draw, every entry that holds a place (registered or checked in); after it,
    the players drawn or fed in (seated in a match), and in a Swiss event still under way
    also the active players the next round will pair (late entries)."""
    event.refresh_from_db()
    if event.status == Event.Status.REGISTRATION:
        return set(event.entries.filter(status__in=ACTIVE).values_list("pk", flat=True))
    field = seated(event)
    if event.is_swiss and event.status != Event.Status.FINISHED:
        field |= set(event.entries.filter(status__in=ACTIVE).values_list("pk", flat=True))
    return field


def field_counts(tournament: Tournament, events: Sequence[Event]) -> dict[int, dict[str, int]]:
    """How many players each page and the API say each of ``events`` has (the selectors
    and serializers they use), by event id."""
    from tournament import selectors
    from tournament.api.serializers.events import EventSerializer
    from tournament.console.selectors import tournament_overview
    from tournament.public.selectors.event_pages import event_page
    from tournament.public.selectors.tournament_pages import tournament_page
    from tournament.selectors.final_places import event_final

    if not events:
        return {}
    public = {e.pk: e.entry_count for e in tournament_page(tournament).events}
    listed = {
        row["id"]: row["entry_count"]
        for row in EventSerializer(selectors.event_list(tournament), many=True).data
    }
    console = {s.event.pk: s.entries for s in tournament_overview(tournament)}
    found: dict[int, dict[str, int]] = {}
    for event in events:
        event.refresh_from_db()
        counts = {
            "public tournament page": public[event.pk],
            "public event page": event_page(event).entry_count,
            "API event": EventSerializer(selectors.event_detail(event.pk)).data["entry_count"],
            "API event list": listed[event.pk],
            "console overview": console[event.pk],
        }
        if event.format in LEAGUES and event.status != Event.Status.REGISTRATION:
            counts["standings rows"] = len(selectors.standings(event))
        sheet = event_final(event)
        if sheet is not None:
            counts["final places"] = len(sheet.rows)
        found[event.pk] = counts
    return found


def fingerprint(events: Sequence[Event]) -> dict[int, int]:
    """A hash of each event's entries and matches (2 queries): what changed in a step."""
    rows: dict[int, list[tuple[object, ...]]] = {e.pk: [] for e in events}
    for row in (
        Entry.objects.filter(event__in=events)
        .order_by("pk")
        .values_list("event_id", "pk", "status", "seed")
    ):
        rows[row[0]].append(row)
    for row in (
        Match.objects.filter(event__in=events)
        .order_by("pk")
        .values_list(
            "event_id",
            "pk",
            "status",
            "entry1_id",
            "entry2_id",
            "winner_id",
            "score1",
            "score2",
            "round__status",
        )
    ):
        rows[row[0]].append(row)
    statuses = dict(Event.objects.filter(pk__in=rows).values_list("pk", "status"))
    return {pk: hash((statuses[pk], tuple(r))) for pk, r in rows.items()}


def players_of(entries: Iterable[Entry]) -> set[int]:
    return {e.player_id for e in entries}


def matches_of_player(
    tournament: Tournament, player_id: int, events: Iterable[int] | None = None
) -> set[int]:
    """Every match of the tournament (of ``events`` only, if given) in which ``player_id`` sits."""
    query = Match.objects.filter(event__tournament=tournament)
    if events is not None:
        query = query.filter(event_id__in=list(events))
    return set(
        query.filter(Q(entry1__player_id=player_id) | Q(entry2__player_id=player_id)).values_list(
            "pk", flat=True
        )
    )


def feed_family(event: Event) -> set[int]:
    """``event`` and every event it feeds (the Consolations of a Main), by id."""
    return {event.pk, *Event.objects.filter(feeds_from=event).values_list("pk", flat=True)}


def tells_table(message: mail.EmailMessage, match: Match) -> bool:
    """The email tells its reader the match's table: it names the match's event and round
    and says "at table N", in the language it is written in (its ``Content-Language``),
    as the "ready" notice and the table notice both do."""
    from django.utils import translation
    from django.utils.translation import gettext

    language = message.extra_headers.get("Content-Language") or "en"
    with translation.override(language):
        round_name = str(match.round)
        table_phrases = (
            gettext("at table {table}").format(table=match.table),
            gettext("is at table {table}.").format(table=match.table),
        )
    body = message.body
    return (
        match.event.name in body
        and round_name in body
        and any(phrase in body for phrase in table_phrases)
    )
