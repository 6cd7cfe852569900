"""An event's settings after its creation: which may still change, and the change itself.

Before the draw a director may change anything but the slug (the address of its
pages). The draw lays out the matches from the format, the Crawford and Holland
rules, the feed and (Swiss) the tie-breaks, so those are fixed from then on; a
finished event keeps its lengths, clock, rounds and deadline rule too. Its name,
entry fee and payouts may change at any time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.errors import refuse
from tournament import page_cache
from tournament.models import Event
from tournament.services.auto_start import event_matches_start_ready
from tournament.services.common import event_lock
from tournament.services.events import (
    check_tiebreaks,
    derived_kind,
    pending_rounds_relength,
    spec_relations,
    spec_values,
)
from tournament.services.payments import fees_collected
from tournament.services.rounds import league_finish_if_done

#: A parameter of ``event_update`` left as it is.
KEEP: Any = object()


def event_locked_settings(event: Event) -> dict[str, str]:
    """The settings of ``event`` that can no longer change, each with the reason (in the
    active language).

    Keys are the model's field names; ``event_update`` refuses a new value for any of them.
    """
    drawn = _("The draw laid out the matches with it.")
    locked: dict[str, str] = {}
    if event.status != Event.Status.REGISTRATION:
        feed = (
            _("The Consolation was laid out from this feed at its Main's draw.")
            if event.feeds_from_id
            else _("A drawn event cannot become a Consolation.")
        )
        same_rule = _("{drawn} The drawn matches are played under this rule.").format(drawn=drawn)
        locked |= {
            "format": _("{drawn} A bracket cannot change format once drawn.").format(drawn=drawn),
            "kind": _("The draw placed the event beside its Main on the public pages."),
            "crawford": same_rule,
            "holland": same_rule,
            "feeds_from": feed,
            "feed_rounds": feed,
            "tiebreaks": _("The standings (and Swiss pairings) already rank by them."),
        }
    else:
        feeds = [other.name for other in event.feeds.all()]
        if feeds:
            fed = ", ".join(feeds)
            locked["format"] = _(
                "The losers of this event feed {events}: a feeding event is single elimination."
            ).format(events=fed)
            locked["feeds_from"] = _("This event feeds {events}; it cannot be fed itself.").format(
                events=fed
            )
            locked["feed_rounds"] = locked["feeds_from"]
    if event.format != Event.Format.SWISS and event.status != Event.Status.REGISTRATION:
        locked["rounds_planned"] = _("Only a Swiss event has a set number of rounds.")
    if event.status != Event.Status.REGISTRATION:
        locked["losses_to_eliminate"] = _(
            "{drawn} Players are already out at this many losses."
        ).format(drawn=drawn)
        locked["avoid_same_club_first_round"] = _("Round 1 is paired.")
    if event.playoff or event.status == Event.Status.FINISHED:
        reason = (
            _("The event is finished.")
            if event.status == Event.Status.FINISHED
            else _("The playoff has begun.")
        )
        locked["three_player_playoff"] = reason
        locked["wisconsin_after_rounds"] = reason
    if event.status == Event.Status.FINISHED:
        for name in ("match_lengths", "clock", "rounds_planned", "deadline_rule"):
            locked[name] = _("The event is finished.")
    if fees_collected(event):
        locked["entry_fee"] = _(
            "Fees were collected at this amount: mark those entries unpaid to change it."
        )
    return locked


#: What a refusal calls each setting.
LABELS = {
    "name": gettext_lazy("The name"),
    "kind": gettext_lazy("The kind"),
    "format": gettext_lazy("The format"),
    "match_lengths": gettext_lazy("The match lengths"),
    "crawford": gettext_lazy("The Crawford rule"),
    "holland": gettext_lazy("The Holland rule"),
    "rounds_planned": gettext_lazy("The number of rounds"),
    "feeds_from": gettext_lazy("The feeding event"),
    "feed_rounds": gettext_lazy("The feeding rounds"),
    "clock": gettext_lazy("The clock"),
    "tiebreaks": gettext_lazy("The tie-breaks"),
    "entry_fee": gettext_lazy("The entry fee"),
    "payout_split": gettext_lazy("The payout split"),
    "deadline_rule": gettext_lazy("The deadline rule"),
    "start_matches": gettext_lazy("When matches start"),
    "signup": gettext_lazy("Sign-up"),
    "signup_deadline": gettext_lazy("The sign-up deadline"),
    "entry_cap": gettext_lazy("The entry cap"),
    "added_money": gettext_lazy("The added money"),
    "prize_unit": gettext_lazy("The prize rounding"),
    "losses_to_eliminate": gettext_lazy("The losses to eliminate"),
    "places_paid": gettext_lazy("The places paid"),
    "playoff_switch": gettext_lazy("The playoff switch"),
    "last_loss_cashes": gettext_lazy("Cashing on the last loss"),
    "avoid_same_club_first_round": gettext_lazy("Keeping clubs apart in round 1"),
    "three_player_playoff": gettext_lazy("The three-player playoff"),
    "wisconsin_after_rounds": gettext_lazy("The Wisconsin ending"),
}


def event_update(
    *,
    event: Event,
    name: str = KEEP,
    kind: str | None = KEEP,
    format: str = KEEP,
    match_lengths: Sequence[int] = KEEP,
    crawford: bool = KEEP,
    holland: bool = KEEP,
    rounds: int | None = KEEP,
    feeds_from: Event | None = KEEP,
    feed_rounds: Sequence[int] = KEEP,
    clock: Sequence[dict[str, Any]] = KEEP,
    tiebreaks: Sequence[str] = KEEP,
    entry_fee: Decimal | None = KEEP,
    payout_split: Sequence[float] = KEEP,
    deadline_rule: str = KEEP,
    start_matches: str = KEEP,
    signup: str = KEEP,
    signup_deadline: datetime | None = KEEP,
    entry_cap: int | None = KEEP,
    added_money: Decimal = KEEP,
    prize_unit: int = KEEP,
    losses_to_eliminate: int = KEEP,
    places_paid: int | None = KEEP,
    playoff_switch: bool = KEEP,
    last_loss_cashes: bool = KEEP,
    avoid_same_club_first_round: bool = KEEP,
    three_player_playoff: bool = KEEP,
    wisconsin_after_rounds: int | None = KEEP,
) -> Event:
    """Change an event's settings; a parameter not given keeps its value.

    A new value for a setting the draw (or the event's end) fixed is refused, naming
    the field and the reason (``event_locked_settings``). New match lengths reach the
    rounds not started yet; a Swiss event cut to the rounds it has played finishes.
    Switching a drawn event to ``start_matches="auto"`` opens at once every match whose
    two players are known.
    """
    given = {
        "name": name,
        "kind": kind,
        "format": format,
        "match_lengths": match_lengths,
        "crawford": crawford,
        "holland": holland,
        "rounds_planned": rounds,
        "feeds_from": feeds_from,
        "feed_rounds": feed_rounds,
        "clock": clock,
        "tiebreaks": tiebreaks,
        "entry_fee": entry_fee,
        "payout_split": payout_split,
        "deadline_rule": deadline_rule,
        "start_matches": start_matches,
        "signup": signup,
        "signup_deadline": signup_deadline,
        "entry_cap": entry_cap,
        "added_money": added_money,
        "prize_unit": prize_unit,
        "losses_to_eliminate": losses_to_eliminate,
        "places_paid": places_paid,
        "playoff_switch": playoff_switch,
        "last_loss_cashes": last_loss_cashes,
        "avoid_same_club_first_round": avoid_same_club_first_round,
        "three_player_playoff": three_player_playoff,
        "wisconsin_after_rounds": wisconsin_after_rounds,
    }
    wanted = {field: value for field, value in given.items() if value is not KEEP}
    with transaction.atomic():
        source = wanted.get("feeds_from", event.feeds_from)
        if isinstance(source, Event):  # the Main first, in the order its draw locks them
            event_lock(source.pk)
        event_lock(event.pk)
        event = Event.objects.select_related("tournament", "feeds_from").get(pk=event.pk)
        new = spec_values(wanted, lambda: _kind_if_none(event, wanted))
        changed = {field: value for field, value in new.items() if value != _current(event, field)}
        locked = event_locked_settings(event)
        for field in changed:
            if field in locked:
                raise refuse(
                    _("{LABELS_field} cannot change now: {locked_field}").format(
                        LABELS_field=LABELS[field], locked_field=locked[field]
                    ),
                    code="setting-locked",
                    field=field,
                )
        if not changed:
            return event
        spec_relations(
            tournament=event.tournament,
            changed=changed,
            after=lambda field: changed[field] if field in changed else _current(event, field),
            event=event,
        )
        was_fed_by = event.feeds_from_id
        for field, value in changed.items():
            setattr(event, "feeds_from_id" if field == "feeds_from" else field, value)
        event.full_clean(exclude=["champion", "tournament", "feeds_from"])
        event.save(update_fields=list(changed))
        if "match_lengths" in changed:
            pending_rounds_relength(event)
        if "start_matches" in changed and event.status in (
            Event.Status.DRAWN,
            Event.Status.RUNNING,
        ):
            event_matches_start_ready(event=event, now=timezone.now())
        ends = {"rounds_planned", "places_paid", "playoff_switch", "three_player_playoff"}
        if ends & set(changed) and event.status == Event.Status.RUNNING:
            league_finish_if_done(event)  # the event may be over under its new settings
        if "entry_cap" in changed:  # a higher cap (or none) takes players off the list
            from tournament.services.waiting_list import waiting_promote

            waiting_promote(event=event)
        for event_id in {i for i in (event.pk, event.feeds_from_id, was_fed_by) if i is not None}:
            page_cache.invalidate_event_on_commit(event_id, event.tournament_id)
    return event


def _current(event: Event, field: str) -> object:
    if field == "feeds_from":
        return event.feeds_from_id
    if field == "tiebreaks":  # none stored means the default ones
        return check_tiebreaks(list(event.tiebreaks or []))
    value = getattr(event, field)
    return list(value) if isinstance(value, list | tuple) else value


def _kind_if_none(event: Event, wanted: dict[str, Any]) -> str:
    """The kind derived from the feed and format as they will be, as at creation."""
    return derived_kind(
        wanted.get("feeds_from", event.feeds_from), wanted.get("format", event.format)
    )
