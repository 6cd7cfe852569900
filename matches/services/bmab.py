"""BMAB-designated matches: the ``designated``, ``recorded`` and ``clocked`` flags, who set
each and when, and the XG PR a director types in for each player.

``designated`` is set (or taken off) by a player of the match or a director before the
first game is reported; after that only a director, with a reason. ``recorded`` and
``clocked`` by either until the match is complete, then by a director. The XG PR
(what eXtreme Gammon reported for each player; shown as "XG PR (reported)", beside the
unofficial gnubg PR) is the director's only.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.access import Actor, NotAllowed, match_role
from matches.errors import refuse
from matches.models import Match
from matches.signals import announce_match_changed

FLAGS = ("designated", "recorded", "clocked")
#: The highest PR a director can type (XG's scale; 0 is perfect play).
MAX_PR = Decimal("99.99")


def _who(actor: Actor, role: Any) -> str:
    if role.director:
        user = actor.user
        return f"director {user.get_username()}" if user is not None else "director"
    return f"player {role.side}"


def match_bmab_set(
    *,
    match_id: int,
    actor: Actor,
    designated: bool | None = None,
    recorded: bool | None = None,
    clocked: bool | None = None,
    reason: str = "",
    xg_pr: Mapping[str, Decimal | float | str | None] | None = None,
) -> Match:
    """Set the BMAB flags given (``None``: unchanged) and the XG PRs (directors):
    ``xg_pr`` maps ``xg_pr1``/``xg_pr2`` to a PR, or ``None`` to take it off."""
    wanted = {"designated": designated, "recorded": recorded, "clocked": clocked}
    for name, value in wanted.items():
        if value is not None and not isinstance(value, bool):
            raise refuse(_("A flag is true or false."), code="invalid", field=name)
    reason = " ".join((reason or "").split())
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",), no_key=True)
            .select_related("event", "entry1", "entry2")
            .get(pk=match_id)
        )
        role = match_role(match=match, actor=actor)
        if match.is_bye:
            raise refuse(_("A bye is not played."), code="bye")
        played = match.games.filter(voided=False).exists()
        now = timezone.now().isoformat()
        marks = dict(match.bmab_marks or {})
        changed: list[str] = []
        for name, value in wanted.items():
            if value is None or value == getattr(match, name):
                continue
            if name == "designated" and played:
                if not role.director:
                    raise NotAllowed(
                        _(
                            "A match is designated before its first game; after it, only a "
                            "director can (with a reason)."
                        )
                    )
                if not reason:
                    raise refuse(
                        _("Give the reason for designating a match already under way."),
                        code="reason-needed",
                        field="reason",
                    )
            if name != "designated" and match.status == Match.Status.COMPLETE and not role.director:
                raise NotAllowed(_("The match is complete: only a director can change this."))
            setattr(match, name, value)
            marks[name] = {"value": value, "by": _who(actor, role), "at": now, "reason": reason}
            changed.append(name)
        if xg_pr:
            if not role.director:
                raise NotAllowed(_("Only a director enters the XG PR."))
            for name, raw in xg_pr.items():
                if name not in ("xg_pr1", "xg_pr2"):
                    raise refuse(
                        _("Unknown PR {name}.").format(name=repr(name)), code="invalid", field=name
                    )
                setattr(match, name, None if raw is None else _pr(raw, name))
                changed.append(name)
            marks["xg_pr"] = {"by": _who(actor, role), "at": now}
        if changed:
            match.bmab_marks = marks
            match.save(update_fields=[*changed, "bmab_marks", "updated_at"])
            announce_match_changed(match.pk, match.event_id)
    return match


def _pr(raw: Decimal | float | str, field: str) -> Decimal:
    try:
        value = Decimal(str(raw))
    except (InvalidOperation, ValueError):
        value = Decimal("NaN")
    if isinstance(raw, bool) or not value.is_finite() or not 0 <= value <= MAX_PR:
        raise refuse(
            _("A PR is a number from 0 to {max}.").format(max=MAX_PR), code="invalid", field=field
        )
    return value.quantize(Decimal("0.01"))
