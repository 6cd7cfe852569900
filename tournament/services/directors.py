"""A tournament's directors: add one (making their account when they have none), remove
one, and give a director who has not set a password yet a fresh set-password link.

A new account has no usable password: its owner sets one through the link
(``/accounts/reset/<uidb64>/<token>/``, Django's own set-password page), which is
emailed when the account has an address. A link stops working once the password is
set, and after ``PASSWORD_RESET_TIMEOUT``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from matches.errors import refuse
from tournament.models import Player, Tournament, User
from tournament.services.common import integrity_as
from tournament.signals import announce_director_invited

log = logging.getLogger(__name__)

#: The longest text accepted where a username or an email address is expected.
IDENTIFIER_MAX = 254


@dataclass(frozen=True)
class DirectorInvite:
    """What ``tournament_director_invite`` did.

    ``set_password_path`` is the path of the user's set-password page when their account
    has no usable password (else None); ``emailed`` says whether the link was queued by
    email to them.
    """

    user: User
    created: bool
    already_director: bool
    set_password_path: str | None
    emailed: bool


def set_password_path(user: User) -> str:
    """The path of ``user``'s set-password page; valid until the password is set (or the
    link expires)."""
    return reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )


def _locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked until the caller's transaction ends: changes to its
    directors queue behind each other (so two removals never leave it with none)."""
    return Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)


def _clean_text(value: object, *, field: str, what: str) -> str:
    """``value`` as stripped text, refused when it is no text, too long or holds a NUL."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise refuse(_("The {what} must be text.").format(what=what), code="invalid", field=field)
    value = value.strip()
    if len(value) > IDENTIFIER_MAX:
        raise refuse(
            _("The {what} is too long (at most {IDENTIFIER_MAX} characters).").format(
                what=what, IDENTIFIER_MAX=IDENTIFIER_MAX
            ),
            code="invalid",
            field=field,
        )
    if "\x00" in value:
        raise refuse(
            _("The {what} holds a character it cannot.").format(what=what),
            code="invalid",
            field=field,
        )
    return value


def _account_named(identifier: str) -> User | None:
    """The account whose username (exactly, else ignoring case) or email address (ignoring
    case) is ``identifier``; refused when it could be more than one."""
    exact = User.objects.filter(username=identifier).first()
    if exact is not None:
        return exact
    for lookup, what in (("username__iexact", "username"), ("email__iexact", "email address")):
        found = list(User.objects.filter(**{lookup: identifier}).order_by("pk")[:2])
        if len(found) == 1:
            return found[0]
        if found:
            raise refuse(
                _(
                    "More than one account has the {what} {identifier!r}: give the exact username."
                ).format(what=what, identifier=identifier),
                code="ambiguous",
                field="username",
            )
    return None


def _new_account(username: str, email: str) -> User:
    """A new account with no usable password (its owner sets one through the link)."""
    if not email and "@" in username:
        # An address that matches no account: it is the new account's address too.
        try:
            validate_email(username)
        except ValidationError:
            pass
        else:
            email = username
    field = User._meta.get_field("username")
    try:
        field.run_validators(username)
    except ValidationError as err:
        raise refuse(
            _(
                "No account has the username or email {username!r}, and it "
                "cannot be a new username: use letters, digits and @ . + - _ "
                "only, at most {field_max_length} characters."
            ).format(username=username, field_max_length=field.max_length),
            code="invalid-username",
            field="username",
        ) from err
    if email:
        try:
            validate_email(email)
        except ValidationError as err:
            raise refuse(
                _("{email!r} is not an email address.").format(email=email),
                code="invalid",
                field="email",
            ) from err
        if User.objects.filter(email__iexact=email).exists():
            raise refuse(
                _(
                    "Another account already has the email address {email}: add "
                    "that account by its username or email instead."
                ).format(email=email),
                code="email-taken",
                field="email",
            )
    with integrity_as(
        _("The username {username} was taken just now.").format(username=repr(username)),
        code="username-taken",
        field="username",
    ):
        user = User(username=username, email=email)
        user.set_unusable_password()
        user.save()
    return user


def tournament_director_invite(
    *, tournament: Tournament, by: User | None, username: str, email: str = ""
) -> DirectorInvite:
    """Make the account named ``username`` (a username or an email address) a director
    of ``tournament``, creating it when no account matches.

    No change when it already directs the tournament. An account with no usable
    password gets a set-password link, emailed (once the change commits) when it has an
    address. ``email`` is only for a new account: an existing one keeps its own.
    """
    identifier = _clean_text(username, field="username", what="username or email")
    if not identifier:
        raise refuse(_("Give a username or an email address."), code="required", field="username")
    email = _clean_text(email, field="email", what="email address")
    with transaction.atomic():
        tournament = _locked(tournament)
        user = _account_named(identifier)
        created = user is None
        if user is None:
            user = _new_account(identifier, email)
        already = tournament.directors.filter(pk=user.pk).exists()
        if not already:
            tournament.directors.add(user)
        pending = not user.has_usable_password()
        path = (
            set_password_path(user) if pending and (created or _may_hold_link(user, by)) else None
        )
        emailed = bool(pending and user.email)
        if emailed:
            _email_link_on_commit(tournament=tournament, user=user, by=by)
    log.info(
        "director %s %s tournament %s, by user %s",
        user.pk,
        "already directs" if already else ("created for" if created else "added to"),
        tournament.pk,
        getattr(by, "pk", None),
    )
    return DirectorInvite(
        user=user,
        created=created,
        already_director=already,
        set_password_path=path,
        emailed=emailed,
    )


def _may_hold_link(user: User, by: User | None) -> bool:
    """Whether ``by`` may be shown ``user``'s set-password link (whoever holds it can take
    the account): only for an account that nobody else relies on, one that is not staff,
    has no player profile and directs no tournament that ``by`` does not direct too."""
    if by is None or user.is_staff or user.is_superuser:
        return False
    if Player.objects.filter(user=user).exists():
        return False
    if by.is_staff or by.is_superuser:
        return True
    theirs = user.directed_tournaments.exclude(pk__in=by.directed_tournaments.values("pk"))
    return not theirs.exists()


def _email_link_on_commit(*, tournament: Tournament, user: User, by: User | None) -> None:
    announce_director_invited(tournament.pk, user.pk, getattr(by, "pk", None))


def _check_directs(tournament: Tournament, user: User) -> None:
    if not tournament.directors.filter(pk=user.pk).exists():
        raise refuse(
            _("{user_username} is not a director of {tournament_name}.").format(
                user_username=user.username, tournament_name=tournament.name
            ),
            code="not-director",
            field="user",
        )


def tournament_director_remove(*, tournament: Tournament, user: User, by: User | None) -> None:
    """Take ``user`` off ``tournament``'s directors; the last one cannot go (someone must
    be able to run it). Removing oneself is allowed while another director remains."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_directs(tournament, user)
        if not tournament.directors.exclude(pk=user.pk).exists():
            raise refuse(
                _(
                    "{user_username} is the only director of {tournament_name}: "
                    "add another director first."
                ).format(user_username=user.username, tournament_name=tournament.name),
                code="last-director",
                field="user",
            )
        tournament.directors.remove(user)
    log.info(
        "director %s removed from tournament %s by user %s",
        user.pk,
        tournament.pk,
        getattr(by, "pk", None),
    )


