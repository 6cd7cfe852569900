"""Players: create the people who play, and correct their details."""

from __future__ import annotations

import logging
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from matches.errors import Forbidden, Invalid, refuse
from tournament import page_cache
from tournament.models import Event, Player, PlayerLink, Tournament, User
from tournament.text import text_problem

log = logging.getLogger(__name__)

MAX_RATING = 4000.0


def plain_number(value: float) -> str:
    """``value`` as people write it, in the page's language: 4000, 2,5 or 100000000000000,
    never 1e+14 (``:g`` wrote a refused 10^14 so)."""
    if not math.isfinite(value):
        return str(value)
    return number_format(Decimal(repr(value)).normalize())


def _clean(
    *, name: str, email: str, rating: float | None, club: str, country: str
) -> tuple[str, str, float | None, str, str]:
    name = (name or "").strip()
    if not name:
        raise refuse(_("A player needs a name."), code="invalid", field="name")
    if len(name) > 120:
        raise refuse(_("A name has at most 120 characters."), code="invalid", field="name")
    for value, field, what in ((name, "name", "A name"), (club or "", "club", "A club")):
        if problem := text_problem(value, what):
            raise refuse(problem, code="invalid", field=field)
    if rating is not None and not 0 < rating <= MAX_RATING:
        raise refuse(
            _("A rating is above 0 and at most {MAX_RATING}, not {rating}.").format(
                MAX_RATING=plain_number(MAX_RATING), rating=plain_number(rating)
            ),
            code="invalid",
            field="rating",
        )
    country = (country or "").strip().upper()
    if country and (len(country) != 2 or not country.isalpha()):
        raise refuse(_("A country is a two-letter ISO code."), code="invalid", field="country")
    return name, (email or "").strip(), rating, (club or "").strip(), country


def player_fields_check(
    *, name: str, email: str, rating: float | None, club: str, country: str
) -> tuple[str, str, float | None, str, str]:
    """A new player's fields cleaned as :func:`player_create` cleans them (refused the same
    way), without creating anyone: a sign-up asked checks them before its mail goes."""
    return _clean(name=name, email=email, rating=rating, club=club, country=country)


def _spaced(name: str) -> str:
    return " ".join((name or "").split())


def players_seen_by(by: User | None) -> QuerySet[Player]:
    """The players ``by`` may see (everyone for the system: ``by`` None)."""
    from tournament.selectors import players_visible_to

    return Player.objects.all() if by is None else players_visible_to(by)


def player_namesakes(
    name: str, *, exclude: int | None = None, by: User | None = None
) -> list[Player]:
    """Players already called ``name`` (case and spacing aside), but player ``exclude``;
    only those ``by`` may see: a player seen only in another director's private
    tournament is never named to them."""
    wanted = _spaced(name)
    if not wanted:
        return []
    found = players_seen_by(by).filter(name__iexact=wanted)
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return list(found.order_by("pk")[:5])


def name_key(name: str) -> str:
    """A name as namesakes compare it: case and spacing aside."""
    return _spaced(name).casefold()


#: Names asked about in one query by ``players_named`` (SQLite nests an OR per name).
NAMES_PER_QUERY = 200


def players_named(names: Iterable[str], *, by: User | None = None) -> dict[str, list[Player]]:
    """``player_namesakes`` for many names at once, a query per 200 names instead of one
    each: the players already called each name, oldest first, by ``name_key``."""
    wanted = sorted({_spaced(n) for n in names} - {""})
    found: dict[str, list[Player]] = defaultdict(list)
    for start in range(0, len(wanted), NAMES_PER_QUERY):
        any_of = Q()
        for name in wanted[start : start + NAMES_PER_QUERY]:
            any_of |= Q(name__iexact=name)
        for player in players_seen_by(by).filter(any_of).order_by("pk"):
            found[name_key(player.name)].append(player)
    return {key: players[:5] for key, players in found.items()}


def namesake_text(player: Player) -> str:
    """How a refusal names an existing player: name (club, email)."""
    facts = ", ".join(f for f in (player.club, player.email) if f) or _("no club or email")
    return f"{player.name} ({facts})"


def possible_duplicate(name: str, namesakes: list[Player], advice: str) -> Invalid:
    """The refusal of a name that ``namesakes`` already have (``possible-duplicate``)."""
    named = "; ".join(namesake_text(p) for p in namesakes)
    return refuse(
        _("A player named {spaced_name} already exists: {named}. {advice}").format(
            spaced_name=_spaced(name), named=named, advice=advice
        ),
        code="possible-duplicate",
        field="name",
        existing=[
            {"id": p.pk, "name": p.name, "club": p.club, "email": p.email} for p in namesakes
        ],
    )


