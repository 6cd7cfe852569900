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

from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMessage, mailers
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from matches.models import Match
from matches.names import tell_apart
from tournament import outbox, signals
from tournament.models import Entry, Notice, Player, PlayerLink, SignupRequest, Tournament, User
from tournament.services.deadlines import format_local
from tournament.services.directors import set_password_path
from tournament.services.player_links import contact_emails, notice_emails, player_link_ensure
from tournament.services.signup import CONFIRM_FOR, signed_up_entry, signup_known_player
from tournament.tasks.typed import bound_task

log = logging.getLogger(__name__)

#: How long a sent notice is remembered, so that a retried or repeated task does not resend it.
SENT_TTL = 60 * 60 * 24 * 14


def recipient_language(tournament: Tournament, person: Player | User | None = None) -> str:
    """The language an email to ``person`` is written in: the one they signed up in (a
    player) or chose (an account), else the tournament's, else the site's."""
    return getattr(person, "language", "") or tournament.language or settings.LANGUAGE_CODE


def language_header() -> dict[str, str]:
    """The email's ``Content-Language`` (RFC 3282): the language it is written in."""
    return {"Content-Language": translation.get_language() or settings.LANGUAGE_CODE}


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
    """The notice to ``entry``'s player that its match against ``opponent`` is ready, in
    the player's language."""
    with translation.override(recipient_language(match.event.tournament, entry.player)):
        return _match_ready_message(match, entry, opponent, to)


def _pairing_lines(
    match: Match, entry: Entry, opponent: Entry, intro: str
) -> tuple[str, list[str]]:
    """A match notice's opening: the greeting, ``intro`` (its tournament, event and round
    filled in) and the pairing with the namesakes of the tournament told apart; with the
    opponent's name as told apart (for the subject)."""
    event = match.event
    told = tell_apart([entry, opponent])
    own_name, their_name = told[entry.pk], told[opponent.pk]
    return their_name, [
        _("Hello {name},").format(name=entry.player.name),
        "",
        intro.format(tournament=event.tournament.name, event=event.name, round=match.round),
        "  "
        + _("{player} v {opponent}, {length}-point match").format(
            player=own_name, opponent=their_name, length=match.length
        ),
    ]


def _match_ready_message(
    match: Match, entry: Entry, opponent: Entry, to: str | None = None
) -> EmailMessage:
    event = match.event
    their_name, lines = _pairing_lines(
        match,
        entry,
        opponent,
        _("Your next match in {tournament}, {event}, {round} is ready:"),
    )
    if match.table:
        lines.append("  " + _("at table {table}").format(table=match.table))
    if match.start_score1 or match.start_score2:
        mine, theirs = (
            (match.start_score1, match.start_score2)
            if match.entry1_id == entry.pk
            else (match.start_score2, match.start_score1)
        )
        lines.append(
            "  "
            + _("starting at {mine}-{theirs} (penalty points)").format(mine=mine, theirs=theirs)
        )
    if match.round.deadline:
        lines.append(
            "  "
            + _("to be played by {deadline}").format(
                deadline=format_local(match.round.deadline, event.tournament.time_zone)
            )
        )
    lines += [
        "",
        _("Report each game, or the whole match, and confirm your opponent's result here:"),
        f"  {report_link(entry)}",
        _("This link is yours alone: anyone who has it can report for you."),
    ]
    if match.table:
        subject = _("Your next match: {opponent} ({event}, {round}, table {table})").format(
            opponent=their_name, event=event.name, round=match.round, table=match.table
        )
    else:
        subject = _("Your next match: {opponent} ({event}, {round})").format(
            opponent=their_name, event=event.name, round=match.round
        )
    return EmailMessage(
        subject=header_text(subject),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to or entry.player.email],
        headers=language_header(),
    )


