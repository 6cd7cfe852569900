"""Forbidden pairings: two players a director keeps apart in an event.

In a Swiss, an elimination Swiss or a round robin an ``absolute`` pair is never paired
while a legal pairing exists (a round robin leaves its match out); an ``avoid`` pair
costs the pairing a penalty. In a bracket, round 1 is drawn as it falls: the page says
that brackets cannot keep anyone apart after it. Directors only see them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from matches.errors import refuse
from tournament import page_cache
from tournament.models import Entry, Event, ForbiddenPair, Round, User
from tournament.services.common import event_lock


def forbidden_pair_add(
    *,
    event: Event,
    players: Sequence[int],
    strength: str = ForbiddenPair.Strength.ABSOLUTE,
    rounds: str = ForbiddenPair.Rounds.ALL,
    by: User | None = None,
) -> ForbiddenPair:
    """Forbid (``absolute``) or avoid pairing two players of ``event`` (player ids), in
    round 1 only (``first``) or every round (``all``)."""
    if strength not in ForbiddenPair.Strength.values:
        raise refuse(_("The strength is absolute or avoid."), code="invalid", field="strength")
    if rounds not in ForbiddenPair.Rounds.values:
        raise refuse(_("The rounds are first or all."), code="invalid", field="rounds")
    if (
        len(players) != 2
        or any(isinstance(p, bool) or not isinstance(p, int) for p in players)
        or players[0] == players[1]
    ):
        raise refuse(_("Name two different players."), code="invalid", field="players")
    a, b = sorted(players)
    with transaction.atomic():
        event_lock(event.pk)
        event = Event.objects.get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise refuse(
                _("{event_name} is finished.").format(event_name=event.name), code="event-finished"
            )
        entered = set(
            Entry.objects.filter(event=event, player_id__in=[a, b])
            .exclude(status__in=[Entry.Status.WAITING, Entry.Status.PENDING])
            .values_list("player_id", flat=True)
        )
        missing = [p for p in (a, b) if p not in entered]
        if missing:
            raise refuse(
                _("Player(s) {missing} are not entered in {event_name}.").format(
                    missing=missing, event_name=event.name
                ),
                code="not-entered",
                field="players",
            )
        if rounds == ForbiddenPair.Rounds.FIRST and (
            event.rounds.exclude(status=Round.Status.PENDING).filter(number=1).exists()
        ):
            raise refuse(
                _(
                    "Round 1 of {event_name} has started: a round-1 prohibition comes too late."
                ).format(event_name=event.name),
                code="round-started",
                field="rounds",
            )
        try:
            with transaction.atomic():
                pair = ForbiddenPair.objects.create(
                    event=event,
                    player_a_id=a,
                    player_b_id=b,
                    strength=strength,
                    rounds=rounds,
                    created_by=by if by is not None and by.is_authenticated else None,
                )
        except IntegrityError:
            raise refuse(
                _("These two players are already kept apart in this event."),
                code="duplicate",
                field="players",
            ) from None
        page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    return pair


def forbidden_pair_remove(*, pair: ForbiddenPair, by: User | None = None) -> None:
    """Lift a prohibition for the rounds to come."""
    with transaction.atomic():
        event_lock(pair.event_id)
        ForbiddenPair.objects.filter(pk=pair.pk).delete()