def player_create(
    *,
    name: str,
    email: str = "",
    rating: float | None = None,
    club: str = "",
    country: str = "",
    user: User | None = None,
    confirm_new: bool = True,
    by: User | None = None,
) -> Player:
    """Create a player (rating 1500 unless given).

    ``confirm_new=False`` (the console's and the API's default) refuses a name that a
    player already has (``possible-duplicate``, naming them), so that a director uses
    that player, or confirms that this is somebody else.
    """
    name, email, rating, club, country = _clean(
        name=name, email=email, rating=rating, club=club, country=country
    )
    if not confirm_new:
        namesakes = player_namesakes(name, by=by)
        if namesakes:
            raise possible_duplicate(
                name, namesakes, _("Use that player, or confirm that this is a new one.")
            )
    if email:
        _refuse_taken_email(email, None)
    with _email_unique(email):
        player = Player(
            name=name, email=email, club=club, country=country, user=user, created_by=by
        )
        if rating is not None:
            player.rating = rating
        player.full_clean(exclude=["user"], validate_constraints=False)
        player.save()
    return player


@contextmanager
def _email_unique(email: str) -> Iterator[None]:
    """A transaction in which a player gets ``email``: one that another transaction gave
    to another player at the same instant (the database's constraint) is refused as
    ``email-taken``, as the check before it refuses one given earlier."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as err:
        if email and Player.objects.filter(email__iexact=email).exists():
            raise _email_taken(email) from err
        raise


@dataclass(frozen=True)
class PlayerChange:
    """A player after ``player_update``, and the fields that changed (in form order)."""

    player: Player
    changed: tuple[str, ...]


def player_update(
    *,
    player: Player,
    by: User | None,
    name: str | None = None,
    email: str | None = None,
    club: str | None = None,
    country: str | None = None,
    confirm_new: bool = False,
) -> PlayerChange:
    """Correct a player's name, email, club or country; ``None`` leaves a field as it is.

    Checked and normalised as on creation. A new name that another player has is
    refused (``possible-duplicate``, naming them) unless ``confirm_new``; an email
    another player has is refused (``email-taken``: the CSV import knows a player by
    their email). The rating is computed from results, never edited. Once the change
    commits, the public pages of every tournament the player is entered in are stale.
    Who may do this is the caller's check (``selectors.user_may_edit_player``); the
    name, club and country, which every tournament shows, only whom
    ``selectors.user_may_change_player_identity`` allows (403 ``player-not-yours``); the
    player's own email is changed only by whom ``selectors.user_may_change_player_email``
    allows (403 ``email-not-yours`` for anyone else: set your tournament's contact with
    ``player_contact_set``), since other tournaments' notices go there.
    """
    with _email_unique(email or ""):
        player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        new = dict(
            zip(
                ("name", "email", "club", "country"),
                _clean_details(player, name=name, email=email, club=club, country=country),
                strict=True,
            )
        )
        changed = tuple(field for field, value in new.items() if getattr(player, field) != value)
        if not changed:
            return PlayerChange(player, ())
        if by is not None and set(changed) & set(IDENTITY):
            _refuse_identity_not_theirs(by, player, changed)
        renamed = _spaced(new["name"]).casefold() != _spaced(player.name).casefold()
        if renamed and not confirm_new:
            namesakes = player_namesakes(new["name"], exclude=player.pk, by=by)
            if namesakes:
                raise possible_duplicate(
                    new["name"],
                    namesakes,
                    _(
                        "If this is somebody else, confirm the new name; if it is the same "
                        "person, keep the name."
                    ),
                )
        if "email" in changed and by is not None:
            _refuse_email_not_theirs(by, player)
        if "email" in changed and new["email"]:
            _refuse_taken_email(new["email"], player)
            # No other player of the player's tournaments may have the new address there.
            tournaments = PlayerLink.objects.filter(player=player)
            _refuse_shared_contact(
                new["email"], player, tournaments.values_list("tournament_id", flat=True)
            )
        for field in changed:
            setattr(player, field, new[field])
        player.full_clean(exclude=["user"], validate_constraints=False)
        player.save(update_fields=list(changed))
        for tournament_id, event_ids in _events_showing(player).items():
            page_cache.invalidate_tournament_on_commit(tournament_id, event_ids)
    log.info(
        "player %s: %s changed by user %s", player.pk, ", ".join(changed), getattr(by, "pk", None)
    )
    return PlayerChange(player, changed)


def _clean_details(
    player: Player,
    *,
    name: str | None,
    email: str | None,
    club: str | None,
    country: str | None,
) -> tuple[str, str, str, str]:
    """The new name, email, club and country, checked as on creation (``None``: as now)."""
    name, email, _kept, club, country = _clean(
        name=player.name if name is None else name,
        email=player.email if email is None else email,
        rating=None,
        club=player.club if club is None else club,
        country=player.country if country is None else country,
    )
    return name, email, club, country


def _refuse_taken_email(email: str, player: Player | None) -> None:
    others = Player.objects.filter(email__iexact=email)
    if player is not None:
        others = others.exclude(pk=player.pk)
    if others.exists():
        raise _email_taken(email)


def _refuse_shared_contact(email: str, player: Player, tournament_ids: Iterable[int]) -> None:
    """Refuse ``email`` for ``player`` where another player of one of these tournaments
    has it (as their contact there, or as their own email): in a tournament one address
    is one person, whose sign-ups join them."""
    ids = list(tournament_ids)
    if not email or not ids:
        return
    taken = (
        PlayerLink.objects.filter(tournament_id__in=ids)
        .exclude(player=player)
        .filter(Q(email__iexact=email) | Q(player__email__iexact=email))
        .select_related("tournament")
        .order_by("pk")
        .first()
    )
    if taken is not None:
        raise refuse(
            _(
                "Another player of {tournament} already has the address {email} (their "
                "own, or the tournament's contact for them): in a tournament one address "
                "is one person (a sign-up with it joins that player). If it is the same "
                "person, make the two records one (merge); otherwise give another address."
            ).format(tournament=taken.tournament.name, email=email),
            code="email-taken",
            field="email",
        )


def _email_taken(email: str) -> Invalid:
    """``email-taken``, naming nobody: the other player may be one the caller cannot see."""
    return refuse(
        _(
            "Another player already has the email {email}: a player's "
            "email is how the CSV import knows them, so two players "
            "cannot share one. If it is the same person, use that "
            "player; otherwise leave their own email empty and set the "
            "address as your tournament's contact for them."
        ).format(email=email),
        code="email-taken",
        field="email",
    )


#: What every tournament shows of a player: changed only by whom
#: ``selectors.user_may_change_player_identity`` allows.
IDENTITY = ("name", "club", "country")


def identity_not_yours_text(player: Player) -> str:
    """Why a director may not change ``player``'s name, club or country."""
    return _(
        "{name} also plays in tournaments you do not direct, which show their "
        "name, club and country too: only staff or the directors of every tournament they "
        "are in change them. Ask your federation's staff (or those directors) to correct "
        "them."
    ).format(name=player.name)


