"""Players' own sign-up for an event, the waiting list, and the director's approval.

Identity: one player per person in a tournament. A sign-up whose email is already a
player's (this tournament's contact for them, or their own email: a returning player)
enters THAT player, with their one private link, which then lists this entry too; the
link is emailed to them and never shown to the person typing, who learns nothing about
that player (name, link, other entries), and the typed name, club and country change
nothing of theirs. A returning player seen only in private tournaments that this
tournament's directors do not run is not matched (those directors must not learn of
them): the sign-up gets a record of its own, with the address as this tournament's
contact. A new email is a new player. From their link a player signs up for another
open event of the tournament (no per-address limit: at a venue everyone shares one),
withdraws before the draw and takes that back until the draw. Two records that are
one person after all are merged by a director (``tournament.services.merge``).

An entry taken from a sign-up is ``registered`` while the event has room under its
cap, else ``waiting`` (ordered by ``waiting_since``); with approval on, ``pending``
until the director approves it (then registered or waiting, by the same cap). A
withdrawal before the draw moves the first waiting entry up, and it is emailed.

Confirmation first: the public doors (form and API) only ask (:func:`signup_ask`): a mail
goes to the typed address with a link that takes the sign-up (:func:`signup_confirm`,
which calls :func:`entry_signup`). The mail carries no text the submitter typed, so the
form cannot be used to send anything to anyone. An address already signed up for the
event gets a mail saying so (with its own link) instead, and the asker sees the same
answer as for a new sign-up: the form tells no stranger who is in the event. An address
gets at most ``settings.SIGNUP_MAILS_PER_ADDRESS_DAY`` of these mails in a day.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import AppError, Invalid, NotFound, refuse
from tournament import page_cache
from tournament.models import Entry, Event, Player, PlayerLink, SignupRequest, User
from tournament.services.common import ACTIVE, event_lock
from tournament.services.entries import entry_register
from tournament.services.player_links import contact_emails, player_link_ensure
from tournament.services.players import player_contact_set, player_create, player_fields_check
from tournament.services.waiting_list import has_room, waiting_position
from tournament.services.withdrawals import entry_withdraw
from tournament.signals import announce_signup_mail, announce_signup_notice

log = logging.getLogger(__name__)

#: Entries that hold or wait for a place (a second sign-up with their email is refused).
SIGNED = (*ACTIVE, Entry.Status.WAITING, Entry.Status.PENDING)


@dataclass(frozen=True)
class SignedUp:
    """A sign-up taken: the entry, the player's private link and, on the waiting list,
    their place on it (1 = next in)."""

    entry: Entry
    link: PlayerLink
    position: int | None
    #: The email was already a player's: the link went to their address, not to the
    #: person typing (who is told nothing about that player).
    known: bool = False


def signup_open_problem(event: Event, now: datetime | None = None) -> str | None:
    """Why ``event`` takes no sign-up now, in words; None while it does."""
    if event.signup == Event.Signup.CLOSED:
        return _("Sign-up for {event} is closed: ask the director to enter you.").format(
            event=event.name
        )
    if event.feeds_from_id is not None:
        return _("{event} is filled by the losers of another event.").format(event=event.name)
    if event.status != Event.Status.REGISTRATION:
        return _("{event} is already drawn: sign-up is over.").format(event=event.name)
    if event.signup_deadline is not None and (now or timezone.now()) >= event.signup_deadline:
        return _("Sign-up for {event} closed at the deadline.").format(event=event.name)
    return None


def _clean_email(email: str) -> str:
    email = (email or "").strip()
    if not email:
        raise refuse(
            _("Give your email: your private link is sent to it."), code="invalid", field="email"
        )
    if len(email) > 254:
        raise refuse(_("An email has at most 254 characters."), code="invalid", field="email")
    try:
        validate_email(email)
    except ValidationError as err:
        raise refuse(_("That is not an email address."), code="invalid", field="email") from err
    return email


def _notify(entry: Entry, notice: str, position: int | None = None) -> None:
    announce_signup_notice(entry.pk, notice, position)


def _wait(entry: Entry) -> None:
    entry.status = Entry.Status.WAITING
    entry.waiting_since = timezone.now()
    entry.save(update_fields=["status", "waiting_since"])


def signup_known_player(*, event: Event, email: str) -> Player | None:
    """The player a sign-up with ``email`` is: the tournament's player whose contact
    (this tournament's, else their own email) it is; else a returning player whose own
    email it is, unless they are only in tournaments hidden from this one's directors
    (private tournaments the same directors do not run: the directors of this one must
    not learn of them). None: a new person."""
    links = PlayerLink.objects.filter(tournament_id=event.tournament_id).select_related("player")
    link = (
        links.filter(Q(email__iexact=email) | Q(email="", player__email__iexact=email))
        .order_by("pk")
        .first()
    ) or links.filter(player__email__iexact=email).order_by("pk").first()
    if link is not None:
        return link.player
    player = Player.objects.filter(email__iexact=email).first()
    if player is None:
        return None
    tournament = event.tournament
    hidden = (
        Entry.objects.filter(player=player)
        .exclude(event__tournament__is_public=True)
        .exclude(event__tournament__directors__in=tournament.directors.all())
    )
    return None if hidden.exists() else player


def _offered() -> set[str]:
    """The site's languages (``settings.LANGUAGES``' codes)."""
    return {code for code, _label in settings.LANGUAGES}


def entry_signup(
    *,
    event: Event,
    name: str,
    email: str,
    club: str = "",
    country: str = "",
    language: str = "",
) -> SignedUp:
    """A player signs up for ``event`` from the public page (see the module), in
    ``language`` (one of ``settings.LANGUAGES``: their emails are written in it; a known
    player keeps a language of their own and takes this one only when they have none).

    An email that is already a player's (``signup_known_player``) enters that player:
    their one private link gets the entry, and it is emailed to them, never answered
    here (``SignedUp.known``); the name, club and country typed are not theirs to change.

    Refused: sign-up closed, past its deadline or the draw (``signup-closed``), a bad
    field (``invalid``, naming it), and an email already signed up for this event
    (``already-signed-up``: their link was sent to it).
    """
    email = _clean_email(email)
    with transaction.atomic():
        event = (
            Event.objects.select_for_update(no_key=True)
            .select_related("tournament")
            .get(pk=event.pk)
        )
        if problem := signup_open_problem(event):
            raise refuse(problem, code="signup-closed")
        player = signup_known_player(event=event, email=email)
        same_email = Q(player__email__iexact=email) | Q(
            player__links__tournament_id=event.tournament_id, player__links__email__iexact=email
        )
        signed = event.entries.filter(status__in=SIGNED)
        if signed.filter(same_email).exists() or (
            player is not None and signed.filter(player=player).exists()
        ):
            raise refuse(
                _(
                    "This email is already signed up for {event_name}: its "
                    "private link was sent to it, and withdraws from there."
                ).format(event_name=event.name),
                code="already-signed-up",
                field="email",
            )
        known = player is not None
        if player is None:
            player = _new_player(event, name=name, email=email, club=club, country=country)
        if not player.language and language in _offered():
            player.language = language
            player.save(update_fields=["language"])
        return _take(event, player, known=known)


def _new_player(event: Event, *, name: str, email: str, club: str, country: str) -> Player:
    """A new person's record, with ``email`` as their own (or, when another sign-up took
    it at the same instant, that player: the same person signing up twice at once)."""
    hidden = Player.objects.filter(email__iexact=email).exists()  # see signup_known_player
    try:
        with transaction.atomic():
            player = player_create(
                name=name, email="" if hidden else email, club=club, country=country
            )
    except Invalid as err:
        if err.code != "email-taken":
            raise
        player = Player.objects.get(email__iexact=email)
        if signup_known_player(event=event, email=email) != player:
            raise
        return player
    if hidden:  # this tournament's contact for them: another's own email is not theirs
        player_contact_set(tournament=event.tournament, player=player, email=email)
    return player


def _take(event: Event, player: Player, *, known: bool) -> SignedUp:
    """Enter ``player`` in ``event`` (locked, open) as a sign-up: registered, waiting or
    pending; emailed with their link."""
    entry = entry_register(event=event, player=player)
    entry.signed_up = True
    entry.withdrawn_from = ""
    entry.withdrawn_by_player = False
    entry.save(update_fields=["signed_up", "withdrawn_from", "withdrawn_by_player"])
    position = None
    if event.signup == Event.Signup.APPROVAL:
        entry.status = Entry.Status.PENDING
        entry.save(update_fields=["status"])
        notice = "pending"
    elif _has_room_but(event, entry):
        notice = "registered"
    else:
        _wait(entry)
        position = waiting_position(entry)
        notice = "waiting"
    link = player_link_ensure(tournament_id=event.tournament_id, player_id=player.pk)
    _notify(entry, notice, position)
    page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    log.info(
        "sign-up: player %s in event %s (%s, %s)",
        player.pk,
        event.pk,
        entry.status,
        "known player" if known else "new player",
    )
    return SignedUp(entry, link, position, known)


def signup_events_for_link(link: PlayerLink, now: datetime | None = None) -> list[Event]:
    """The tournament's events the link's player may sign up for now: open, before the
    deadline and the draw, and not entered (or withdrawn from)."""
    entered = Entry.objects.filter(player_id=link.player_id, status__in=SIGNED).values("event_id")
    events = Event.objects.filter(tournament_id=link.tournament_id).exclude(pk__in=entered)
    return [e for e in events.order_by("position", "pk") if signup_open_problem(e, now) is None]


def entry_signup_from_link(*, link: PlayerLink, event: Event) -> SignedUp:
    """The link's player signs up for another event of the tournament (no form to fill,
    no per-address limit: one address at a venue is shared by everyone). Refused as the
    public sign-up is (``signup-closed``, ``already-signed-up``)."""
    if event.tournament_id != link.tournament_id:
        raise refuse(_("That event is not in this tournament."), code="invalid", field="event")
    with transaction.atomic():
        event = (
            Event.objects.select_for_update(no_key=True)
            .select_related("tournament")
            .get(pk=event.pk)
        )
        if problem := signup_open_problem(event):
            raise refuse(problem, code="signup-closed")
        if event.entries.filter(player_id=link.player_id, status__in=SIGNED).exists():
            raise refuse(
                _("You are already signed up for {event_name}.").format(event_name=event.name),
                code="already-signed-up",
                field="event",
            )
        return _take(event, link.player, known=True)


def signed_up_entry(event: Event, email: str) -> Entry | None:
    """The entry of ``event`` signed up (or entered) with ``email``: by the player's own
    email, the tournament's contact for them, or the player the email is
    (``signup_known_player``); None if there is none."""
    same_email = Q(player__email__iexact=email) | Q(
        player__links__tournament_id=event.tournament_id, player__links__email__iexact=email
    )
    signed = event.entries.filter(status__in=SIGNED)
    found = signed.filter(same_email).order_by("pk").first()
    if found is None:
        player = signup_known_player(event=event, email=email)
        if player is not None:
            found = signed.filter(player=player).order_by("pk").first()
    return found


#: How long a confirmation link takes the sign-up.
CONFIRM_FOR = timedelta(hours=48)


def signup_ask(
    *,
    event: Event,
    name: str,
    email: str,
    club: str = "",
    country: str = "",
    language: str = "",
) -> SignupRequest:
    """A public sign-up asked: mail its address a link to confirm it (or, if the address
    is already signed up for ``event``, tell its owner so); nothing is entered yet.

    The caller answers the same either way. Refused: sign-up closed (``signup-closed``),
    a bad field (``invalid``, naming it), and an address that got its
    ``SIGNUP_MAILS_PER_ADDRESS_DAY`` sign-up mails today (429 ``too-many-mails``).
    ``language``: the page's (one of ``settings.LANGUAGES``; another is dropped): the mail
    is written in it.
    """
    if language not in _offered():
        language = ""
    email = _clean_email(email)
    name, _email, _rating, club, country = player_fields_check(
        name=name, email="", rating=None, club=club, country=country
    )
    with transaction.atomic():
        event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        if problem := signup_open_problem(event):
            raise refuse(problem, code="signup-closed")
        cap = settings.SIGNUP_MAILS_PER_ADDRESS_DAY
        today = SignupRequest.objects.alias(address=Lower("email")).filter(
            address=email.lower(), created_at__gte=timezone.now() - timedelta(days=1)
        )  # the (lower(email), created_at) index
        if today.count() >= cap:
            raise AppError(
                _(
                    "This address got its {cap} sign-up mails for today: follow "
                    "the link in one of them, or try again tomorrow."
                ).format(cap=cap),
                code="too-many-mails",
                status=429,
                field="email",
            )
        if signed_up_entry(event, email) is not None:
            asked = SignupRequest.objects.create(
                event=event, kind=SignupRequest.Kind.ALREADY, email=email, language=language
            )
        else:
            asked = SignupRequest.objects.create(
                event=event,
                name=name,
                email=email,
                club=club,
                country=country,
                language=language,
            )
        announce_signup_mail(asked.pk)
    return asked


def signup_confirm(*, token: str, language: str = "") -> SignedUp:
    """The address' owner confirms a sign-up asked with :func:`signup_ask`: it is taken
    (:func:`entry_signup`). Confirming again answers the same sign-up. Refused: no such
    link (404 ``signup-link``), older than ``CONFIRM_FOR`` (``signup-link-expired``), and
    whatever :func:`entry_signup` refuses (closed meanwhile, already signed up).

    ``language``: the confirming page's, when its reader chose one the site offers; else
    (``""``) the language the sign-up was asked in. The player's emails are written in it."""
    with transaction.atomic():
        asked = (
            SignupRequest.objects.select_for_update()
            .select_related("event__tournament")
            .filter(token=token, kind=SignupRequest.Kind.CONFIRM, event__tournament__is_public=True)
            .first()
        )
        if asked is None:
            raise AppError(
                _("This confirmation link is not valid: sign up again."),
                code="signup-link",
                status=404,
            )
        if asked.entry_id is not None:
            entry = Entry.objects.select_related("event").get(pk=asked.entry_id)
            link = player_link_ensure(
                tournament_id=entry.event.tournament_id, player_id=entry.player_id
            )
            known = entry.player.created_at < asked.created_at  # a returning player
            return SignedUp(entry, link, waiting_position(entry), known)
        if asked.created_at < timezone.now() - CONFIRM_FOR:
            raise refuse(
                _("This confirmation link has expired: sign up again."), code="signup-link-expired"
            )
        done = entry_signup(
            event=asked.event,
            name=asked.name,
            email=asked.email,
            club=asked.club,
            country=asked.country,
            language=language if language in _offered() else asked.language,
        )
        asked.confirmed_at = timezone.now()
        asked.entry = done.entry
        asked.save(update_fields=["confirmed_at", "entry"])
    return done


