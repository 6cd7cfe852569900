"""Side pools: an optional extra stake in an event with its own payout split, entered
per player (the players who put it in share it by their final places among themselves)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _

from matches.errors import refuse
from tournament import page_cache
from tournament.models import Entry, Event, SidePool, User
from tournament.services.common import integrity_as
from tournament.services.events import check_payout_split


def _stake(stake: object) -> Decimal:
    try:
        value = Decimal(str(stake))
    except (InvalidOperation, ValueError):
        value = Decimal("NaN")
    if not value.is_finite() or not 0 < value < 10**7:
        raise refuse(_("A stake is above 0, below 10,000,000."), code="invalid", field="stake")
    return value.quantize(Decimal("0.01"))


def side_pool_create(
    *,
    event: Event,
    name: str,
    stake: Decimal,
    payout_split: Sequence[float],
    entry_ids: Iterable[int] = (),
    by: User | None = None,
) -> SidePool:
    """Add a side pool to ``event`` (any time: its prizes are worked out at the end), with
    its players ``entry_ids`` (entries of the event) if given: one step, all or nothing."""
    name = " ".join((name or "").split())
    if not name or len(name) > 60:
        raise refuse(
            _("A side pool needs a name of up to 60 characters."), code="invalid", field="name"
        )
    split = check_payout_split(payout_split)
    if not split:
        raise refuse(
            _("Give the side pool's split, e.g. 70, 30."), code="invalid", field="payout_split"
        )
    stake_ = _stake(stake)
    ids = list(entry_ids)
    with transaction.atomic():
        with integrity_as(
            _("{event} already has a side pool {name}.").format(event=event.name, name=name),
            code="name-taken",
            field="name",
        ):
            pool = SidePool.objects.create(event=event, name=name, stake=stake_, payout_split=split)
        if ids:
            side_pool_set_entries(pool=pool, entry_ids=ids, by=by)
        page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    return pool


def side_pool_set_entries(
    *, pool: SidePool, entry_ids: Iterable[int], by: User | None = None
) -> SidePool:
    """The players in ``pool``: exactly the entries ``entry_ids`` of its event."""
    ids = {int(i) for i in entry_ids}
    with transaction.atomic():
        found = set(
            Entry.objects.filter(event_id=pool.event_id, pk__in=ids).values_list("pk", flat=True)
        )
        if missing := sorted(ids - found):
            raise refuse(
                _("No such entry in this event: {join_map_str_missing}.").format(
                    join_map_str_missing=", ".join(map(str, missing))
                ),
                code="invalid",
                field="entries",
            )
        pool.entries.set(found)
        page_cache.invalidate_event_on_commit(pool.event_id, pool.event.tournament_id)
    return pool


def side_pool_delete(*, pool: SidePool, by: User | None = None) -> None:
    """Remove a side pool."""
    event = pool.event
    pool.delete()
    page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
