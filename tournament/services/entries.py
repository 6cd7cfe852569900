"""Entries: registration, check-in and withdrawal of players in an event."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from matches.errors import Invalid, refuse
from matches.models import Match, Submission
from matches.services.access import Actor, OwnMatch, own_match_refuse
from matches.services.decisions import match_decide_without_play, system_role
from matches.services.ledger import RequestMeta, submission_reject
from tournament.models import Entry, Event, Player, Round, User
from tournament.services.common import ACTIVE, event_lock
from tournament.services.player_links import player_link_ensure
from tournament.services.waiting_list import waiting_promote


def _check_open_for_entries(event: Event) -> Round | None:
    """Refuse entries the event can no longer take; return a Swiss round to re-pair, if any."""
    if event.feeds_from is not None:
        raise refuse(
            f"{event.name} is filled by the losers of {event.feeds_from.name}; "
            "players cannot enter it directly.",
            code="fed-event",
        )
    if event.status == Event.Status.REGISTRATION:
        return None
    if event.status == Event.Status.FINISHED:
        raise refuse(f"{event.name} is finished.", code="event-finished")
    if event.format != Event.Format.SWISS:
        raise refuse(
            f"{event.name} is already drawn: late entries are only taken in Swiss events.",
            code="event-drawn",
        )
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.status == Round.Status.STARTED:
        raise refuse(
            f"{latest} of {event.name} has started: late entries join before the next round "
            "is paired.",
            code="round-started",
        )
    return latest if latest is not None and latest.status == Round.Status.PENDING else None


def entry_register(
    *, event: Event, player: Player, seed: int | None = None, by: User | None = None
) -> Entry:
    """Enter ``player`` in ``event``.

    Before the draw in any event; in a Swiss event also later, while no round is in
    play: a round already paired but not started is paired again with the newcomer.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
        raise refuse("A seed is a whole number from 1.", code="invalid", field="seed")
    with transaction.atomic():
        event = (
            Event.objects.select_for_update(of=("self",), no_key=True)
            .select_related("feeds_from")
            .get(pk=event.pk)
        )
        repair = _check_open_for_entries(event)
        existing = Entry.objects.filter(event=event, player=player).order_by("pk").first()
        if existing is not None and existing.status != Entry.Status.WITHDRAWN:
            raise refuse(
                f"{player} is already entered in {event.name}.",
                code="already-entered",
                field="player",
            )
        if seed is not None and event.entries.filter(seed=seed).exclude(player=player).exists():
            raise refuse(
                f"Seed {seed} is already given in {event.name}.", code="seed-taken", field="seed"
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
                f"{entry.player} is {entry.get_status_display().lower()}: only registered "
                "players check in.",
                code="not-registered",
            )
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["status", "checked_in_at"])
    return entry


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
            entry.status = Entry.Status.WITHDRAWN  # held no place: nothing else changes
            entry.waiting_since = None
            entry.save(update_fields=["status", "waiting_since"])
            return entry
        if entry.status not in ACTIVE:
            raise refuse(f"{entry.player} is already out of {entry.event.name}.", code="not-active")
        if entry.event.status == Event.Status.FINISHED:
            raise refuse(
                f"{entry.event.name} is finished: nobody can withdraw from it any more.",
                code="event-finished",
            )
        open_matches = (
            Match.objects.select_for_update(no_key=True)
            .filter(Q(entry1=entry) | Q(entry2=entry))
            .order_by("pk")
            .exclude(status=Match.Status.COMPLETE)
        )
        if entry.event.format == Event.Format.SWISS:
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
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])
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
            if entry.event.format == Event.Format.SWISS:
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
        if entry.status != Entry.Status.WITHDRAWN:
            raise refuse(f"{entry.player} is not withdrawn.", code="not-withdrawn")
        if event.status == Event.Status.FINISHED:
            raise refuse(f"{event.name} is finished: the withdrawal stays.", code="event-finished")
        given_away = list(
            Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
            .filter(status=Match.Status.COMPLETE, decision=Match.Decision.WALKOVER)
            .exclude(winner=entry)
            .select_related("round", "winner__player")
            .order_by("round__number", "pk")
        )
        for match in given_away:
            # The walkovers the withdrawal gave are taken back while each winner has not
            # played on: the match is ready to play again.
            try:
                match_reopen_decision(
                    match=match, reason=f"{entry.player} is back: withdrawal undone", by=by
                )
            except Invalid as exc:
                if exc.code != "next-match-started":
                    raise
                raise refuse(
                    f"{entry.player}'s place is already given away: {match.round} of "
                    f"{event.name} went to {match.winner.player if match.winner else 'their opponent'} "
                    "by walkover, who has played on since. Correct that match first if they "
                    "are to play it.",
                    code="place-given-away",
                    match=match.pk,
                ) from None
        seated = Match.objects.filter(Q(entry1=entry) | Q(entry2=entry)).exists()
        if (
            event.status != Event.Status.REGISTRATION
            and event.format != Event.Format.SWISS
            and not seated
        ):
            raise refuse(
                f"{event.name} was drawn without {entry.player}: there is no place in the "
                "bracket to give back.",
                code="place-given-away",
            )
        entry.status = entry_reactivate_status(entry)
        entry.save(update_fields=["status"])
        if event.format == Event.Format.SWISS:
            pending = event.rounds.filter(status=Round.Status.PENDING).order_by("-number").first()
            if pending is not None:
                from tournament.services.rounds import swiss_round_repair

                swiss_round_repair(round_=pending)
    return entry