def _has_room_but(event: Event, entry: Entry) -> bool:
    """Room under the cap for ``entry`` (already counted among the active ones)."""
    if event.entry_cap is None:
        return True
    others = event.entries.filter(status__in=ACTIVE).exclude(pk=entry.pk).count()
    return others < event.entry_cap


def entry_approve(*, entry: Entry, by: User | None = None) -> Entry:
    """Take a pending sign-up: registered while there is room, else on the waiting list."""
    with transaction.atomic():
        event = Event.objects.select_for_update(no_key=True).get(pk=entry.event_id)
        entry = (
            Entry.objects.select_for_update(no_key=True).select_related("player").get(pk=entry.pk)
        )
        if entry.status != Entry.Status.PENDING:
            raise refuse(
                _("{entry_player} is not awaiting approval.").format(entry_player=entry.player),
                code="not-pending",
            )
        if event.status != Event.Status.REGISTRATION:
            raise refuse(
                _("{event_name} is already drawn.").format(event_name=event.name),
                code="event-drawn",
            )
        entry.event = event
        if has_room(event):
            entry.status = Entry.Status.REGISTERED
            entry.save(update_fields=["status"])
            _notify(entry, "registered")
        else:
            _wait(entry)
            _notify(entry, "waiting", waiting_position(entry))
        page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    return entry


