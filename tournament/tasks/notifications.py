"""Emails to players and to new directors, sent by Celery tasks (never inside a request),
each queued by a receiver of what the services announce (:mod:`tournament.signals`).

The console backend prints them unless ``EMAIL_HOST`` selects SMTP. A player is
written to at the tournament's contact for them (``PlayerLink.email``), else at their
own email; players who turned this tournament's notices off (``PlayerLink.notify``, or
``Player.notify`` for all of them) or have no address get nothing.
"""

from __future__ import annotations

import logging
from smtplib import SMTPException
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMessage, mailers
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver

from matches.models import Match
from matches.names import distinct_names
from tournament import outbox, signals
from tournament.models import Entry, PlayerLink, Tournament, User
from tournament.services.directors import set_password_path
from tournament.services.player_links import contact_emails, notice_emails, player_link_ensure

log = logging.getLogger(__name__)

#: How long a sent notice is remembered, so that a retried or repeated task does not resend it.
SENT_TTL = 60 * 60 * 24 * 14


def link_url(key: str) -> str:
    """The absolute address of a private link."""
    return f"{settings.SITE_URL.rstrip('/')}/r/{key}/"


def report_link(entry: Entry) -> str:
    """The player's private page for the entry's tournament: next match, reporting, confirming."""
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
    own_name, their_name = distinct_names([entry, opponent])
    lines = [
        f"Hello {entry.player.name},",
        "",
        f"Your next match in {event.tournament.name}, {event.name}, {match.round} is ready:",
        f"  {own_name} v {their_name}, {match.length}-point match",
    ]
    if match.table:
        lines.append(f"  at table {match.table}")
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
            f"Your next match: {their_name} ({event.name}, {match.round}"
            + (f", table {match.table})" if match.table else ")")
        ),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to or entry.player.email],
    )


#: How an email task runs: retried with backoff while the mail server or the database is
#: unreachable (a PgBouncer or PostgreSQL restart), and acknowledged only once done, so a
#: worker lost mid-send leaves it queued.
EMAIL_TASK: dict[str, Any] = {
    "bind": True,
    "autoretry_for": (
        SMTPException,
        ConnectionError,
        TimeoutError,
        OperationalError,
        InterfaceError,
    ),
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "max_retries": 6,
    "acks_late": True,
}


#: A notice goes out while the match is open: ready, or already in play when the notice
#: was held up (a node died, the database blipped) and the players found the match
#: themselves; the email still carries the link they report with.
NOTIFIED_STATUSES = (Match.Status.READY, Match.Status.PLAYING, Match.Status.REPORTED)


@shared_task(**EMAIL_TASK, name="tournament.notifications.notify_match_ready")
def notify_match_ready(self: object, match_id: int) -> int:
    """Email both players of an open match; return how many emails were sent.

    Each player is told once per match and opponent: a repeated task sends nothing more.
    """
    match = (
        Match.objects.select_related(
            "event__tournament", "round", "entry1__player", "entry2__player"
        )
        .filter(pk=match_id, status__in=NOTIFIED_STATUSES)
        .first()
    )
    if match is None or match.entry1 is None or match.entry2 is None:
        if Match.objects.filter(pk=match_id, status=Match.Status.COMPLETE).exists():
            log.info("match %s was played before its notice could go out: none sent", match_id)
        return 0

    messages = []
    keys = []
    contacts = notice_emails(
        match.event.tournament_id, [match.entry1.player_id, match.entry2.player_id]
    )
    for entry, opponent in ((match.entry1, match.entry2), (match.entry2, match.entry1)):
        player = entry.player
        to = contacts.get(player.pk, "")
        if not to:
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


@receiver(signals.matches_ready)
def queue_match_ready(sender: object, *, match_ids: list[int], **kwargs: object) -> None:
    """Write the "your match is ready" notices to the outbox, in the announcing transaction:
    sent by a worker once it commits, and sent still if a node dies or the database blips."""
    outbox.enqueue_many(notify_match_ready.name, [[pk] for pk in match_ids])


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