#: How an email task runs: retried with backoff while the mail server or the database is
#: unreachable (a PgBouncer or PostgreSQL restart), and acknowledged only once done, so a
#: worker lost mid-send leaves it queued.
EMAIL_TASK: dict[str, Any] = {
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


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_match_ready")
def notify_match_ready(self: object, match_id: int) -> int:
    """Email both players of an open match; return how many emails were sent.

    Each player is told once per match and opponent while that notice stands (a
    :class:`~tournament.models.Notice` row, written with the send: a repeated task sends
    nothing more); a notice taken back and corrected may be sent again if it comes true
    again.
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
    if Entry.Status.WITHDRAWN in (match.entry1.status, match.entry2.status):
        log.info("match %s has a withdrawn player: no notice of it", match_id)
        return 0

    contacts = notice_emails(
        match.event.tournament_id, [match.entry1.player_id, match.entry2.player_id]
    )
    now = timezone.now()
    told: list[Entry] = []
    with transaction.atomic():
        messages = []
        for entry, opponent in ((match.entry1, match.entry2), (match.entry2, match.entry1)):
            to = contacts.get(entry.player_id, "")
            if not to:
                continue
            message = match_ready_message(match, entry, opponent, to)
            try:
                with transaction.atomic():
                    Notice.objects.create(
                        match=match,
                        player_id=entry.player_id,
                        entry_id_sent=entry.pk,
                        opponent_entry_id=opponent.pk,
                        opponent_name=tell_apart([entry, opponent])[opponent.pk],
                        round_name=f"{match.event.name}, {match.round}",
                        sent_at=now,
                    )
            except IntegrityError:
                continue  # told already, and it still stands
            messages.append(message)
            told.append(entry)
        if not messages:
            return 0
        # Sent inside the transaction: a failed send leaves no notice recorded (retried).
        sent = send_all(messages, f"match {match.pk} ready")
    if match.table:  # these notices named the table: no separate table notice for it
        for entry in told:
            try:
                cache.set(table_key(match.pk, match.table, entry.report_key), 1, SENT_TTL)
            except Exception:
                log.warning("could not remember the table notice of match %s", match.pk)
    return sent


@outbox.batch_form("tournament.tasks.notify_match_ready", chunk=4)
def notify_matches_ready(calls: list[list[object]]) -> int:
    """The batch form of ``notify_match_ready``: a round's notices in one run."""
    return sum(notify_match_ready(int(str(args[0]))) for args in calls)


@receiver(signals.matches_ready)
def queue_match_ready(sender: object, *, match_ids: list[int], **kwargs: object) -> None:
    """Write the "your match is ready" notices to the outbox, in the announcing transaction:
    sent by a worker once it commits, and sent still if a node dies or the database blips."""
    outbox.enqueue_many(notify_match_ready.name, [[pk] for pk in match_ids])


def table_message(match: Match, entry: Entry, opponent: Entry, to: str) -> EmailMessage:
    """The notice to ``entry``'s player that its open match now has a table, in the
    player's language."""
    with translation.override(recipient_language(match.event.tournament, entry.player)):
        return _table_message(match, entry, opponent, to)


def _table_message(match: Match, entry: Entry, opponent: Entry, to: str) -> EmailMessage:
    event = match.event
    their_name, lines = _pairing_lines(
        match, entry, opponent, _("Your match in {tournament}, {event}, {round}:")
    )
    lines += [
        _("is at table {table}.").format(table=match.table),
        "",
        _("Report each game, or the whole match, and confirm your opponent's result here:"),
        f"  {report_link(entry)}",
    ]
    subject = _("Table {table}: your match against {opponent} ({event}, {round})").format(
        table=match.table, opponent=their_name, event=event.name, round=match.round
    )
    return EmailMessage(
        subject=header_text(subject),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers=language_header(),
    )


def table_key(match_id: int, table: int, report_key: str) -> str:
    """The cache key remembering that a player was told their match's table."""
    return f"notified:table:{match_id}:{table}:{report_key}"


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_table_given")
def notify_table_given(self: object, match_id: int) -> int:
    """Email both players of an open match its table; once per match and table (a repeated
    task sends nothing more; a match moved to another table is told again). A player
    whose "your match is ready" notice has not gone out yet gets none: that notice,
    written when it is sent, names the table; one that named this table already is enough."""
    match = (
        Match.objects.select_related(
            "event__tournament", "round", "entry1__player", "entry2__player"
        )
        .filter(pk=match_id, status__in=NOTIFIED_STATUSES, table__isnull=False)
        .first()
    )
    if match is None or match.entry1 is None or match.entry2 is None or match.table is None:
        return 0
    contacts = notice_emails(
        match.event.tournament_id, [match.entry1.player_id, match.entry2.player_id]
    )
    messages, keys = [], []
    for entry, opponent in ((match.entry1, match.entry2), (match.entry2, match.entry1)):
        to = contacts.get(entry.player_id, "")
        if not to:
            continue
        key = table_key(match.pk, match.table, entry.report_key)
        ready = Notice.objects.filter(
            match=match, entry_id_sent=entry.pk, opponent_entry_id=opponent.pk,
            corrected_at__isnull=True,
        ).exists()  # fmt: skip
        try:
            if cache.get(key) or not ready:
                continue
        except Exception:  # cache down: better twice than never
            log.warning("cache unavailable; telling match %s its table without dedupe", match.pk)
        messages.append(table_message(match, entry, opponent, to))
        keys.append(key)
    if not messages:
        return 0
    sent = send_all(messages, f"match {match.pk} table")
    for key in keys:
        try:
            cache.set(key, 1, SENT_TTL)
        except Exception:
            log.warning("could not remember notice %s", key)
    return sent


@receiver(signals.tables_given)
def queue_table_given(sender: object, *, match_ids: list[int], **kwargs: object) -> None:
    """Write the "your table" notices to the outbox, in the announcing transaction."""
    outbox.enqueue_many(notify_table_given.name, [[pk] for pk in match_ids])


def player_link_message(link: PlayerLink) -> EmailMessage:
    """The player's private link for the whole tournament, sent when the director asks,
    in the player's language."""
    tournament = link.tournament
    with translation.override(recipient_language(tournament, link.player)):
        lines = [
            _("Hello {name},").format(name=link.player.name),
            "",
            _(
                "This is your private link for {tournament}, for all your matches in every event:"
            ).format(tournament=tournament.name),
            f"  {link_url(link.key)}",
            "",
            _(
                "Open it to see your next match, report each game or upload the match file, "
                "and confirm your opponent's result. It is yours alone: anyone who has it can "
                "report for you."
            ),
        ]
        subject = _("Your private link for {tournament}").format(tournament=tournament.name)
        headers = language_header()
    return EmailMessage(
        subject=header_text(subject),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[link.contact_email],
        headers=headers,
    )


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_player_link")
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
    with translation.override(recipient_language(tournament, user)):
        return _director_invite_message(tournament, user, by)


def _director_invite_message(tournament: Tournament, user: User, by: User | None) -> EmailMessage:
    url = f"{settings.SITE_URL.rstrip('/')}{set_password_path(user)}"
    inviter = header_text(by.get_full_name() or by.username) if by is not None else _("A director")
    name = header_text(tournament.name)
    days = max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)
    lines = [
        _("Hello {name},").format(name=header_text(user.get_full_name() or user.username)),
        "",
        _("{inviter} made you a director of {tournament}.").format(
            inviter=inviter, tournament=name
        ),
        "",
        _(
            "Set your password here, then log in with the username {username} to run the "
            "tournament:"
        ).format(username=user.username),
        f"  {url}",
        "",
        ngettext(
            "The link works once, for {days} day. If it has expired, ask a director of the "
            "tournament for a new one.",
            "The link works once, for {days} days. If it has expired, ask a director of the "
            "tournament for a new one.",
            days,
        ).format(days=days),
    ]
    return EmailMessage(
        subject=header_text(
            _("{inviter} made you a director of {tournament}").format(
                inviter=inviter, tournament=name
            )
        ),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers=language_header(),
    )


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_director_invite")
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


