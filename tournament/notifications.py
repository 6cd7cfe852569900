"""Emails to players and to new directors, sent by Celery tasks (never inside a request).

The console backend prints them unless ``EMAIL_HOST`` selects SMTP. A player is
written to at the tournament's contact for them (``PlayerLink.email``), else at their
own email; players who turned notifications off (``Player.notify``) or have no address
get nothing.
"""

from __future__ import annotations

import logging
from smtplib import SMTPException
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMessage, mailers

from matches.models import Match
from tournament.models import Entry, PlayerLink, Tournament, User

log = logging.getLogger(__name__)

#: How long a sent notice is remembered, so that a retried or repeated task does not resend it.
SENT_TTL = 60 * 60 * 24 * 14


def link_url(key: str) -> str:
    """The absolute address of a private link."""
    return f"{settings.SITE_URL.rstrip('/')}/r/{key}/"


def report_link(entry: Entry) -> str:
    """The player's private page for the entry's tournament: next match, reporting, confirming."""
    from tournament.services.player_links import player_link_ensure

    link = player_link_ensure(tournament_id=entry.event.tournament_id, player_id=entry.player_id)
    return link_url(link.key)


def header_text(value: str, limit: int = 200) -> str:
    """A value fit for a mail header: a line break in a player's name would make the
    message unsendable (``BadHeaderError``), so all whitespace runs become one space."""
    return " ".join(str(value).split())[:limit]


def send_all(messages: list[EmailMessage], what: str) -> int:
    """Send ``messages``; a failure is logged with what it was about, then raised for retry."""
    try:
        return int(mailers.default.send_messages(messages) or 0)
    except Exception:
        log.exception(
            "NOTIFICATION FAILED (%s) to %s", what, ", ".join(a for m in messages for a in m.to)
        )
        raise


def match_ready_message(
    match: Match, entry: Entry, opponent: Entry, to: str | None = None
) -> EmailMessage:
    """The notice to ``entry``'s player that its match against ``opponent`` is ready."""
    event = match.event
    lines = [
        f"Hello {entry.player.name},",
        "",
        f"Your next match in {event.tournament.name}, {event.name}, {match.round} is ready:",
        f"  {entry.player.name} v {opponent.player.name}, {match.length}-point match",
    ]
    if match.start_score1 or match.start_score2:
        mine, theirs = (
            (match.start_score1, match.start_score2)
            if match.entry1_id == entry.pk
            else (match.start_score2, match.start_score1)
        )
        lines.append(f"  starting at {mine}-{theirs} (penalty points)")
    if match.round.deadline:
        lines.append(f"  to be played by {match.round.deadline:%Y-%m-%d %H:%M} UTC")
    lines += [
        "",
        "Report each game, or the whole match, and confirm your opponent's result here:",
        f"  {report_link(entry)}",
        "This link is yours alone: anyone who has it can report for you.",
    ]
    return EmailMessage(
        subject=header_text(
            f"Your next match: {opponent.player.name} ({event.name}, {match.round})"
        ),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to or entry.player.email],
    )


#: How an email task runs: retried with backoff while the mail server is unreachable, and
#: acknowledged only once done, so a worker lost mid-send leaves it queued.
EMAIL_TASK: dict[str, Any] = {
    "bind": True,
    "autoretry_for": (SMTPException, ConnectionError, TimeoutError),
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "max_retries": 6,
    "acks_late": True,
}


