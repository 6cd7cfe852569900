"""Who may act on a match: one of its two players, or a director of its tournament.

An :class:`Actor` is the credential a request carries: a logged-in user, the
private report link of an entry (``Entry.report_key``), or both. :func:`match_role`
turns it into a :class:`Role` on one match, or refuses: nobody else may act.
A user who plays in the match acts as that player, even if they also direct the
tournament; directing a tournament gives rights on its matches only.

A director's decisions on a match (resolve, forfeit, walkover, penalty, result entry,
correction) all pass :func:`own_match_refuse`: nobody decides a match they play in
(403 ``own-match``); another director of the tournament must. The refused attempt is
kept as a rejected submission, so the audit of the match shows it.
"""

from __future__ import annotations

import functools
import hmac
import string
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from matches import rows
from matches.errors import Forbidden, NotAuthenticated, NotFound
from matches.models import Match
from tournament.models import Entry, Event, PlayerLink, Tournament, User


@dataclass(frozen=True, slots=True)
class Actor:
    """The credentials of whoever acts: a user account, an entry's private link, or both.

    The link is either the entry itself (pages that already looked it up) or just its
    ``key``, checked against the match's two entries when the match is locked (no
    query of its own: the API's hot path).
    """

    user: User | None = None
    entry: Entry | None = None
    key: str | None = None

    @property
    def anonymous(self) -> bool:
        return (
            self.entry is None
            and not self.key
            and (self.user is None or not self.user.is_authenticated)
        )


@dataclass(frozen=True, slots=True)
class Role:
    """What an actor is on one match: a player (side 1 or 2, with the entry) or a director."""

    side: int | None
    entry_id: int | None
    director: bool

    @property
    def player(self) -> bool:
        return self.side is not None


class NotAllowed(Forbidden):
    """Not somebody who may act on this match (403): not a report about it, so not stored."""

    default_code = "permission-denied"


class EventFinished(NotAllowed):
    """A right link whose event is over: nothing more is reported, the page shows results.

    ``link`` is the player's link when known (the error page points to its results)."""

    def __init__(self, message: str, *, link: PlayerLink | None = None) -> None:
        super().__init__(message)
        self.link = link


class LinkNotFound(NotFound):
    """No player link has this key (404)."""

    def __init__(self) -> None:
        super().__init__(_("This link is not valid: ask your director for your link."))


#: The characters of a report key (``secrets.token_urlsafe``).
REPORT_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "-_")


def _key_shape_ok(key: str) -> bool:
    return bool(key) and len(key) <= 64 and REPORT_KEY_CHARS.issuperset(key)


def link_by_key(*, key: str) -> tuple[PlayerLink, bool]:
    """The player link a ``/r/<key>/`` address names, and whether ``key`` is that link's
    own (``False``: an entry's older per-event key, which still resolves). 404 for an
    unknown or replaced key."""
    key = (key or "").strip()
    if not _key_shape_ok(key):
        raise LinkNotFound()
    related = ("player", "tournament")
    link = PlayerLink.objects.select_related(*related).filter(key=key).first()
    if link is not None:
        return link, True
    entry = (
        Entry.objects.filter(report_key=key)
        .values_list("event__tournament_id", "player_id")
        .first()
    )
    if entry is None:
        raise LinkNotFound()
    # Entries made by the services come with their player's link; one made another way
    # (a script, the shell) gets it now, keyed by the entry's own key.
    link, _created = PlayerLink.objects.select_related(*related).get_or_create(
        tournament_id=entry[0], player_id=entry[1], defaults={"key": key}
    )
    return link, link.key == key


#: Keys whose link this process looked up, with when the answer goes stale (monotonic
#: seconds). A phone sends every game of its match with one key, and the rate limit
#: asks before anything else: one query per key and worker an hour, not one a report.
#: Only for counting: a stale answer (a merge moved the key to another link) counts a
#: few reports on the old link; it grants nothing (the report's own lookup decides).
_HOLDERS: dict[str, tuple[str, float]] = {}
_HOLDERS_TTL = 3600.0
_HOLDERS_MAX = 20_000


