"""Withdrawals: a player leaves an event (their open matches walked over) and, while
nobody has played on in their place, comes back."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, OwnMatch, own_match_refuse
from matches.errors import Invalid, refuse
from matches.models import Match, Submission
from matches.services.decisions import match_decide_without_play, system_role
from matches.services.ledger import submission_reject
from tournament.models import Entry, Event, Round, User
from tournament.selectors.withdrawals import (
    EVENT_FINISHED,
    NOT_WITHDRAWN,
    PLACE_GIVEN_AWAY,
    withdrawal_undo_blocker,
)
from tournament.services.common import ACTIVE, event_lock
from tournament.services.waiting_list import waiting_promote
from tournament.signals import announce_notices_stale


def entry_withdraw(
    *, entry: Entry, reason: str = "", by: User | None = None, meta: RequestMeta | None = None
) -> Entry:
    """Withdraw a player. Before the draw they are simply left out; after it, the opponent
    of each of their undecided matches wins by walkover (now, or when the opponent is
    known), and a Swiss event stops pairing them.

    Each walkover is a director's decision through the matches app's one writer (a
    stored submission). A director who plays in such a match may not hand it to
    themselves by withdrawing their opponent (403 ``own-match``): nothing changes, and
    the refused walkover is kept as a rejected submission, as with any own-match attempt.
    """
    meta = meta or RequestMeta()
    refusal: OwnMatch | None = None
    with transaction.atomic():
        event_lock(entry.event_id)  # before the entry and its matches (see event_lock)
        entry = (
            Entry.objects.select_for_update(of=("self",), no_key=True)
            .select_related("event", "player")
            .get(pk=entry.pk)
        )
        if entry.status == Entry.Status.WITHDRAWN:
            return entry
        if entry.status in (Entry.Status.WAITING, Entry.Status.PENDING):
            entry.withdrawn_from = entry.status
            entry.status = Entry.Status.WITHDRAWN  # held no place: nothing else changes
            entry.waiting_since = None
            entry.save(update_fields=["status", "waiting_since", "withdrawn_from"])
            return entry
        if entry.status not in ACTIVE:
            raise refuse(
                _("{entry_player} is already out of {entry_event_name}.").format(
                    entry_player=entry.player, entry_event_name=entry.event.name
                ),
                code="not-active",
            )
        if entry.event.status == Event.Status.FINISHED:
            raise refuse(
                _("{entry_event_name} is finished: nobody can withdraw from it any more.").format(
                    entry_event_name=entry.event.name
                ),
                code="event-finished",
            )
        open_matches = (
            Match.objects.select_for_update(no_key=True)
            .filter(Q(entry1=entry) | Q(entry2=entry))
            .order_by("pk")
            .exclude(status=Match.Status.COMPLETE)
        )
        if entry.event.is_swiss:
            # A Swiss round not started yet is paired again without them below.
            open_matches = open_matches.exclude(round__status=Round.Status.PENDING)
        walkovers = []
        for match in open_matches:
            opponent = match.entry2_id if match.entry1_id == entry.pk else match.entry1_id
            if opponent is not None:  # else decided by walkover when the opponent arrives
                walkovers.append((match, opponent))
        why = f"{entry.player} withdrew" + (f": {reason}" if reason else "")
        actor = Actor(user=by) if by is not None and by.is_authenticated else Actor()
        refusal = _own_walkovers_refuse(entry, walkovers, actor=actor, meta=meta, reason=why)
        if refusal is None:
            entry.withdrawn_from = entry.status
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status", "withdrawn_from"])
            if entry.event.status == Event.Status.REGISTRATION:
                waiting_promote(event=entry.event)  # the first on the list takes the place
            for match, opponent in walkovers:
                match_decide_without_play(
                    match_id=match.pk,
                    actor=actor,
                    meta=meta,
                    winner_entry_id=opponent,
                    decision=Match.Decision.WALKOVER,
                    reason=why,
                    role_of=system_role,  # checked above, before anything changed
                )
            if walkovers:  # their opponents were told of a match that will not be played
                announce_notices_stale([entry.event_id])
            if entry.event.is_swiss:
                pending = entry.event.rounds.filter(status=Round.Status.PENDING).order_by("-number")
                latest = pending.first()
                if latest is not None:
                    from tournament.services.rounds import swiss_round_repair

                    swiss_round_repair(round_=latest)
    if refusal is not None:
        raise refusal  # after the commit: the refused walkovers stay recorded
    return entry


def _own_walkovers_refuse(
    entry: Entry,
    walkovers: list[tuple[Match, int]],
    *,
    actor: Actor,
    meta: RequestMeta,
    reason: str,
) -> OwnMatch | None:
    """Refuse the walkovers a withdrawal would hand to the acting director (who plays
    the withdrawn player): each is stored as a rejected submission. The refusal, if any.

    Withdrawing oneself is no such case: the match goes to the opponent."""
    user = actor.user
    if user is None or entry.player.user_id == user.pk:
        return None
    refusal = None
    for match, opponent in walkovers:
        try:
            own_match_refuse(match=match, user=user)
        except OwnMatch as exc:
            refusal = exc
            submission_reject(
                match_id=match.pk,
                kind=Submission.Kind.FORFEIT,
                actor=actor,
                meta=meta,
                payload={
                    "decision": Match.Decision.WALKOVER,
                    "winner_entry": opponent,
                    "reason": reason,
                },
                error=exc,
                role_of=system_role,
            )
    return refusal


def entry_withdraw_undo(*, entry: Entry, by: User | None = None) -> Entry:
    """Take back a withdrawal (a mistaken click, a player who turns up after all): the
    entry returns to registered or checked in, as it was.

    A match the withdrawal gave to their opponent by walkover is reopened (ready to play)
    while that opponent has not played on; refused (``place-given-away``) once they have,
    and in a finished event. A Swiss round not started yet is paired again with them.
    """
    from tournament.services.advance import entry_reactivate_status
    from tournament.services.results import match_reopen_decision

    with transaction.atomic():
        # The event first, then the entry (see event_lock): the Swiss repair below locks
        # the event, and taking it after the entry deadlocks against a withdrawal.
        event_lock(entry.event_id)
        entry = (
            Entry.objects.select_for_update(of=("self",), no_key=True)
            .select_related("event", "player")
            .get(pk=entry.pk)
        )
        event = entry.event
        blocker = withdrawal_undo_blocker(entry)
        if blocker == NOT_WITHDRAWN:
            raise refuse(
                _("{entry_player} is not withdrawn.").format(entry_player=entry.player),
                code=blocker,
            )
        if blocker == EVENT_FINISHED:
            raise refuse(
                _("{event_name} is finished: the withdrawal stays.").format(event_name=event.name),
                code=blocker,
            )
        if blocker == PLACE_GIVEN_AWAY:  # drawn without them: no walkover of theirs either
            raise refuse(
                _(
                    "{event_name} was drawn without {entry_player}: there is no "
                    "place in the bracket to give back."
                ).format(event_name=event.name, entry_player=entry.player),
                code=blocker,
            )
        given_away = list(
            Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
            .filter(status=Match.Status.COMPLETE, decision=Match.Decision.WALKOVER)
            .exclude(winner=entry)
            .select_related("round", "winner__player")
            .order_by("round__number", "pk")
        )
        for match in given_away:
            # Every walkover the withdrawal gave is taken back, and with it every move it
            # caused (the winner's next matches while only ready at 0-0 or decided by a
            # further walkover, the Consolation line it left empty), in this one
            # transaction; refused, naming the match, once one of them was really played.
            try:
                match_reopen_decision(
                    match=match, reason=f"{entry.player} is back: withdrawal undone", by=by
                )
            except Invalid as exc:
                if exc.code != "next-match-started":
                    raise
                raise _played_on(entry, match, exc.detail.get("match")) from None
        entry.status = entry_reactivate_status(entry)
        entry.save(update_fields=["status"])
        if event.is_swiss:
            pending = event.rounds.filter(status=Round.Status.PENDING).order_by("-number").first()
            if pending is not None:
                from tournament.services.rounds import swiss_round_repair

                swiss_round_repair(round_=pending)
    return entry


def _played_on(entry: Entry, walkover: Match, blocker_id: int | None) -> Invalid:
    """The refusal of an undo: which match, played since, stands in the way, and what to do."""
    blocker = (
        Match.objects.select_related("round", "event").filter(pk=blocker_id).first()
        if blocker_id is not None
        else None
    ) or walkover
    return refuse(
        _(
            "{player}'s withdrawal cannot be undone: {round} of {event_name} (match "
            "{blocker}), which the walkover of match {walkover} led to, has been played "
            "since. Correct match {blocker} first (reopen or correct its result, with the "
            "cascade if it has moved on), then undo the withdrawal again; or leave the "
            "withdrawal as it is."
        ).format(
            player=entry.player,
            round=blocker.round,
            event_name=blocker.event.name,
            blocker=blocker.pk,
            walkover=walkover.pk,
        ),
        code="place-given-away",
        match=blocker.pk,
        walkover=walkover.pk,
    )