def entries_approve(*, event: Event, entry_ids: list[int], by: User | None = None) -> int:
    """Approve the ticked sign-ups awaiting approval (the others are left as they are),
    in the order they signed up, in one transaction: each entered while there is room,
    else on the waiting list. How many were approved."""
    ids = sorted({int(i) for i in entry_ids})
    if not ids:
        raise refuse(_("Tick at least one player."), code="invalid", field="entries")
    with transaction.atomic():
        found = list(
            Entry.objects.filter(event=event, pk__in=ids, status=Entry.Status.PENDING).order_by(
                "created_at", "pk"
            )
        )
        if not Entry.objects.filter(event=event, pk__in=ids).count() == len(ids):
            raise refuse(
                _("No such entry in {event_name}.").format(event_name=event.name),
                code="invalid",
                field="entries",
            )
        for entry in found:
            entry_approve(entry=entry, by=by)
    return len(found)


def signup_namesakes(entries: list[Entry]) -> dict[int, list[Player]]:
    """For the console: each signed-up entry's other players with its name or email."""
    found: dict[int, list[Player]] = {}
    signed = [entry for entry in entries if entry.signed_up]
    contacts = (
        contact_emails(signed[0].event.tournament_id, [e.player_id for e in signed])
        if signed
        else {}
    )
    for entry in entries:
        if not entry.signed_up:
            continue
        player = entry.player
        same = Q(name__iexact=" ".join(player.name.split()))
        for email in {player.email, contacts.get(player.pk, "")} - {""}:
            same |= Q(email__iexact=email)
        others = list(Player.objects.filter(same).exclude(pk=player.pk).order_by("pk")[:3])
        if others:
            found[entry.pk] = others
    return found