def _refuse_identity_not_theirs(by: User, player: Player, changed: tuple[str, ...]) -> None:
    from tournament.selectors import user_may_change_player_identity

    if not user_may_change_player_identity(by, player):
        raise Forbidden(
            identity_not_yours_text(player),
            code="player-not-yours",
            field=next(f for f in changed if f in IDENTITY),
        )


def _refuse_email_not_theirs(by: User, player: Player) -> None:
    from tournament.selectors import user_may_change_player_email

    if not user_may_change_player_email(by, player):
        raise Forbidden(
            _(
                "{player_name}'s own email is where the notices of other "
                "tournaments go: only they (their account), staff, or the "
                "directors of every tournament they are in change it. Set "
                "your tournament's contact for them instead (the player's "
                "edit page in the console, or PATCH "
                "/api/tournaments/{{slug}}/player-links/{{player}}/)."
            ).format(player_name=player.name),
            code="email-not-yours",
            field="email",
        )


def player_contact_set(
    *, tournament: Tournament, player: Player, email: str, by: User | None = None
) -> PlayerLink:
    """Set where ``tournament``'s notices to ``player`` go (their link, match ready,
    reminders), without touching the player's own email or any other tournament's
    contact; the player's own email (or an empty one) means "use the player's own".
    The caller checks that ``by`` directs the tournament and the player is in it."""
    from tournament.services.player_links import player_link_ensure

    email = (email or "").strip()
    if email:
        _email_check(email)
    with transaction.atomic():
        link = player_link_ensure(tournament_id=tournament.pk, player_id=player.pk)
        link = PlayerLink.objects.select_for_update(no_key=True).get(pk=link.pk)
        wanted = "" if email.casefold() == player.email.casefold() else email
        _refuse_shared_contact(wanted or player.email, player, [tournament.pk])
        if link.email != wanted:
            link.email = wanted
            link.save(update_fields=["email"])
    log.info(
        "player %s: contact in tournament %s changed by user %s",
        player.pk,
        tournament.pk,
        getattr(by, "pk", None),
    )
    return link