#: What a sign-up notice tells: (subject, first paragraph), translated when sent.
SIGNUP_NOTICES = {
    "registered": (
        gettext_noop("You are entered in {event}"),
        gettext_noop("You are entered in {event}."),
    ),
    "waiting": (
        gettext_noop("You are on the waiting list of {event}"),
        gettext_noop(
            "{event} is full: you are number {position} on its waiting list. We email you "
            "if a place becomes free."
        ),
    ),
    "pending": (
        gettext_noop("Your sign-up for {event}"),
        gettext_noop("Your sign-up for {event} is received; the director confirms it."),
    ),
    "moved-up": (
        gettext_noop("A place is free: you are entered in {event}"),
        gettext_noop(
            "A player withdrew from {event}: you have moved up from the waiting list and "
            "are entered now."
        ),
    ),
}


def signup_message(
    entry: Entry, notice: str, position: int | None = None, address: str = ""
) -> EmailMessage:
    """The notice of a sign-up (``notice``: a key of ``SIGNUP_NOTICES``), with the link
    the player follows, and withdraws from; in the language the player signed up in."""
    event = entry.event
    subject, first = SIGNUP_NOTICES[notice]
    with translation.override(recipient_language(event.tournament, entry.player)):
        lines = [
            _("Hello {name},").format(name=entry.player.name),
            "",
            _(first).format(event=event.name, position=position),
            "",
            _(
                "Your private link for {tournament} (your matches, your results; you can "
                "withdraw from it before the draw):"
            ).format(tournament=event.tournament.name),
            f"  {report_link(entry)}",
        ]
        subject = _(subject).format(event=event.name)
        headers = language_header()
    return EmailMessage(
        subject=header_text(subject),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address or entry.player.email],
        headers=headers,
    )


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_signup")
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