@dataclass(frozen=True)
class DirectorLink:
    """A renewed set-password link: its path for the director asking, or ``None`` when
    it was emailed to the account's own address instead."""

    path: str | None
    emailed: bool


def tournament_director_link(
    *, tournament: Tournament, user: User, by: User | None
) -> DirectorLink:
    """A fresh set-password path for a director who has not set a password yet (their
    first link was lost or has expired); the earlier links keep working until used.

    For an account others rely on too (see ``_may_hold_link``) the link goes to its own
    email address instead; without an address that is refused.
    """
    _check_directs(tournament, user)
    user.refresh_from_db(fields=["password", "last_login"])
    if user.has_usable_password():
        raise refuse(
            _("{user_username} has set a password already: they log in with it.").format(
                user_username=user.username
            ),
            code="has-password",
            field="user",
        )
    if not _may_hold_link(user, by):
        if not user.email:
            raise refuse(
                _(
                    "{user_username} also directs tournaments you do not (or "
                    "plays with this account), and has no email address: only a "
                    "director of all of them, or staff, may see their link."
                ).format(user_username=user.username),
                code="link-private",
                field="user",
            )
        with transaction.atomic():
            _email_link_on_commit(tournament=tournament, user=user, by=by)
        log.info("set-password link emailed to director %s by user %s", user.pk, by and by.pk)
        return DirectorLink(path=None, emailed=True)
    log.info(
        "set-password link made for director %s of tournament %s by user %s",
        user.pk,
        tournament.pk,
        getattr(by, "pk", None),
    )
    return DirectorLink(path=set_password_path(user), emailed=False)