def key_holder(key: str) -> str:
    """Whose count a private key goes on, as the lookups resolve it: the player's link
    in the tournament (named by its own key or an entry's older one, stripped as
    ``link_by_key`` strips it), so that padding or the other key of one player buys no
    new count; an unknown key counts as itself, stripped. A key found is remembered in
    this process for an hour (:data:`_HOLDERS`); an unknown one is asked every time."""
    key = (key or "").strip()[:64]
    if not _key_shape_ok(key):
        return f"key:{key}"
    now = time.monotonic()
    known = _HOLDERS.get(key)
    if known is not None and known[1] > now:
        return known[0]
    link = rows.link_key_of(key)
    if link is None:
        return f"key:{key}"
    if len(_HOLDERS) >= _HOLDERS_MAX:
        _HOLDERS.clear()
    holder = _HOLDERS[key] = (f"key:{link}", now + _HOLDERS_TTL)
    return holder[0]


def link_check_live(link: PlayerLink) -> None:
    """Refuse (403) a link whose player has nothing left in the tournament: every entry
    withdrawn or in a finished event."""
    entries = list(
        Entry.objects.filter(
            event__tournament_id=link.tournament_id, player_id=link.player_id
        ).values_list("status", "event__status")
    )
    finished = Event.Status.FINISHED
    if entries and all(status == Entry.Status.WITHDRAWN for status, _ in entries):
        raise NotAllowed(
            _(
                "This link has expired: you have withdrawn from the event. "
                "Ask your director if this is a mistake."
            )
        )
    if entries and all(
        event_status == finished or status == Entry.Status.WITHDRAWN
        for status, event_status in entries
    ):
        raise EventFinished(_("Your events are finished: nothing more can be reported."), link=link)


def entry_may_report(entry: Entry, link: PlayerLink | None = None) -> None:
    """Refuse a player's link on an entry that can no longer act (403)."""
    if entry.event.status == Event.Status.FINISHED:
        raise EventFinished(_("This event is finished: nothing more can be reported."), link=link)
    if entry.status == Entry.Status.WITHDRAWN:
        raise NotAllowed(_("This report link has expired: the player has withdrawn."))


def user_directs(user: User | Any, tournament: Tournament | int) -> bool:
    """Whether ``user`` directs ``tournament`` (an id or the tournament): one of its
    directors, or staff and superusers, who direct them all. The one director predicate."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.directors.through.objects.filter(
        tournament_id=tournament_id, user_id=user.pk
    ).exists()


class HiddenMatch(NotFound):
    """A match of a private tournament, to somebody with no standing in it: answered as
    a match that does not exist (404), so that ids tell nothing of private matches."""

    def __init__(self) -> None:
        super().__init__(_("Not found."))


def _stranger(match: Match, actor: Actor) -> bool:
    """Whether the match's tournament is private and ``actor`` has nothing in it: not a
    director, no player entered in it, no key of its links or entries."""
    tournament_id = match.event.tournament_id
    if Tournament.objects.filter(pk=tournament_id, is_public=True).exists():
        return False
    user = actor.user
    if user is not None and user.is_authenticated:
        if user_directs(user, tournament_id):
            return False
        if Entry.objects.filter(event__tournament_id=tournament_id, player__user=user).exists():
            return False
    if actor.entry is not None and actor.entry.event.tournament_id == tournament_id:
        return False
    key = (actor.key or "").strip()
    if key and _key_shape_ok(key):
        if PlayerLink.objects.filter(tournament_id=tournament_id, key=key).exists():
            return False
        if Entry.objects.filter(event__tournament_id=tournament_id, report_key=key).exists():
            return False
    return True


def _hiding_strangers(check: Callable[..., Role]) -> Callable[..., Role]:
    """``check``, but a refusal (401/403) of a stranger to a private tournament is 404."""

    @functools.wraps(check)
    def checked(*, match: Match, actor: Actor) -> Role:
        try:
            return check(match=match, actor=actor)
        except (NotAuthenticated, Forbidden) as refusal:
            if _stranger(match, actor):
                raise HiddenMatch() from refusal
            raise

    return checked


@_hiding_strangers
def match_role(*, match: Match, actor: Actor) -> Role:
    """The actor's role on ``match``; 401 without credentials, 403 for anybody else
    (404 for a stranger to a private tournament: ``HiddenMatch``).

    ``match.event`` (its tournament decides who directs) and the entries should be
    loaded with the match.
    """
    if actor.anonymous:
        raise NotAuthenticated(_("Log in, send a token, or use your private report link."))
    sides = {match.entry1_id: 1, match.entry2_id: 2}
    sides.pop(None, None)
    if actor.key:
        return _key_role(match, actor.key)
    if actor.entry is not None:
        side = sides.get(actor.entry.pk)
        if side is None:
            raise NotAllowed(_("This report link is for another match."))
        return Role(side=side, entry_id=actor.entry.pk, director=False)
    user = actor.user
    assert user is not None
    if sides:
        mine = (
            Entry.objects.filter(pk__in=list(sides), player__user_id=user.pk)
            .values_list("pk", flat=True)
            .first()
        )
        if mine is not None:
            return Role(side=sides[mine], entry_id=mine, director=False)
    if user_directs(user, match.event.tournament_id):
        return Role(side=None, entry_id=None, director=True)
    raise NotAllowed(_("Only the match's players and the tournament's directors may do this."))


def _key_role(match: Match, key: str) -> Role:
    """The player whose private key this is, if it is one of the match's two."""
    given = key.strip().encode()
    for side, entry in ((1, match.entry1), (2, match.entry2)):
        if entry is not None and hmac.compare_digest(entry.report_key.encode(), given):
            if match.event.status == Event.Status.FINISHED:
                raise NotAllowed(_("This report link has expired: the event is finished."))
            if entry.status == Entry.Status.WITHDRAWN:
                raise NotAllowed(_("This report link has expired: the player has withdrawn."))
            return Role(side=side, entry_id=entry.pk, director=False)
    players = {
        entry.player_id: (side, entry)
        for side, entry in ((1, match.entry1), (2, match.entry2))
        if entry is not None
    }
    owner = (
        PlayerLink.objects.filter(
            tournament_id=match.event.tournament_id, player_id__in=list(players), key=key.strip()
        )
        .values_list("player_id", flat=True)
        .first()
        if players and _key_shape_ok(key.strip())
        else None
    )
    if owner is not None:
        side, entry = players[owner]
        if match.event.status == Event.Status.FINISHED:
            raise NotAllowed(_("This report link has expired: the event is finished."))
        if entry.status == Entry.Status.WITHDRAWN:
            raise NotAllowed(_("This report link has expired: the player has withdrawn."))
        return Role(side=side, entry_id=entry.pk, director=False)
    raise NotAllowed(_("This report link is not valid for this match."))