@shared_task(**EMAIL_TASK, name="tournament.notifications.notify_player_link")
def notify_player_link(self: object, link_id: int, again: bool = False) -> int:
    """Email a player their private link; once per key (a regenerated key is sent again),
    unless ``again`` (a director sent it from the player's card)."""
    link = PlayerLink.objects.select_related("tournament", "player").filter(pk=link_id).first()
    if link is None or not link.contact_email or not link.accepts_notices:
        return 0
    key = f"notified:link:{link.pk}:{link.key}"
    try:
        if cache.get(key) and not again:
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


@shared_task(**EMAIL_TASK, name="tournament.notifications.notify_director_invite")
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


@receiver(signals.player_links_sent)
def queue_player_links(
    sender: object, *, link_ids: list[int], again: bool = False, **kwargs: object
) -> None:
    """Write an email of their private link to each player a director asked it for to the outbox."""
    outbox.enqueue_many(notify_player_link.name, [[pk, again] for pk in link_ids])


@receiver(signals.director_invited)
def queue_director_invite(
    sender: object, *, tournament_id: int, user_id: int, by_id: int | None, **kwargs: object
) -> None:
    """Write the email that gives a new director the link to set their password to the outbox."""
    outbox.enqueue(notify_director_invite.name, tournament_id, user_id, by_id)


#: What a sign-up notice tells: (subject, first paragraph).
SIGNUP_NOTICES = {
    "registered": ("You are entered in {event}", "You are entered in {event}."),
    "waiting": (
        "You are on the waiting list of {event}",
        "{event} is full: you are number {position} on its waiting list. We email you if a "
        "place becomes free.",
    ),
    "pending": (
        "Your sign-up for {event}",
        "Your sign-up for {event} is received; the director confirms it.",
    ),
    "moved-up": (
        "A place is free: you are entered in {event}",
        "A player withdrew from {event}: you have moved up from the waiting list and are "
        "entered now.",
    ),
}


def signup_message(
    entry: Entry, notice: str, position: int | None = None, address: str = ""
) -> EmailMessage:
    """The notice of a sign-up (``notice``: a key of ``SIGNUP_NOTICES``), with the link
    the player follows, and withdraws from."""
    event = entry.event
    subject, first = SIGNUP_NOTICES[notice]
    lines = [
        f"Hello {entry.player.name},",
        "",
        first.format(event=event.name, position=position),
        "",
        f"Your private link for {event.tournament.name} (your matches, your results; you can",
        "withdraw from it before the draw):",
        f"  {report_link(entry)}",
    ]
    return EmailMessage(
        subject=header_text(subject.format(event=event.name)),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address or entry.player.email],
    )


@shared_task(**EMAIL_TASK, name="tournament.notifications.notify_signup")
def notify_signup(self: object, entry_id: int, notice: str, position: int | None = None) -> int:
    """Email a sign-up notice; once per entry, notice and place on the list."""
    entry = Entry.objects.select_related("event__tournament", "player").filter(pk=entry_id).first()
    if entry is None or notice not in SIGNUP_NOTICES:
        return 0
    address = contact_emails(entry.event.tournament_id, [entry.player_id]).get(entry.player_id)
    if not address:
        return 0
    key = f"notified:signup:{entry.pk}:{notice}:{position}"
    try:
        if cache.get(key):
            return 0
    except Exception:  # cache down: better twice than never
        log.warning("cache unavailable; sending sign-up notice %s without dedupe", entry.pk)
    message = signup_message(entry, notice, position, address)
    sent = send_all([message], f"sign-up {entry.pk} {notice}")
    try:
        cache.set(key, 1, SENT_TTL)
    except Exception:
        log.warning("could not remember notice %s", key)
    return sent


@receiver(signals.signup_notice)
def queue_signup_notice(
    sender: object, *, entry_id: int, notice: str, position: int | None, **kwargs: object
) -> None:
    """Write a sign-up's notice to the outbox, in the signing-up transaction."""
    outbox.enqueue(notify_signup.name, entry_id, notice, position)
