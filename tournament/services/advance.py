"""Moving a bracket on after a decided match, and taking such a move back for a correction.

``match_advance`` is what the ``advance_match`` task runs after a match completes:
the winner takes its line in the next match, the loser drops into the Consolation
(or the losers bracket) or is out, a lone player facing a bye goes through at once,
the final crowns the event's champion. It is idempotent: ``advanced_at`` is set in
the same transaction, under a row lock on the match.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor
from matches.errors import Conflict, Invalid, refuse
from matches.models import Game, Match
from matches.services.decisions import match_decide_without_play, match_reopen, system_role
from matches.signals import announce_match_changed
from tournament import outbox
from tournament.formats.feed_in import FromLoser, FromWinner
from tournament.formats.slots import MatchRef
from tournament.models import Entry, Event, Round
from tournament.selectors.brackets import Outcome, Router, Seat, feed_in
from tournament.services.auto_start import round_open, starts_each_match
from tournament.services.common import ACTIVE, event_lock
from tournament.services.player_links import player_link_ensure
from tournament.services.tables import opened_tables_on_commit
from tournament.signals import announce_matches_ready, announce_notices_stale

#: The match fields a walkover decided by the one writer changes (copied to the mover's row).
WALKOVER_FIELDS = (
    "winner_id",
    "decision",
    "status",
    "reported_by_id",
    "decided_at",
    "confirmed_at",
    "started_at",
    "updated_at",
)
LEAGUE_FORMATS = (Event.Format.SWISS, Event.Format.SWISS_ELIMINATION, Event.Format.ROUND_ROBIN)
IN_PLAY = (Match.Status.PLAYING, Match.Status.REPORTED, Match.Status.DISPUTED)


def match_advance(*, match_id: int) -> list[int]:
    """Move the bracket on after complete match ``match_id``; return the ids of matches
    that became ready. Running it again changes nothing and returns ``[]``."""
    event_id = (
        Match.objects.filter(pk=match_id).order_by().values_list("event_id", flat=True).first()
    )
    if event_id is None:
        return []
    with transaction.atomic():
        event_lock(event_id)  # before the match: see ``event_lock``
        match = (
            Match.objects.select_for_update(of=("self",), no_key=True)
            .select_related("round", "event")
            .filter(pk=match_id)
            .order_by()
            .first()
        )
        if match is None or match.status != Match.Status.COMPLETE or match.advanced_at:
            return []
        mover = BracketMover()
        mover.adopt(match.event)  # locked above by ``event_lock``
        mover.advance(match)
        mover.finish()
    return mover.ready


def matches_advance(*, match_ids: list[int]) -> list[int]:
    """Move the brackets on after many complete matches at once (the outbox's batch of
    ``advance_match``): per event, one transaction, one lock, one round check and one
    page bump. Idempotent like ``match_advance``; returns the ids of matches made ready."""
    by_event: dict[int, list[int]] = {}
    for match_id, event_id in (
        Match.objects.filter(pk__in=match_ids, status=Match.Status.COMPLETE, advanced_at=None)
        .order_by("pk")
        .values_list("pk", "event_id")
    ):
        by_event.setdefault(event_id, []).append(match_id)
    ready: list[int] = []
    for event_id, ids in sorted(by_event.items()):
        with transaction.atomic():
            event_lock(event_id)  # before the matches: see ``event_lock``
            matches = list(
                Match.objects.select_for_update(of=("self",), no_key=True)
                .select_related("round", "event")
                .filter(pk__in=ids, status=Match.Status.COMPLETE, advanced_at=None)
                .order_by("pk")
            )
            if not matches:
                continue
            mover = BracketMover()
            mover.adopt(matches[0].event)  # locked above by ``event_lock``
            league = matches[0].event.format in LEAGUE_FORMATS
            for match in matches:
                if not league:  # a move earlier in this pass may have settled it already
                    match.refresh_from_db(fields=["status", "advanced_at", "winner"])
                if match.status == Match.Status.COMPLETE and match.advanced_at is None:
                    mover.advance(match)
            mover.finish()
        ready += mover.ready
    return ready


def entry_reactivate_status(entry: Entry) -> str:
    """The status an entry returns to when a correction puts it back in play."""
    return Entry.Status.CHECKED_IN if entry.checked_in_at else Entry.Status.REGISTERED


class BracketMover:
    """One transaction's worth of bracket moves (the caller holds the transaction)."""

    def __init__(self, now: dt.datetime | None = None) -> None:
        self.now = now or timezone.now()
        self.ready: list[int] = []
        self._routers: dict[int, Router] = {}
        self._events: dict[int, Event] = {}
        self._rounds: set[int] = set()
        self._changed: dict[int, int] = {}
        self._advanced: dict[int, int] = {}
        self._taken_back: set[int] = set()

    # ---- lookups -------------------------------------------------------------------

    def event(self, event_id: int) -> Event:
        if event_id not in self._events:
            # Already locked with its family by the caller's ``event_lock``.
            self._events[event_id] = Event.objects.select_for_update(no_key=True).get(pk=event_id)
        return self._events[event_id]

    def adopt(self, event: Event) -> None:
        """Use ``event``, already locked by the caller, instead of fetching it again."""
        self._events.setdefault(event.pk, event)

    def router(self, event_id: int) -> Router:
        if event_id not in self._routers:
            self._routers[event_id] = Router(self.event(event_id))
        return self._routers[event_id]

    def outcome(self, match: Match) -> Outcome:
        position = 0 if match.winner_id == match.entry1_id else 1
        return self.router(match.event_id).outcome(
            bracket=match.round.bracket,
            round_number=match.round.number,
            slot=match.slot,
            winner_position=position,
        )

    def match_at(self, seat: Seat) -> Match:
        return (
            Match.objects.select_for_update(of=("self",), no_key=True)
            .select_related("round")
            .get(
                event_id=seat.event_id,
                round__bracket=seat.bracket,
                round__number=seat.round,
                slot=seat.slot,
            )
        )

    def changed(self, match: Match) -> None:
        self._changed.setdefault(match.event_id, match.pk)

    # ---- moving on -----------------------------------------------------------------

    def advance(self, match: Match) -> None:
        """Route the players of complete ``match`` (locked) and mark it advanced."""
        event = self.event(match.event_id)
        self._rounds.add(match.round_id)
        if match.winner_id is not None and event.format not in LEAGUE_FORMATS:
            outcome = self.outcome(match)
            loser_id = match.entry2_id if match.winner_id == match.entry1_id else match.entry1_id
            if outcome.winner_to is not None:
                self.seat(match.winner_id, outcome.winner_to)
            if loser_id is not None:
                if outcome.loser_out:
                    Entry.objects.filter(pk=loser_id, status__in=ACTIVE).update(
                        status=Entry.Status.ELIMINATED
                    )
                if outcome.loser_to is not None:
                    if self._withdrawn(loser_id):
                        # Out of every event of the feed: their line there is nobody's.
                        self.absent(outcome.loser_to)
                    else:
                        self.seat(
                            self.entry_in(outcome.loser_to.event_id, loser_id), outcome.loser_to
                        )
            for seat in outcome.void:
                self.void(self.match_at(seat))
            if outcome.champion:
                event.champion_id = match.winner_id
                event.status = Event.Status.FINISHED
                event.save(update_fields=["champion", "status"])
        match.advanced_at = self.now
        match.save(update_fields=["advanced_at", "updated_at"])
        self._advanced.setdefault(match.event_id, match.pk)
        if match.decision in (Match.Decision.WALKOVER, Match.Decision.FORFEIT):
            # Decided without (finishing) play: a "your next match" of it is off.
            self._taken_back.add(match.event_id)
        if event.format not in LEAGUE_FORMATS:
            # The bracket moved (a seat, an elimination, a champion): its pages changed
            # again. A league's match only got its mark: the result's own commit bumped
            # its pages already (``finish`` bumps them when the round closes).
            self.changed(match)

    @staticmethod
    def _withdrawn(entry_id: int) -> bool:
        return Entry.objects.filter(pk=entry_id, status=Entry.Status.WITHDRAWN).exists()

    # ---- lines nobody takes (a withdrawn player's place in a Consolation) -------------

    def _feed_line(self, event: Event, round_number: int, slot: int, position: int) -> object:
        structure = feed_in(self.router(event.pk).entrants, tuple(event.feed_rounds))
        fed = structure.match(MatchRef(round_number, slot))
        return fed.upper if position == 0 else fed.lower

    def line_absent(self, seat: Seat) -> bool:
        """Whether nobody will take line ``seat`` of a Consolation: a Main bye's, a Main
        loser's who withdrew, or the winner's of an earlier match here nobody plays."""
        event = self.event(seat.event_id)
        source = self._feed_line(event, seat.round, seat.slot, seat.position)
        if source is None:
            return True
        if isinstance(source, FromLoser):
            if event.feeds_from_id is None:
                return False
            main = (
                Match.objects.filter(
                    event_id=event.feeds_from_id,
                    round__bracket=Round.Bracket.MAIN,
                    round__number=source.match.round,
                    slot=source.match.index,
                )
                .only("entry1_id", "entry2_id", "winner_id", "status", "is_bye")
                .first()
            )
            if main is None or main.status != Match.Status.COMPLETE or main.winner_id is None:
                return False
            loser = main.entry2_id if main.winner_id == main.entry1_id else main.entry1_id
            return loser is None or self._withdrawn(loser)
        assert isinstance(source, FromWinner)
        earlier = self.match_at(
            Seat(event.pk, Round.Bracket.MAIN, source.match.round, source.match.index, 0)
        )
        return (
            earlier.status == Match.Status.COMPLETE and earlier.is_bye and earlier.winner_id is None
        )

    def absent(self, seat: Seat) -> None:
        """Nobody will take line ``seat`` (the Main loser it was for has withdrawn): its match
        becomes a bye for the other line's player (now, or when they arrive), or, when that
        line is nobody's either, a match nobody plays, whose own winner's line is then
        nobody's in turn. No entry is made for the withdrawn player, no walkover given."""
        target = self.match_at(seat)
        name = "entry1_id" if seat.position == 0 else "entry2_id"
        if getattr(target, name) is not None or target.status == Match.Status.COMPLETE:
            return
        other = target.entry2_id if seat.position == 0 else target.entry1_id
        other_seat = Seat(seat.event_id, seat.bracket, seat.round, seat.slot, 1 - seat.position)
        if other is None and self.line_absent(other_seat):
            self.void(target)
            onward = self.router(seat.event_id).outcome(
                bracket=seat.bracket, round_number=seat.round, slot=seat.slot, winner_position=0
            )
            if onward.winner_to is not None:
                self.absent(onward.winner_to)
            return
        if not target.is_bye:
            target.is_bye = True
            target.save(update_fields=["is_bye", "updated_at"])
            self.changed(target)
        self.settle(target)

    def present(self, seat: Seat, *, cascade: bool) -> None:
        """Line ``seat``, made nobody's by a withdrawal, will be taken after all (the
        withdrawal is undone): its match is a match again, or a bye in waiting for this
        line if the other is nobody's; what its bye moved on is taken back first."""
        target = self.match_at(seat)
        if not target.is_bye:
            return
        other_seat = Seat(seat.event_id, seat.bracket, seat.round, seat.slot, 1 - seat.position)
        if target.status == Match.Status.COMPLETE and target.winner_id is None:
            # Nobody's match: it waits for this line's player, a bye for them.
            target.status = Match.Status.PENDING
            target.advanced_at = None
            target.save(update_fields=["status", "advanced_at", "updated_at"])
            self._reopen_round(target.round)
            self.changed(target)
            onward = self.router(seat.event_id).outcome(
                bracket=seat.bracket, round_number=seat.round, slot=seat.slot, winner_position=0
            )
            if onward.winner_to is not None:
                self.present(onward.winner_to, cascade=cascade)
            return
        other = target.entry2_id if seat.position == 0 else target.entry1_id
        if other is None and self.line_absent(other_seat):
            return  # a bye in waiting for this line already
        blocker = self.blocking(target)
        if blocker is not None and not cascade:
            raise self.next_match_started(blocker)
        self.reopen(target, cascade=cascade)  # takes back what its bye moved on
        target.is_bye = False
        target.save(update_fields=["is_bye", "updated_at"])

    def entry_in(self, event_id: int, entry_id: int) -> int:
        """``entry_id``'s entry in event ``event_id``: itself, or the one a feed creates."""
        source = Entry.objects.select_related("player", "event").get(pk=entry_id)
        if source.event_id == event_id:
            return entry_id
        status = (
            Entry.Status.WITHDRAWN
            if source.status == Entry.Status.WITHDRAWN
            else entry_reactivate_status(source)
        )
        fed, created = Entry.objects.get_or_create(
            event_id=event_id,
            player=source.player,
            defaults={"status": status, "checked_in_at": source.checked_in_at},
        )
        if created:
            player_link_ensure(tournament_id=source.event.tournament_id, player_id=source.player_id)
        if not created and fed.status != status:
            fed.status = status
            fed.save(update_fields=["status"])
        return fed.pk

    def seat(self, entry_id: int, seat: Seat) -> Match:
        """Put ``entry_id`` on ``seat`` and settle that match (byes, walkovers, ready)."""
        target = self.match_at(seat)
        name = "entry1_id" if seat.position == 0 else "entry2_id"
        current = getattr(target, name)
        if current == entry_id:
            return target
        if current is not None or target.status == Match.Status.COMPLETE:
            raise Conflict(
                _(
                    "Match {target_pk} already has a player on that line; reload the bracket."
                ).format(target_pk=target.pk),
                code="slot-taken",
                match=target.pk,
            )
        setattr(target, name, entry_id)
        target.save(update_fields=[name.removesuffix("_id"), "updated_at"])
        self.changed(target)
        self.settle(target)
        return target

    def settle(self, target: Match) -> None:
        """A lone player facing a bye goes through; a withdrawn player gives a walkover;
        two players in a started round are ready."""
        if target.status == Match.Status.COMPLETE:
            return
        if target.is_bye:
            lone = target.entry1_id or target.entry2_id
            if lone is not None:
                self.decide(target, lone, Match.Decision.BYE)
            return
        if target.entry1_id is None or target.entry2_id is None:
            return
        withdrawn = set(
            Entry.objects.filter(
                pk__in=[target.entry1_id, target.entry2_id], status=Entry.Status.WITHDRAWN
            ).values_list("pk", flat=True)
        )
        if withdrawn:
            winner = target.entry2_id if target.entry1_id in withdrawn else target.entry1_id
            if winner in withdrawn:
                winner = target.entry1_id
            self.decide(target, winner, Match.Decision.WALKOVER)
            return
        if target.status != Match.Status.PENDING:
            return
        # The round's status read now, not with the match's lock: a row lock waited for
        # re-reads the locked row only, not the rows joined to it.
        target.round.status = (
            Round.objects.filter(pk=target.round_id).values_list("status", flat=True).get()
        )
        event = self.event(target.event_id)
        if target.round.status == Round.Status.PENDING and starts_each_match(event):
            round_open(round_=target.round, event=event, now=self.now)
        if target.round.status != Round.Status.PENDING:
            target.status = Match.Status.READY
            target.save(update_fields=["status", "updated_at"])
            self.ready.append(target.pk)

    def decide(self, match: Match, winner_id: int, decision: str) -> None:
        """Complete ``match`` without play and move on at once: a bye is the bracket's own
        (structural); a walkover is a decision on the match, stored by the matches app's
        one writer like a director's (the match is already locked, in the lock order)."""
        if decision == Match.Decision.WALKOVER:
            decided = match_decide_without_play(
                match_id=match.pk,
                actor=Actor(),
                meta=RequestMeta(),
                winner_entry_id=winner_id,
                decision=decision,
                reason="The opponent has withdrawn.",
                role_of=system_role,
            )
            for name in WALKOVER_FIELDS:
                setattr(match, name, getattr(decided, name))
            if match.pk in self.ready:
                self.ready.remove(match.pk)
            self.advance(match)
            # Advanced here, in the transaction that decided it: not again after the commit.
            outbox.drop(outbox.ADVANCE_TASK, match.pk)
            return
        match.winner_id = winner_id
        match.decision = decision
        match.status = Match.Status.COMPLETE
        match.decided_at = match.confirmed_at = self.now
        match.save(
            update_fields=[
                "winner",
                "decision",
                "status",
                "decided_at",
                "confirmed_at",
                "updated_at",
            ]
        )
        if match.pk in self.ready:
            self.ready.remove(match.pk)
        self.advance(match)

    def void(self, match: Match) -> None:
        """A match that will not be played (the unneeded grand-final reset)."""
        match.is_bye = True
        match.status = Match.Status.COMPLETE
        match.advanced_at = self.now
        match.save(update_fields=["is_bye", "status", "advanced_at", "updated_at"])
        self._rounds.add(match.round_id)
        self.changed(match)

    # ---- taking moves back (corrections) -------------------------------------------

    def blocking(self, match: Match) -> Match | None:
        """The match that makes re-seating ``match``'s players unsafe: ``match`` itself once
        it has started (games, or decided other than by a bye), or one further on that a
        bye carried its player to."""
        has_games = Game.objects.filter(match=match, voided=False).exists()
        if has_games or match.status in IN_PLAY:
            return match
        if match.status != Match.Status.COMPLETE:
            return None
        unplayed = match.is_bye or match.decision == Match.Decision.WALKOVER
        if not unplayed or match.winner_id is None:
            return match
        if match.advanced_at is None:
            return None
        outcome = self.outcome(match)
        if outcome.winner_to is None:
            return None
        return self.blocking(self.match_at(outcome.winner_to))

    def next_match_started(self, blocker: Match) -> Invalid:
        """The refusal of a move that would re-seat ``blocker``, which has started."""
        return refuse(
            _(
                "The next match ({round} of {event}, match {match}) has already started: "
                "correct it first, or cascade the change to void its results and re-seat it."
            ).format(
                round=blocker.round, event=self.event(blocker.event_id).name, match=blocker.pk
            ),
            code="next-match-started",
            match=blocker.pk,
        )

    def retract(self, match: Match, *, cascade: bool) -> None:
        """Take back what advancing ``match`` did (players seated further on, eliminations,
        a champion). Downstream matches that started are refused unless ``cascade``, which
        voids their games and reopens them."""
        if match.advanced_at is None or match.winner_id is None:
            match.advanced_at = None
            return
        event = self.event(match.event_id)
        if event.format not in LEAGUE_FORMATS:
            outcome = self.outcome(match)
            loser_id = match.entry2_id if match.winner_id == match.entry1_id else match.entry1_id
            for seat in (outcome.winner_to, outcome.loser_to if loser_id else None):
                if seat is not None:
                    self.unseat(seat, cascade=cascade)
            if loser_id is not None and outcome.loser_out:
                loser = Entry.objects.get(pk=loser_id)
                if loser.status == Entry.Status.ELIMINATED:
                    loser.status = entry_reactivate_status(loser)
                    loser.save(update_fields=["status"])
            for seat in outcome.void:
                self.unvoid(self.match_at(seat))
        if event.champion_id is not None and event.champion_id == match.winner_id:
            event.champion = None
            event.status = Event.Status.RUNNING
            event.save(update_fields=["champion", "status"])
        match.advanced_at = None
        match.save(update_fields=["advanced_at", "updated_at"])
        self._reopen_round(match.round)

    def unseat(self, seat: Seat, *, cascade: bool) -> None:
        """Empty ``seat``, reopening its match (refused once it started, unless ``cascade``)."""
        target = self.match_at(seat)
        name = "entry1_id" if seat.position == 0 else "entry2_id"
        entry_id = getattr(target, name)
        if entry_id is None:
            if target.is_bye and self.event(seat.event_id).feeds_from_id is not None:
                self.present(seat, cascade=cascade)
            return
        blocker = self.blocking(target)
        if blocker is not None and not cascade:
            raise self.next_match_started(blocker)
        self.reopen(target, cascade=cascade)
        self._taken_back.add(target.event_id)
        setattr(target, name, None)
        target.start_score1 = target.start_score2 = 0
        target.score1 = target.score2 = 0
        if target.status == Match.Status.READY:
            target.status = Match.Status.PENDING
        target.save()
        self.changed(target)
        if self.event(seat.event_id).feeds_from_id is not None and not self._seated_elsewhere(
            entry_id
        ):
            # A fed player taken back out of the Consolation was never in it: the entry
            # the feed made goes (a "withdrawn" one would be counted, listed in their
            # results and offer an undo that cannot work). Their voided reports, if a
            # cascade reopened a match they had played, keep the submission, unlinked.
            Entry.objects.filter(pk=entry_id).delete()

    def _seated_elsewhere(self, entry_id: int) -> bool:
        return Match.objects.filter(Q(entry1_id=entry_id) | Q(entry2_id=entry_id)).exists()

    def reopen(self, match: Match, *, cascade: bool) -> None:
        """Undo ``match``'s result: retract its moves, void its games, reset its score."""
        if match.status == Match.Status.COMPLETE:
            self.retract(match, cascade=cascade)
        both = match.entry1_id is not None and match.entry2_id is not None
        started = match.round.status != Round.Status.PENDING
        match_reopen(match, ready=both and started)
        self._taken_back.add(match.event_id)
        self.changed(match)

    def unvoid(self, match: Match) -> None:
        """Bring back a match that ``void`` set aside."""
        match.is_bye = False
        match.status = Match.Status.PENDING
        match.advanced_at = None
        match.save(update_fields=["is_bye", "status", "advanced_at", "updated_at"])
        self._reopen_round(match.round)
        self.changed(match)

    def _reopen_round(self, round_: Round) -> None:
        if round_.status == Round.Status.COMPLETE:
            round_.status = Round.Status.STARTED if round_.started_at else Round.Status.PENDING
            round_.save(update_fields=["status"])

    # ---- end of the transaction ----------------------------------------------------

    def finish(self) -> None:
        """Close rounds whose matches are all complete, finish leagues, announce changes."""
        from tournament.services.rounds import league_finish_if_done

        for round_ in (
            Round.objects.filter(pk__in=self._rounds)
            .order_by()
            .exclude(status=Round.Status.COMPLETE)
        ):
            if not round_.matches.exclude(status=Match.Status.COMPLETE).exists():
                round_.status = Round.Status.COMPLETE
                round_.save(update_fields=["status"])
                if round_.event_id in self._advanced:
                    self._changed.setdefault(round_.event_id, self._advanced[round_.event_id])
                event = self.event(round_.event_id)
                if event.format in LEAGUE_FORMATS:
                    league_finish_if_done(event)
        for event_id, match_id in self._changed.items():
            announce_match_changed(match_id, event_id)
        opened_tables_on_commit(self.ready)
        announce_matches_ready(self.ready)
        # A player taken out of a match (or a match taken back) may have been told of it:
        # every notice of those events that no longer holds gets its correction.
        announce_notices_stale(sorted(self._taken_back))