def signup_confirm_url(asked: SignupRequest) -> str:
    """The page that takes a sign-up asked from the public form or the API."""
    return f"{settings.SITE_URL.rstrip('/')}/signup/confirm/{asked.token}/"


def signup_request_message(asked: SignupRequest) -> EmailMessage:
    """The mail to a sign-up's address: the link to confirm it, or, for an address already
    signed up, its own private link. Nothing the submitter typed is in it (not the name,
    club or country): only the director's event and tournament names and our links.

    It goes to the address' owner: a player we know by it reads it in their language
    (else the tournament's), as every other mail to them; a new address in the language
    of the page it was asked on (else the tournament's)."""
    event = asked.event
    tournament = event.tournament
    owner = signup_known_player(event=event, email=asked.email)
    if owner is not None:
        language = recipient_language(tournament, owner)
    else:
        language = asked.language or recipient_language(tournament)
    with translation.override(language):
        lines = [
            _("Hello,"),
            "",
            _(
                "Someone, perhaps you, asked to sign up this email address for {event} of "
                "{tournament}."
            ).format(event=header_text(event.name), tournament=header_text(tournament.name)),
            "",
        ]
        if asked.kind == SignupRequest.Kind.ALREADY:
            entry = signed_up_entry(event, asked.email)
            subject = _("You are already signed up for {event}").format(event=event.name)
            lines += [_("This address is already signed up for it: nothing was changed.")]
            if entry is not None:
                lines += [
                    _(
                        "Your private link (your matches, your results; you can withdraw "
                        "from it before the draw):"
                    ),
                    f"  {report_link(entry)}",
                ]
        else:
            hours = int(CONFIRM_FOR.total_seconds() // 3600)
            subject = _("Confirm your sign-up for {event}").format(event=event.name)
            lines += [
                _("To confirm it, open this link and press the button there:"),
                f"  {signup_confirm_url(asked)}",
                "",
                _(
                    "The link works for {hours} hours. Your private link for the tournament "
                    "comes once you have confirmed."
                ).format(hours=hours),
            ]
        lines += ["", _("If it was not you, ignore this mail: nothing happens without you.")]
        return EmailMessage(
            subject=header_text(subject),
            body="\n".join(lines) + "\n",
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[asked.email],
            headers=language_header(),
        )


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_signup_request")
def notify_signup_request(self: object, request_id: int) -> int:
    """Mail a sign-up's address (once per request)."""
    asked = SignupRequest.objects.select_related("event__tournament").filter(pk=request_id).first()
    if asked is None or asked.confirmed_at is not None:
        return 0
    key = f"notified:signup-request:{asked.pk}:{asked.token}"
    try:
        if cache.get(key):
            return 0
    except Exception:  # cache down: better twice than never
        log.warning("cache unavailable; sending sign-up request %s without dedupe", asked.pk)
    sent = send_all([signup_request_message(asked)], f"sign-up request {asked.pk}")
    try:
        cache.set(key, 1, SENT_TTL)
    except Exception:
        log.warning("could not remember notice %s", key)
    return sent


@receiver(signals.signup_mail)
def queue_signup_mail(sender: object, *, request_id: int, **kwargs: object) -> None:
    """Write the mail of a sign-up asked to the outbox, in the asking transaction."""
    outbox.enqueue(notify_signup_request.name, request_id)


# ---- corrections: a "your next match" notice that no longer holds --------------------


#: Decisions that mean a match will not be played (or not on): a notice of it is off.
UNPLAYED = (Match.Decision.WALKOVER, Match.Decision.FORFEIT)


def notice_stands(notice: Notice, match: Match) -> bool:
    """Whether what ``notice`` told still holds: the match is on (not waiting for a
    player, not set aside, not decided by walkover or forfeit) between the same two
    entries. A player whose own withdrawal gave the match away by walkover needs no word
    of it: they withdrew."""
    if match.is_bye or match.status == Match.Status.PENDING:
        return False
    if {match.entry1_id, match.entry2_id} != {notice.entry_id_sent, notice.opponent_entry_id}:
        return False
    if match.decision not in UNPLAYED:
        return True
    own = match.entry1 if match.entry1_id == notice.entry_id_sent else match.entry2
    return (
        match.decision == Match.Decision.WALKOVER
        and match.winner_id != notice.entry_id_sent
        and own is not None
        and own.status == Entry.Status.WITHDRAWN
    )


def where_they_stand(tournament_id: int, player_id: int) -> list[str]:
    """The player's matches to play in the tournament now, one line each (empty: none), in
    the active language."""
    open_matches = (
        Match.objects.filter(event__tournament_id=tournament_id, is_bye=False)
        .filter(Q(entry1__player_id=player_id) | Q(entry2__player_id=player_id))
        .exclude(status=Match.Status.COMPLETE)
        .select_related("event", "round", "entry1__player", "entry2__player")
        .order_by("event_id", "round__number", "slot")
    )
    lines = []
    for match in open_matches:
        own, other = (
            (match.entry1, match.entry2)
            if match.entry1 is not None and match.entry1.player_id == player_id
            else (match.entry2, match.entry1)
        )
        where = f"{match.event.name}, {match.round}"
        if own is None or other is None or match.status == Match.Status.PENDING:
            lines.append("  " + _("{where}: your opponent is not known yet").format(where=where))
            continue
        told = tell_apart([own, other])
        own_name, their_name = told[own.pk], told[other.pk]
        if match.table:
            line = _("{where}: {player} v {opponent}, {length}-point match, table {table}")
        else:
            line = _("{where}: {player} v {opponent}, {length}-point match")
        lines.append(
            "  "
            + line.format(
                where=where,
                player=own_name,
                opponent=their_name,
                length=match.length,
                table=match.table,
            )
        )
    return lines


def correction_message(notice: Notice, to: str, link: str, tournament_id: int) -> EmailMessage:
    """The correction of a notice that no longer holds, with what holds now, in the
    player's language."""
    tournament = notice.match.event.tournament
    with translation.override(recipient_language(tournament, notice.player)):
        return _correction_message(
            notice, to, link, where_they_stand(tournament_id, notice.player_id)
        )


def _correction_message(notice: Notice, to: str, link: str, now_lines: list[str]) -> EmailMessage:
    match = notice.match
    # The round as the reader names it (the notice kept it in the sender's language).
    round_name = f"{match.event.name}, {match.round}" if match.round_id else notice.round_name
    opponent = notice.opponent_name
    if match.decision == Match.Decision.WALKOVER and match.winner_id == notice.entry_id_sent:
        why = _(
            "Your match against {opponent} ({round}), of which we wrote to you, is off: "
            "{opponent} has withdrawn, and you go through by walkover."
        ).format(opponent=opponent, round=round_name)
    else:
        why = _(
            "Your match against {opponent} ({round}), of which we wrote to you, is off: a "
            "director changed a result (a walkover or forfeit reopened, a winner corrected, "
            "or a withdrawal undone)."
        ).format(opponent=opponent, round=round_name)
    lines = [_("Hello {name},").format(name=notice.player.name), "", why, ""]
    if now_lines:
        lines += [_("What stands now, your matches to play:"), *now_lines]
    else:
        lines.append(_("What stands now: you have no match to play at the moment."))
    lines += [
        "",
        _("Your private link always shows the current state:"),
        f"  {link}",
    ]
    subject = _("Correction: your match against {opponent} is off ({round})").format(
        opponent=opponent, round=round_name
    )
    return EmailMessage(
        subject=header_text(subject),
        body="\n".join(lines) + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers=language_header(),
    )


@bound_task(**EMAIL_TASK, name="tournament.tasks.notify_corrections")
def notify_corrections(self: object, event_id: int) -> int:
    """Correct every "your next match" notice of the event that no longer holds; return
    how many emails were sent. Each notice is corrected once (``Notice.corrected_at``,
    set with the send: a failed send is retried, a repeated task sends nothing more)."""
    now = timezone.now()
    with transaction.atomic():
        notices = list(
            Notice.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(match__event_id=event_id, corrected_at__isnull=True)
            .select_related(
                "match__event__tournament",
                "match__round",
                "match__entry1",
                "match__entry2",
                "player",
            )
        )
        stale = [n for n in notices if not notice_stands(n, n.match)]
        if not stale:
            return 0
        tournament_id = stale[0].match.event.tournament_id
        contacts = notice_emails(tournament_id, list({n.player_id for n in stale}))
        messages = []
        for notice in stale:
            to = contacts.get(notice.player_id, "")
            if to:
                link = player_link_ensure(tournament_id=tournament_id, player_id=notice.player_id)
                messages.append(correction_message(notice, to, link_url(link.key), tournament_id))
        Notice.objects.filter(pk__in=[n.pk for n in stale]).update(corrected_at=now)
        if not messages:
            return 0
        return send_all(messages, f"corrections in event {event_id}")


@receiver(signals.notices_stale)
def queue_notice_corrections(sender: object, *, event_ids: list[int], **kwargs: object) -> None:
    """Write the correction check of each event to the outbox, in the taking-back transaction."""
    outbox.enqueue_many(notify_corrections.name, [[pk] for pk in event_ids])
