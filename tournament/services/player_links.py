"""Players' private links: one per player and tournament, made on their first entry.

``/r/<key>/`` shows the player's matches in every event of the tournament (the
Consolation match that waits after a Main loss too) and reports any of them. A
leaked link is replaced: the old key (and the per-entry keys of older links) then
answers 404.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Entry, Player, PlayerLink, Tournament, User, new_report_key
from tournament.signals import announce_player_links

log = logging.getLogger(__name__)


def _first_entry_key(tournament_id: int, player_id: int) -> str:
    """The key of the player's first entry in the tournament: a new link keeps it, so a
    link printed or sent for that entry goes on working."""
    key = (
        Entry.objects.filter(event__tournament_id=tournament_id, player_id=player_id)
        .order_by("pk")
        .values_list("report_key", flat=True)
        .first()
    )
    return key or new_report_key()


def player_link_ensure(*, tournament_id: int, player_id: int) -> PlayerLink:
    """The player's link for the tournament, made now if they have none yet."""
    link = PlayerLink.objects.filter(tournament_id=tournament_id, player_id=player_id).first()
    if link is not None:
        return link
    link, _ = PlayerLink.objects.get_or_create(
        tournament_id=tournament_id,
        player_id=player_id,
        defaults={"key": _first_entry_key(tournament_id, player_id)},
    )
    return link


def contact_emails(tournament_id: int, player_ids: list[int]) -> dict[int, str]:
    """Where the tournament's notices to each player go, by player id (one query): the
    tournament's own contact for them, else the player's own email ("" for none)."""
    found = {
        player_id: link_email or own
        for player_id, link_email, own in PlayerLink.objects.filter(
            tournament_id=tournament_id, player_id__in=player_ids
        ).values_list("player_id", "email", "player__email")
    }
    missing = [p for p in player_ids if p not in found]
    if missing:
        found.update(Player.objects.filter(pk__in=missing).values_list("pk", "email"))
    return found


def notice_emails(tournament_id: int, player_ids: list[int]) -> dict[int, str]:
    """``contact_emails`` for the players who accept this tournament's notices (their
    link's ``notify`` and their own ``Player.notify``); the others are left out."""
    quiet = set(
        PlayerLink.objects.filter(tournament_id=tournament_id, player_id__in=player_ids)
        .filter(Q(notify=False) | Q(player__notify=False))
        .values_list("player_id", flat=True)
    ) | set(Player.objects.filter(pk__in=player_ids, notify=False).values_list("pk", flat=True))
    return {
        p: address
        for p, address in contact_emails(tournament_id, player_ids).items()
        if p not in quiet
    }


