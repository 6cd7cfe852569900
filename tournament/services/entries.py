"""Entries: registration and check-in of players in an event (withdrawals: ``withdrawals``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import Invalid, refuse
from tournament.models import Entry, Event, Player, Round, User
from tournament.services.player_links import player_link_ensure


def _check_open_for_entries(event: Event) -> Round | None:
    """Refuse entries the event can no longer take; return a Swiss round to re-pair, if any."""
    if event.feeds_from is not None:
        raise refuse(
            _(
                "{event_name} is filled by the losers of "
                "{event_feeds_from_name}; players cannot enter it directly."
            ).format(event_name=event.name, event_feeds_from_name=event.feeds_from.name),
            code="fed-event",
        )
    if event.status == Event.Status.REGISTRATION:
        return None
    if event.status == Event.Status.FINISHED:
        raise refuse(
            _("{event_name} is finished.").format(event_name=event.name), code="event-finished"
        )
    if not event.is_swiss:
        raise refuse(
            _("{event_name} is already drawn: late entries are only taken in Swiss events.").format(
                event_name=event.name
            ),
            code="event-drawn",
        )
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.status == Round.Status.STARTED:
        raise refuse(
            _(
                "{latest} of {event_name} has started: late entries join "
                "before the next round is paired."
            ).format(latest=latest, event_name=event.name),
            code="round-started",
        )
    return latest if latest is not None and latest.status == Round.Status.PENDING else None


def _check_may_take(player: Player, by: User | None) -> None:
    """A player no tournament holds yet is the record of the director who made it (and
    staff's): another director entering it is refused as if there were no such player
    (they would become a director of its every tournament, its email theirs to change)."""
    if by is None or by.is_staff or by.is_superuser:
        return
    maker = Player.objects.filter(pk=player.pk).values_list("created_by_id", flat=True).first()
    if maker in (None, by.pk) or Entry.objects.filter(player=player).exists():
        return
    raise Invalid(_("No such player."), code="not-found", status=404, field="player")


#: The highest seed (the API's bound too): a field is never that big, and the column holds it.
MAX_SEED = 100_000


def entry_register(
    *, event: Event, player: Player, seed: int | None = None, by: User | None = None
) -> Entry:
    """Enter ``player`` in ``event``.

    Before the draw in any event; in a Swiss event also later, while no round is in
    play: a round already paired but not started is paired again with the newcomer.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
        raise refuse(_("A seed is a whole number from 1."), code="invalid", field="seed")
    if seed is not None and seed > MAX_SEED:
        raise refuse(
            _("A seed is a whole number from 1 to {most}.").format(most=MAX_SEED),
            code="invalid",
            field="seed",
        )
    with transaction.atomic():
        event = (
            Event.objects.select_for_update(of=("self",), no_key=True)
            .select_related("feeds_from")
            .get(pk=event.pk)
        )
        repair = _check_open_for_entries(event)
        _check_may_take(player, by)
        existing = Entry.objects.filter(event=event, player=player).order_by("pk").first()
        if existing is not None and existing.status != Entry.Status.WITHDRAWN:
            raise refuse(
                _("{player} is already entered in {event_name}.").format(
                    player=player, event_name=event.name
                ),
                code="already-entered",
                field="player",
            )
        if seed is not None and event.entries.filter(seed=seed).exclude(player=player).exists():
            raise refuse(
                _("Seed {seed} is already given in {event_name}.").format(
                    seed=seed, event_name=event.name
                ),
                code="seed-taken",
                field="seed",
            )
        if existing is not None:
            existing.status = Entry.Status.REGISTERED
            existing.seed = seed
            existing.save(update_fields=["status", "seed"])
            entry = existing
        else:
            entry = Entry.objects.create(event=event, player=player, seed=seed)
        player_link_ensure(tournament_id=event.tournament_id, player_id=player.pk)
        if repair is not None:
            from tournament.services.rounds import swiss_round_repair

            swiss_round_repair(round_=repair)
    return entry


def entry_check_in(*, entry: Entry, by: User | None = None) -> Entry:
    """Mark a registered player as present."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update(no_key=True).get(pk=entry.pk)
        if entry.status == Entry.Status.CHECKED_IN:
            return entry
        if entry.status != Entry.Status.REGISTERED:
            raise refuse(
                _(
                    "{entry_player} is {entry_get_status_display_lower}: only "
                    "registered players check in."
                ).format(
                    entry_player=entry.player,
                    entry_get_status_display_lower=entry.status_in_text(),
                ),
                code="not-registered",
            )
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["status", "checked_in_at"])
    return entry
