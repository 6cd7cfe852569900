"""Players' own sign-up for an event, the waiting list, and the director's approval.

Identity: a sign-up never finds, changes or takes over an existing player. Whoever
signs up gets a new player record of their own (through ``player_create``), however
their name or email compares with players already known: typing someone else's email
into the public form gains nothing but a separate record under the typed name, and
the email only ever receives that record's own link. The console marks such a
sign-up (same name or email as a known player) so that the director can enter the
known player instead and withdraw the sign-up.

An entry taken from a sign-up is ``registered`` while the event has room under its
cap, else ``waiting`` (ordered by ``waiting_since``); with approval on, ``pending``
until the director approves it (then registered or waiting, by the same cap). A
withdrawal before the draw moves the first waiting entry up, and it is emailed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from matches.errors import refuse
from tournament import page_cache
from tournament.models import Entry, Event, Player, PlayerLink, User
from tournament.services.common import ACTIVE
from tournament.services.entries import entry_register
from tournament.services.player_links import contact_emails, player_link_ensure
from tournament.services.players import player_contact_set, player_create
from tournament.services.waiting_list import has_room, waiting_position
from tournament.signals import announce_signup_notice

#: Entries that hold or wait for a place (a second sign-up with their email is refused).
SIGNED = (*ACTIVE, Entry.Status.WAITING, Entry.Status.PENDING)


@dataclass(frozen=True)
class SignedUp:
    """A sign-up taken: the entry, the player's private link and, on the waiting list,
    their place on it (1 = next in)."""

    entry: Entry
    link: PlayerLink
    position: int | None


def signup_open_problem(event: Event, now: datetime | None = None) -> str | None:
    """Why ``event`` takes no sign-up now, in words; None while it does."""
    if event.signup == Event.Signup.CLOSED:
        return f"Sign-up for {event.name} is closed: ask the director to enter you."
    if event.feeds_from_id is not None:
        return f"{event.name} is filled by the losers of another event."
    if event.status != Event.Status.REGISTRATION:
        return f"{event.name} is already drawn: sign-up is over."
    if event.signup_deadline is not None and (now or timezone.now()) >= event.signup_deadline:
        return f"Sign-up for {event.name} closed at the deadline."
    return None


def _clean_email(email: str) -> str:
    email = (email or "").strip()
    if not email:
        raise refuse(
            "Give your email: your private link is sent to it.", code="invalid", field="email"
        )
    if len(email) > 254:
        raise refuse("An email has at most 254 characters.", code="invalid", field="email")
    try:
        validate_email(email)
    except ValidationError as err:
        raise refuse("That is not an email address.", code="invalid", field="email") from err
    return email


def _notify(entry: Entry, notice: str, position: int | None = None) -> None:
    announce_signup_notice(entry.pk, notice, position)


def _wait(entry: Entry) -> None:
    entry.status = Entry.Status.WAITING
    entry.waiting_since = timezone.now()
    entry.save(update_fields=["status", "waiting_since"])


def entry_signup(
    *, event: Event, name: str, email: str, club: str = "", country: str = ""
) -> SignedUp:
    """A player signs up for ``event`` from the public page (see the module).

    Refused: sign-up closed, past its deadline or the draw (``signup-closed``), a bad
    field (``invalid``, naming it), and an email already signed up for this event
    (``already-signed-up``: their link was sent to it).
    """
    email = _clean_email(email)
    with transaction.atomic():
        event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        if problem := signup_open_problem(event):
            raise refuse(problem, code="signup-closed")
        same_email = Q(player__email__iexact=email) | Q(
            player__links__tournament_id=event.tournament_id, player__links__email__iexact=email
        )
        if event.entries.filter(same_email, status__in=SIGNED).exists():
            raise refuse(
                f"This email is already signed up for {event.name}: its private link was "
                "sent to it, and withdraws from there.",
                code="already-signed-up",
                field="email",
            )
        # A sign-up never reaches into an existing identity: an address another player
        # owns becomes this tournament's contact for the new player, not their own email.
        taken = Player.objects.filter(email__iexact=email).exists()
        player = player_create(name=name, email="" if taken else email, club=club, country=country)
        if taken:
            player_contact_set(tournament=event.tournament, player=player, email=email)
        entry = entry_register(event=event, player=player)
        entry.signed_up = True
        entry.save(update_fields=["signed_up"])
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
    return SignedUp(entry, link, position)


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
            raise refuse(f"{entry.player} is not awaiting approval.", code="not-pending")
        if event.status != Event.Status.REGISTRATION:
            raise refuse(f"{event.name} is already drawn.", code="event-drawn")
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