def player_links_ensure(*, tournament: Tournament) -> None:
    """Make the missing links of every player entered in the tournament (one query when
    none is missing)."""
    have = set(PlayerLink.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    entered = set(
        Entry.objects.filter(event__tournament=tournament).values_list("player_id", flat=True)
    )
    missing = sorted(entered - have)
    if missing:
        PlayerLink.objects.bulk_create(
            [
                PlayerLink(
                    tournament=tournament, player_id=p, key=_first_entry_key(tournament.pk, p)
                )
                for p in missing
            ],
            ignore_conflicts=True,
        )


def player_link_regenerate(*, link: PlayerLink, by: User | None = None) -> PlayerLink:
    """Give the player a new key; the old one (and their entries' old keys) stop working."""
    with transaction.atomic():
        # FOR UPDATE, not NO KEY: the new keys below are unique columns, so PostgreSQL's
        # UPDATE takes the key lock anyway; taking it first avoids upgrading a lock.
        link = PlayerLink.objects.select_for_update().get(pk=link.pk)
        old = link.key
        link.key = new_report_key()
        link.regenerated_at = timezone.now()
        link.regenerated_by = by
        link.emailed_at = None  # a new link may be emailed at once (the day's cap stays)
        link.save(update_fields=["key", "regenerated_at", "regenerated_by", "emailed_at"])
        for entry in Entry.objects.select_for_update().filter(
            event__tournament_id=link.tournament_id, player_id=link.player_id
        ):
            entry.report_key = new_report_key()
            entry.save(update_fields=["report_key"])
    log.warning(
        "player link regenerated: tournament %s, player %s, by user %s (old key ending %s)",
        link.tournament_id,
        link.player_id,
        getattr(by, "pk", None),
        old[-4:],
    )
    return link


@dataclass(frozen=True)
class LinksMailed:
    """What ``player_links_email`` did: notices queued, players without an address or
    who turned notices off."""

    queued: int
    no_email: int
    opted_out: int


def player_links_email(*, tournament: Tournament, by: User | None = None) -> LinksMailed:
    """Queue an email with their private link to every player of the tournament who has an
    address and accepts notices (a Celery task each, sent once per key)."""
    player_links_ensure(tournament=tournament)
    queued = no_email = opted_out = 0
    ids = []
    for link in PlayerLink.objects.filter(tournament=tournament).select_related("player"):
        if not link.contact_email:
            no_email += 1
        elif not link.accepts_notices:
            opted_out += 1
        else:
            queued += 1
            ids.append(link.pk)
    announce_player_links(ids)
    log.info("player links queued for %d players of tournament %s", queued, tournament.pk)
    return LinksMailed(queued=queued, no_email=no_email, opted_out=opted_out)


@dataclass(frozen=True)
class LinkEmailLimits:
    """When "Email this player" may send a link's mail again, and what is left today."""

    cooldown_minutes: int
    per_day: int
    next_at: datetime | None  # None: now
    left_today: int

    def sentence(self) -> str:
        return _("One mail every {minutes} min, {per_day} a day per player.").format(
            minutes=self.cooldown_minutes, per_day=self.per_day
        )


def link_email_limits(link: PlayerLink, now: datetime | None = None) -> LinkEmailLimits:
    """The cooldown and daily cap of ``link``'s "Email this player", as they stand."""
    now = now or timezone.now()
    cooldown = timedelta(seconds=settings.LINK_EMAIL_COOLDOWN)
    today = timezone.localdate(now)
    sent_today = link.emailed_count if link.emailed_on == today else 0
    left = max(0, settings.LINK_EMAILS_PER_DAY - sent_today)
    next_at = None
    if link.emailed_at is not None and now < link.emailed_at + cooldown:
        next_at = link.emailed_at + cooldown
    if left == 0:
        tomorrow = datetime.combine(today + timedelta(days=1), time.min)
        next_at = timezone.make_aware(tomorrow) if timezone.is_naive(tomorrow) else tomorrow
    return LinkEmailLimits(
        cooldown_minutes=max(1, settings.LINK_EMAIL_COOLDOWN // 60),
        per_day=settings.LINK_EMAILS_PER_DAY,
        next_at=next_at,
        left_today=left,
    )


def player_link_email(*, link: PlayerLink, by: User | None = None) -> str:
    """Queue an email with ``link`` to its player now, even if this key was sent before
    (the director asked): ``"queued"``, ``"no-email"``, ``"opted-out"``, or ``"wait"``
    (sent less than ``LINK_EMAIL_COOLDOWN`` seconds ago, or ``LINK_EMAILS_PER_DAY`` sent
    today: :func:`link_email_limits` says until when)."""
    if not link.contact_email:  # the tournament's contact for them, else their own
        return "no-email"
    if not link.accepts_notices:
        return "opted-out"
    with transaction.atomic():
        locked = PlayerLink.objects.select_for_update().get(pk=link.pk)
        now = timezone.now()
        if link_email_limits(locked, now).next_at is not None:
            return "wait"
        today = timezone.localdate(now)
        locked.emailed_count = locked.emailed_count + 1 if locked.emailed_on == today else 1
        locked.emailed_on = today
        locked.emailed_at = now
        locked.save(update_fields=["emailed_at", "emailed_on", "emailed_count"])
        link.emailed_at, link.emailed_on = locked.emailed_at, locked.emailed_on
        link.emailed_count = locked.emailed_count
        announce_player_links([link.pk], again=True)
    log.info("player link %s queued again by %s", link.pk, by.pk if by else None)
    return "queued"
