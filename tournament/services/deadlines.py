"""Round deadlines of online and league events: reminders a day before, the rule after.

Only the tasks in ``tournament.tasks.deadlines`` call the services that send mail,
never a request. Times are stored in UTC and written in the tournament's zone.

A day before a round's deadline each open match is reminded once
(``Match.reminded_at``; moving the deadline later arms a new reminder): both
players while the match is still to be played or finished, only the opponent
when one player's result awaits confirmation. Players who turned notifications
off, or have no address, get nothing.

At the deadline the event's ``deadline_rule`` decides what happens to a match
that is still open:

* ``flag``: the match is flagged for the director, who is told by email.
* ``forfeit``: the player who never reported or answered loses.

  - A result is reported and the opponent never confirmed or disputed it: the
    reported result stands (it is confirmed on the silent player's behalf), so a
    match that was played to its end still counts, ratings included.
  - The match is unplayed or unfinished and only one player ever reported anything
    about it (any report, accepted or not): the other player forfeits.
  - Otherwise nobody can tell who failed (neither or both reported, a dispute is
    open, a player is still missing from the match): the match is flagged.

A match the rule has dealt with is complete or flagged, so a second run skips it.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from matches.errors import refuse
from matches.models import Match, Submission
from tournament.models import Entry, Event, Notice, Round, Tournament
from tournament.services.player_links import notice_emails

log = logging.getLogger(__name__)

REMINDER_LEAD = dt.timedelta(days=1)
"""How long before a round's deadline its players are reminded."""

OPEN = (
    Match.Status.PENDING,
    Match.Status.READY,
    Match.Status.PLAYING,
    Match.Status.REPORTED,
    Match.Status.DISPUTED,
)
REMINDED = (Match.Status.READY, Match.Status.PLAYING, Match.Status.REPORTED)


class Action(StrEnum):
    """What the deadline rule did to a match."""

    CONFIRMED = "confirmed"
    FORFEITED = "forfeited"
    FLAGGED = "flagged"
    NOTHING = "nothing"


@dataclass(frozen=True)
class DeadlineResult:
    """The rule's decision on one match, and why."""

    match_id: int
    action: Action
    reason: str = ""
    loser_entry_id: int | None = None


def round_deadline_set(*, round: Round, deadline: dt.datetime | None) -> Round:
    """Give ``round`` a deadline (an aware datetime, stored in UTC) or take it away."""
    if deadline is not None and timezone.is_naive(deadline):
        raise refuse(
            _("A deadline needs its time zone (e.g. 2030-03-10T20:00+01:00)."),
            code="invalid",
            field="deadline",
        )
    with transaction.atomic():
        round = Round.objects.select_for_update(no_key=True).get(pk=round.pk)
        round.deadline = deadline.astimezone(dt.UTC) if deadline is not None else None
        round.save(update_fields=["deadline"])
    return round


def local_time(moment: dt.datetime, time_zone: str) -> dt.datetime:
    """``moment`` in the tournament's zone (UTC when the zone is unknown).

    >>> local_time(dt.datetime(2030, 3, 10, 19, 0, tzinfo=dt.UTC), "Europe/Berlin").isoformat()
    '2030-03-10T20:00:00+01:00'
    """
    try:
        zone: dt.tzinfo = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = dt.UTC
    return moment.astimezone(zone)


#: How a deadline is written in each language (Django's date format characters: the
#: weekday and month names come from Django's own catalogues).
DEADLINE_FORMATS = {
    "en": "l j F Y, H:i",
    "da": "l j. F Y, H:i",
    "de": "l, j. F Y, H:i",
    "ja": "Y年n月j日(D) G:i",
    "tr": "j F Y l, H:i",
}


def format_local(moment: dt.datetime, time_zone: str) -> str:
    """A deadline as players read it, in the tournament's zone and the active language.

    >>> format_local(dt.datetime(2030, 7, 1, 18, 30, tzinfo=dt.UTC), "America/New_York")
    'Monday 1 July 2030, 14:30 EDT'
    """
    local = local_time(moment, time_zone)
    language = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    written = date_format(local, DEADLINE_FORMATS.get(language, DEADLINE_FORMATS["en"]))
    return f"{written} {local.tzname()}"


def _open_with_deadline() -> QuerySet[Match]:
    return Match.objects.filter(
        status__in=OPEN,
        is_bye=False,
        round__deadline__isnull=False,
        round__status=Round.Status.STARTED,
    )