def entry_withdraw_by_player(*, link: PlayerLink, entry: Entry) -> Entry:
    """The player withdraws one of their entries from their link, before its draw (the
    first on the waiting list moves up); they can take it back until the draw."""
    with transaction.atomic():
        event_lock(entry.event_id)  # the event first, then the entry (see event_lock)
        entry = _own_entry(link, entry)
        if entry.status not in SIGNED:
            raise refuse(
                _("You are already out of {entry_event_name}.").format(
                    entry_event_name=entry.event.name
                ),
                code="not-active",
            )
        if entry.event.status != Event.Status.REGISTRATION:
            raise refuse(
                _("{entry_event_name} is drawn: ask the director to withdraw you.").format(
                    entry_event_name=entry.event.name
                ),
                code="event-drawn",
            )
        entry = entry_withdraw(entry=entry, reason="withdrew from their link")
        entry.withdrawn_by_player = True
        entry.save(update_fields=["withdrawn_by_player"])
        page_cache.invalidate_event_on_commit(entry.event_id, link.tournament_id)
    log.info("entry %s withdrawn by its player from their link", entry.pk)
    return entry


def entry_undo_by_player(*, link: PlayerLink, entry: Entry) -> SignedUp:
    """Take back the player's own withdrawal from their link, while the event is not
    drawn: back to where they were (awaiting approval stays awaiting approval), entered
    while there is room, else at the end of the waiting list. A withdrawal the director
    made is the director's to undo (``not-yours``)."""
    from tournament.services.advance import entry_reactivate_status

    with transaction.atomic():
        event_lock(entry.event_id)
        event = Event.objects.get(pk=entry.event_id)
        entry = _own_entry(link, entry)
        if entry.status != Entry.Status.WITHDRAWN:
            raise refuse(
                _("You are not withdrawn from {event_name}.").format(event_name=event.name),
                code="not-withdrawn",
            )
        if not entry.withdrawn_by_player:
            raise refuse(
                _("The director withdrew you from {event_name}: ask them to take it back.").format(
                    event_name=event.name
                ),
                code="not-yours",
            )
        if event.status != Event.Status.REGISTRATION:
            raise refuse(
                _("{event_name} is drawn: the withdrawal stays (ask the director).").format(
                    event_name=event.name
                ),
                code="event-drawn",
            )
        position = None
        if entry.withdrawn_from == Entry.Status.PENDING:
            entry.status = Entry.Status.PENDING
        elif has_room(event):
            entry.status = entry_reactivate_status(entry)
        else:
            entry.status = Entry.Status.WAITING
            entry.waiting_since = timezone.now()
        entry.withdrawn_from = ""
        entry.withdrawn_by_player = False
        entry.save(
            update_fields=["status", "waiting_since", "withdrawn_from", "withdrawn_by_player"]
        )
        position = waiting_position(entry)
        page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    log.info("entry %s: withdrawal undone by its player (%s)", entry.pk, entry.status)
    return SignedUp(entry, link, position, True)


def _own_entry(link: PlayerLink, entry: Entry) -> Entry:
    """``entry`` locked, if it is the link's player's in the link's tournament."""
    found = (
        Entry.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .filter(pk=entry.pk, player_id=link.player_id, event__tournament_id=link.tournament_id)
        .first()
    )
    if found is None:
        raise NotFound(_("No such entry of yours."))
    return found