@_hiding_strangers
def director_reader_role(*, match: Match, actor: Actor) -> Role:
    """The actor as a director of the match's tournament, to read (its audit), whether or
    not they also play in it (404 for a stranger to a private tournament)."""
    if actor.anonymous:
        raise NotAuthenticated(_("Log in as a director of this tournament."))
    if actor.user is not None and user_directs(actor.user, match.event.tournament_id):
        return Role(side=None, entry_id=None, director=True)
    raise NotAllowed(_("Only the tournament's directors may do this."))


def director_role(*, match: Match, actor: Actor) -> Role:
    """The actor as a director deciding on the match: not one who plays in it."""
    role = director_reader_role(match=match, actor=actor)
    own_match_refuse(match=match, user=actor.user)
    return role


class OwnMatch(Forbidden):
    """A director tried to decide a match they play in."""

    def __init__(self) -> None:
        super().__init__(
            _("You play in this match: another director of the tournament must decide it."),
            code="own-match",
        )


def own_match_refuse(*, match: Match, user: User | None) -> None:
    """Raise :class:`OwnMatch` if ``user`` plays in ``match`` (the one own-match check).

    A player is the user when linked to the account (``Player.user``), and also when
    their email, or the tournament's contact for them, is the account's email: a
    director entered as a player without the link still cannot decide their own match.
    """
    if user is None or not user.is_authenticated:
        return
    entries = [pk for pk in (match.entry1_id, match.entry2_id) if pk is not None]
    if not entries:
        return
    theirs = Q(player__user_id=user.pk)
    email = (user.email or "").strip()
    if email:
        contact = PlayerLink.objects.filter(
            tournament_id=OuterRef("event__tournament_id"),
            player_id=OuterRef("player_id"),
            email__iexact=email,
        )
        theirs |= Q(player__email__iexact=email) | Q(Exists(contact))
    if Entry.objects.filter(theirs, pk__in=entries).exists():
        raise OwnMatch()