def matches_to_remind(*, now: dt.datetime) -> list[int]:
    """Open matches whose round ends within a day and whose players were not yet reminded."""
    return list(
        _open_with_deadline()
        .filter(
            Q(reminded_at__isnull=True) | Q(reminded_at__lt=F("round__deadline") - REMINDER_LEAD),
            status__in=REMINDED,
            round__deadline__gt=now,
            round__deadline__lte=now + REMINDER_LEAD,
            entry1__isnull=False,
            entry2__isnull=False,
        )
        .order_by("round__deadline", "pk")
        .values_list("pk", flat=True)
    )


def matches_past_deadline(*, now: dt.datetime) -> list[int]:
    """Open matches whose round's deadline has passed and that nobody has flagged yet."""
    return list(
        _open_with_deadline()
        .filter(round__deadline__lte=now, flagged=False)
        .order_by("round__deadline", "pk")
        .values_list("pk", flat=True)
    )


def _locked(match_id: int) -> Match:
    """The match, locked, with what the rules and the emails read."""
    queryset = Match.objects.select_related(
        "round", "event__tournament", "entry1__player", "entry2__player"
    )
    # PostgreSQL cannot lock the nullable side of the outer joins: lock the match row only.
    if transaction.get_connection().features.has_select_for_update_of:
        return queryset.select_for_update(of=("self",), no_key=True).get(pk=match_id)
    return queryset.select_for_update(no_key=True).get(pk=match_id)


def match_remind(*, match_id: int, now: dt.datetime) -> int:
    """Email the players of a match due for its reminder; the number of emails sent.

    Sent inside the transaction that marks the match reminded, so a failed send
    leaves it unmarked for the next run.
    """
    with transaction.atomic():
        match = _locked(match_id)
        deadline = match.round.deadline
        if (
            deadline is None
            or match.entry1 is None
            or match.entry2 is None
            or match.status not in REMINDED
            or match.round.status != Round.Status.STARTED
            or not now < deadline <= now + REMINDER_LEAD
            or (match.reminded_at is not None and match.reminded_at >= deadline - REMINDER_LEAD)
        ):
            return 0
        recipients = [match.entry1, match.entry2]
        if match.status == Match.Status.REPORTED and match.reported_by_id is not None:
            recipients = [e for e in recipients if e.pk != match.reported_by_id]
        contacts = notice_emails(match.event.tournament_id, [e.player_id for e in recipients])
        messages = [
            _message(
                contacts[entry.player_id],
                "deadlines/reminder",
                entry.player.language,
                match=match,
                entry=entry,
                opponent=match.entry2 if entry.pk == match.entry1_id else match.entry1,
            )
            for entry in recipients
            if contacts.get(entry.player_id)
        ]
        match.reminded_at = now
        match.save(update_fields=["reminded_at", "updated_at"])
        if messages:
            mailers.default.send_messages(messages)
    return len(messages)


def match_deadline_apply(*, match_id: int, now: dt.datetime) -> DeadlineResult:
    """Apply the event's deadline rule to a match whose round's deadline has passed."""
    with transaction.atomic():
        match = _locked(match_id)
        deadline = match.round.deadline
        if (
            deadline is None
            or deadline > now
            or match.status not in OPEN
            or match.flagged
            or match.is_bye
        ):
            return DeadlineResult(match_id, Action.NOTHING)
        if match.event.deadline_rule == Event.DeadlineRule.FORFEIT:
            decided = _forfeit_rule(match, now)
            if decided is not None:
                return decided
            reason = _why_flagged(match)
        else:
            reason = gettext_noop("the event's rule is to flag late matches for the director")
        match.flagged = True
        match.save(update_fields=["flagged", "updated_at"])
        _mail_directors(match, reason)
        return DeadlineResult(match_id, Action.FLAGGED, reason)


def _reporters(match: Match) -> set[int]:
    """The entries of ``match`` that reported anything about it (accepted or not)."""
    return set(
        Submission.objects.filter(
            match_id=match.pk,
            as_director=False,
            via_entry_id__in=[match.entry1_id, match.entry2_id],
        ).values_list("via_entry_id", flat=True)
    )