@shared_task(**EMAIL_TASK)
def notify_match_ready(self: object, match_id: int) -> int:
    """Email both players of a ready match; return how many emails were sent.

    Each player is told once per match and opponent: a repeated task sends nothing more.
    """
    match = (
        Match.objects.select_related(
            "event__tournament", "round", "entry1__player", "entry2__player"
        )
        .filter(pk=match_id, status=Match.Status.READY)
        .first()
    )
    if match is None or match.entry1 is None or match.entry2 is None:
        return 0
    from tournament.services.player_links import contact_emails

    messages = []
    keys = []
    contacts = contact_emails(
        match.event.tournament_id, [match.entry1.player_id, match.entry2.player_id]
    )
    for entry, opponent in ((match.entry1, match.entry2), (match.entry2, match.entry1)):
        player = entry.player
        to = contacts.get(player.pk, "")
        if not player.notify or not to:
            continue
        key = f"notified:ready:{match.pk}:{entry.report_key}:{opponent.report_key}"
        try:
            if cache.get(key):
                continue
        except Exception:  # cache down: better twice than never
            log.warning("cache unavailable; notifying match %s without dedupe", match.pk)
        messages.append(match_ready_message(match, entry, opponent, to))
        keys.append(key)
    if not messages:
        return 0
    sent = send_all(messages, f"match {match.pk} ready")
    for key in keys:
        try:
            cache.set(key, 1, SENT_TTL)
        except Exception:
            log.warning("could not remember notice %s", key)
    return sent


def notify_on_commit(match_ids: list[int]) -> None:
    """Queue the "your match is ready" notices once the caller's transaction commits."""
    from django.db import transaction

    ids = list(match_ids)
    if ids:
        transaction.on_commit(lambda: [notify_match_ready.delay(pk) for pk in ids])


def player_link_message(link: PlayerLink) -> EmailMessage:
    """The player's private link for the whole tournament, sent when the director asks."""
    tournament = link.tournament
    lines = [
        f"Hello {link.player.name},",
        "",
        f"This is your private link for {tournament.name}, for all your matches in every event:",
        f"  {link_url(link.key)}",
        "",
        "Open it to see your next match, report each game or upload the match file, and",
        "confirm your opponent's result. It is yours alone: anyone who has it can report for you.",
    ]
    return EmailMessage(
        subject=header_text(f"Your private link for {tournament.name}"),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[link.contact_email],
    )


@shared_task(**EMAIL_TASK)
def notify_player_link(self: object, link_id: int) -> int:
    """Email a player their private link; once per key (a regenerated key is sent again)."""
    link = PlayerLink.objects.select_related("tournament", "player").filter(pk=link_id).first()
    if link is None or not link.contact_email or not link.player.notify:
        return 0
    key = f"notified:link:{link.pk}:{link.key}"
    try:
        if cache.get(key):
            return 0
    except Exception:  # cache down: better twice than never
        log.warning("cache unavailable; sending link %s without dedupe", link.pk)
    sent = send_all([player_link_message(link)], f"player link {link.pk}")
    try:
        cache.set(key, 1, SENT_TTL)
    except Exception:
        log.warning("could not remember notice %s", key)
    return sent


def director_invite_message(tournament: Tournament, user: User, by: User | None) -> EmailMessage:
    """The notice to a new director: the tournament, and the link to set their password."""
    from tournament.services.directors import set_password_path

    url = f"{settings.SITE_URL.rstrip('/')}{set_password_path(user)}"
    inviter = header_text(by.get_full_name() or by.username) if by is not None else "A director"
    name = header_text(tournament.name)
    days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
    lines = [
        f"Hello {header_text(user.get_full_name() or user.username)},",
        "",
        f"{inviter} made you a director of {name}.",
        "",
        "Set your password here, then log in with the username "
        f"{user.username} to run the tournament:",
        f"  {url}",
        "",
        f"The link works once, for {days} day{'s' if days != 1 else ''}. If it has expired,",
        "ask a director of the tournament for a new one.",
    ]
    return EmailMessage(
        subject=header_text(f"{inviter} made you a director of {name}"),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
    )


@shared_task(**EMAIL_TASK)
def notify_director_invite(
    self: object, tournament_id: int, user_id: int, by_id: int | None
) -> int:
    """Email a new director the link to set their password (a link made now: the queue
    never carries one). Nothing when they have set a password meanwhile, have no address
    or no longer direct the tournament."""
    tournament = Tournament.objects.filter(pk=tournament_id, directors=user_id).first()
    user = User.objects.filter(pk=user_id).first()
    if tournament is None or user is None or not user.email or user.has_usable_password():
        return 0
    by = User.objects.filter(pk=by_id).first() if by_id is not None else None
    message = director_invite_message(tournament, user, by)
    return send_all([message], f"director invite of user {user.pk} to tournament {tournament.pk}")