def player_update_in_tournament(
    *,
    tournament: Tournament,
    player: Player,
    by: User | None,
    name: str | None = None,
    email: str | None = None,
    club: str | None = None,
    country: str | None = None,
    confirm_new: bool = False,
) -> PlayerChange:
    """A director's correction from their tournament's console: name, club and country as
    ``player_update``; the email is where this tournament's notices go. It becomes the
    player's own email when ``by`` may change that (no other tournament depends on it),
    else this tournament's contact for the player (``player_contact_set``); ``changed``
    then names ``contact``."""
    from tournament.selectors import user_may_change_player_email

    with transaction.atomic():
        link = PlayerLink.objects.filter(tournament=tournament, player=player).first()
        current = (link.email if link is not None else "") or player.email
        wanted = None if email is None else (email or "").strip()
        moved = wanted is not None and wanted != current
        own = moved and (by is None or user_may_change_player_email(by, player))
        done = player_update(
            player=player,
            by=by,
            name=name,
            email=wanted if own else None,
            club=club,
            country=country,
            confirm_new=confirm_new,
        )
        if not moved:
            return done
        if own:  # this tournament follows the player's own email again
            player_contact_set(tournament=tournament, player=done.player, email="", by=by)
            changed = done.changed if "email" in done.changed else (*done.changed, "email")
            return PlayerChange(done.player, changed)
        player_contact_set(tournament=tournament, player=done.player, email=wanted or "", by=by)
        return PlayerChange(done.player, (*done.changed, "contact"))


def _email_check(email: str) -> None:
    from django.core.exceptions import ValidationError
    from django.core.validators import EmailValidator

    try:
        EmailValidator()(email)
    except ValidationError as err:
        raise refuse(_("Enter a valid email address."), code="invalid", field="email") from err
    if len(email) > 254:
        raise refuse(_("An email has at most 254 characters."), code="invalid", field="email")


def _events_showing(player: Player) -> dict[int, list[int]]:
    """Every event of every tournament ``player`` is entered in, by tournament id."""
    events: dict[int, list[int]] = defaultdict(list)
    for tournament_id, event_id in (
        Event.objects.filter(tournament__events__entries__player=player)
        .distinct()
        .values_list("tournament_id", "pk")
    ):
        events[tournament_id].append(event_id)
    return dict(events)


def player_account_link(*, player: Player, user: User, link: PlayerLink | None = None) -> Player:
    """Link ``player`` to ``user``'s account: the account then acts as the player (their
    matches by account, ``/me/``) and, directing a tournament, may not decide the
    player's own matches. The one identity every tournament shares, so it needs proof:

    - staff link anyone;
    - a director links their own record: the player's email is the account's email,
      and no tournament the account does not direct has the player (it could not have
      set that email otherwise);
    - a player claims theirs through their private link (``link``, live) while logged
      in: the player's own email is the account's. Not a tournament's contact for them:
      its directors set that, and a link claimed with it would carry their account into
      every other tournament the player is in.

    Refused (``account-link``) otherwise, and when either side is linked already.
    """
    from tournament.selectors import user_may_change_player_email

    with transaction.atomic():
        player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        if player.user_id == user.pk:
            return player
        if player.user_id is not None:
            raise _link_refused(
                _("{name} is already linked to another account.").format(name=player.name)
            )
        if Player.objects.filter(user=user).exists():
            raise _link_refused(_("Your account is already linked to a player."))
        email = (user.email or "").strip().casefold()
        own = bool(email) and email == player.email.casefold()
        allowed = (
            user.is_staff
            or user.is_superuser
            or (link is None and own and user_may_change_player_email(user, player))
            or (link is not None and own)
        )
        if not allowed:
            raise _link_refused(
                _(
                    "Only a player whose email is your account's email can be linked to it "
                    "({email}); staff can link any."
                ).format(email=user.email or _("your account has none"))
            )
        player.user = user
        player.save(update_fields=["user"])
    log.info("player %s linked to user %s", player.pk, user.pk)
    return player


def _link_refused(message: str) -> Invalid:
    return refuse(message, code="account-link", field="player")