def _forfeit_rule(match: Match, now: dt.datetime) -> DeadlineResult | None:
    if match.entry1 is None or match.entry2 is None:
        return None
    if match.status == Match.Status.REPORTED:
        _confirm_for_silent_opponent(match)
        reason = gettext_noop(
            "the opponent did not confirm or dispute the reported result by the deadline"
        )
        _mail_players(match, "deadlines/confirmed", reason=reason)
        return DeadlineResult(match.pk, Action.CONFIRMED, reason)
    if match.status not in (Match.Status.READY, Match.Status.PLAYING):
        return None
    reporters = _reporters(match)
    if len(reporters) != 1:
        return None
    from tournament.services.results import match_award

    (present,) = reporters
    winner, loser = (
        (match.entry1, match.entry2) if present == match.entry1_id else (match.entry2, match.entry1)
    )
    reason = LATE.format(player=loser.player.name)
    match_award(match=match, winner=winner, decision=Match.Decision.FORFEIT, reason=reason)
    _mail_players(match, "deadlines/forfeited", reason=LATE, winner=winner, loser=loser)
    # That mail tells both players the match is decided: it is the correction of their
    # "your next match" (no second email saying the match is off).
    Notice.objects.filter(match=match, corrected_at__isnull=True).update(corrected_at=now)
    return DeadlineResult(match.pk, Action.FORFEITED, reason, loser_entry_id=loser.pk)


#: Why a late player forfeits (the audit keeps it in English; each email translates it).
LATE = gettext_noop("{player} did not report or answer by the round's deadline")


def _why_flagged(match: Match) -> str:
    if match.entry1 is None or match.entry2 is None:
        return gettext_noop("a player for this match was still to be decided at the deadline")
    if match.status == Match.Status.DISPUTED:
        return gettext_noop("the result is disputed")
    if match.status == Match.Status.PENDING:
        return gettext_noop("the match had not started by the deadline")
    if _reporters(match):
        return gettext_noop("both players reported part of the match, which was not finished")
    return gettext_noop("neither player reported anything by the deadline")


def _confirm_for_silent_opponent(match: Match) -> None:
    """Confirm the reported result as the deadline rule, with the reason in the audit trail."""
    from core.http import RequestMeta
    from matches.access import Actor, Role
    from matches.services.ledger import Outcome, submission_run

    def decide(locked: Match, role: Role) -> Outcome:
        locked.status = Match.Status.COMPLETE
        locked.confirmed_at = timezone.now()
        return Outcome(match_changed=True, completed=True)

    submission_run(
        match_id=match.pk,
        kind=Submission.Kind.CONFIRM,
        actor=Actor(),
        meta=RequestMeta(user_agent="deadline rule"),
        payload={
            "deadline_rule": Event.DeadlineRule.FORFEIT,
            "reason": "no confirmation or dispute by the round's deadline",
        },
        decide=decide,
        role_of=lambda **kwargs: Role(side=None, entry_id=None, director=True),
    )


def _message(to: str, template: str, language: str = "", **context: object) -> EmailMessage:
    """The email ``template`` to ``to``, written in ``language`` (the recipient's), else
    in the tournament's."""
    match = context["match"]
    assert isinstance(match, Match)
    tournament = match.event.tournament
    with translation.override(language or tournament.language or settings.LANGUAGE_CODE):
        return _render_message(to, template, tournament, **context)


def _render_message(
    to: str, template: str, tournament: Tournament, **context: object
) -> EmailMessage:
    match = context["match"]
    assert isinstance(match, Match)
    reason = str(context.get("reason") or "")
    if reason == LATE and isinstance(loser := context.get("loser"), Entry):
        context["reason"] = _(LATE).format(player=loser.player.name)
    elif reason:
        context["reason"] = _(reason)
    context |= {
        "tournament": tournament,
        "event": match.event,
        "deadline": format_local(match.round.deadline, tournament.time_zone)
        if match.round.deadline
        else "",
        "site_url": settings.SITE_URL.rstrip("/"),
    }
    subject = render_to_string(f"{template}_subject.txt", context).strip()
    body = render_to_string(f"{template}.txt", context)
    return EmailMessage(
        subject=" ".join(subject.split()),
        body=body,
        to=[to],
        headers={"Content-Language": translation.get_language() or settings.LANGUAGE_CODE},
    )


def _mail_players(match: Match, template: str, **context: object) -> None:
    entries: list[Entry] = [e for e in (match.entry1, match.entry2) if e is not None]
    contacts = notice_emails(match.event.tournament_id, [e.player_id for e in entries])
    messages = [
        _message(
            contacts[e.player_id],
            template,
            e.player.language,
            match=match,
            entry=e,
            opponent=match.entry2 if e.pk == match.entry1_id else match.entry1,
            **context,
        )
        for e in entries
        if contacts.get(e.player_id)
    ]
    if messages:
        mailers.default.send_messages(messages)


def _mail_directors(match: Match, reason: str) -> None:
    addresses = dict(
        sorted(
            (email, language)
            for email, language in match.event.tournament.directors.values_list("email", "language")
            if email
        )
    )
    if addresses:
        mailers.default.send_messages(
            [
                _message(a, "deadlines/flagged", language, match=match, reason=reason)
                for a, language in addresses.items()
            ]
        )
