"""Rounds: start one, change its match length before it starts, pair the next Swiss or
round-robin round, and finish a league when its last round is complete."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import refuse
from matches.models import Match
from matches.signals import announce_match_changed
from tournament import pairing_log
from tournament.formats import elimination_playoff as playoffs
from tournament.formats import single_elimination
from tournament.formats import swiss_elimination as elimination
from tournament.formats.pairing import (
    NoLegalPairing,
    PairingResult,
    keep_apart_in_round_one,
    weighted_pairings,
)
from tournament.formats.slots import Pairing
from tournament.formats.swiss import SwissRound, swiss_pairings
from tournament.models import Entry, Event, ForbiddenPair, PairingNote, Round, User
from tournament.services.common import ACTIVE, event_lock, formats_errors
from tournament.services.events import MAX_LENGTH
from tournament.services.structure import Layout
from tournament.services.tables import round_tables_assign
from tournament.signals import announce_matches_ready

LEAGUE_FORMATS = (Event.Format.SWISS, Event.Format.SWISS_ELIMINATION, Event.Format.ROUND_ROBIN)


def _lock_round(round_: Round) -> Round:
    """The round row locked, after its event's (see ``event_lock``)."""
    event_lock(round_.event_id)
    return (
        Round.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")  # read after its lock above: current
        .get(pk=round_.pk)
    )


def round_start(*, round_: Round, by: User | None = None, tables: bool | None = None) -> Round:
    """Start a round: its matches with both players become ready.

    The event must be drawn; the round before it in the same bracket must have
    started. ``tables``: number the tables of its matches at once, in bracket order, so
    that each player's "your match is ready" notice names the table; ``None`` (the
    default): as the tournament does (it numbers tables once some match has had one).
    """
    with transaction.atomic():
        round_ = _lock_round(round_)
        event = round_.event
        if round_.status != Round.Status.PENDING:
            raise refuse(
                _("{round} has already started.").format(round=round_), code="round-started"
            )
        if event.status == Event.Status.REGISTRATION:
            raise refuse(
                _("{event_name} is not drawn yet.").format(event_name=event.name), code="not-drawn"
            )
        if event.status == Event.Status.FINISHED:
            raise refuse(
                _("{event_name} is finished.").format(event_name=event.name), code="event-finished"
            )
        previous = (
            event.rounds.filter(bracket=round_.bracket, number=round_.number - 1)
            .order_by("pk")
            .first()
        )
        if previous is not None and previous.status == Round.Status.PENDING:
            raise refuse(
                _("Start {previous} before {round}.").format(previous=previous, round=round_),
                code="previous-round-not-started",
            )
        _start(round_, event, tables=tables, by=by)
    return round_


def _start(
    round_: Round, event: Event, *, tables: bool | None = None, by: User | None = None
) -> list[int]:
    now = timezone.now()
    round_.status = Round.Status.STARTED
    round_.started_at = now
    round_.save(update_fields=["status", "started_at"])
    # Locked (ascending id, after the round): a match seated meanwhile is seen here, or
    # its seating sees this round started (both hold the event's lock: see event_lock).
    ready = list(
        round_.matches.select_for_update(no_key=True)
        .filter(
            status=Match.Status.PENDING, is_bye=False, entry1__isnull=False, entry2__isnull=False
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    Match.objects.filter(pk__in=ready).update(status=Match.Status.READY, updated_at=now)
    if tables is None:
        from tournament.selectors import numbers_tables

        tables = numbers_tables(event.tournament_id)
    if tables and ready:
        # Before the notices are written: each "your match is ready" names its table.
        round_tables_assign(round_=round_, by=by, tell=False)
    if not round_.matches.exclude(status=Match.Status.COMPLETE).exists():
        round_.status = Round.Status.COMPLETE
        round_.save(update_fields=["status"])
    if event.status == Event.Status.DRAWN:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    first = round_.matches.order_by("slot").values_list("pk", flat=True).first()
    if first is not None:
        announce_match_changed(first, event.pk)
    announce_matches_ready(ready)
    return ready


def round_length_set(*, round_: Round, length: int, by: User | None = None) -> Round:
    """Change a round's match length; allowed until the round starts."""
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_LENGTH:
        raise refuse(
            _("A match length is a whole number of points from 1 to {MAX_LENGTH}.").format(
                MAX_LENGTH=MAX_LENGTH
            ),
            code="invalid",
            field="match_length",
        )
    with transaction.atomic():
        round_ = _lock_round(round_)
        if round_.status != Round.Status.PENDING:
            raise refuse(
                _("{round} has started: its match length can no longer change.").format(
                    round=round_
                ),
                code="round-started",
                field="match_length",
            )
        penalised = round_.matches.filter(
            Q(start_score1__gte=length) | Q(start_score2__gte=length)
        ).exists()
        if penalised:
            raise refuse(
                _("A match of {round} already starts at {length} points or more.").format(
                    round=round_, length=length
                ),
                code="invalid",
                field="match_length",
            )
        round_.match_length = length
        round_.save(update_fields=["match_length"])
        round_.matches.update(length=length)
        first = round_.matches.order_by("slot").values_list("pk", flat=True).first()
        if first is not None:
            announce_match_changed(first, round_.event_id)
    return round_


def event_next_round(
    *,
    event: Event,
    by: User | None = None,
    tables: bool | None = None,
    relax: Sequence[int] = (),
    keep: Sequence[int] = (),
    progress: Callable[[str], None] | None = None,
) -> Round:
    """Pair (Swiss) or take (round robin) the next round, and start it (``tables``: as
    :func:`round_start`).

    ``relax``: ids of the event's forbidden pairs the director lifts for this round,
    when no pairing keeps them all (the refusal ``no-legal-pairing`` names them).
    ``keep`` (a Swiss elimination): ids of players who went out in the last round, kept
    one more round so that nobody has a bye (``swiss_next_round``)."""
    if event.is_swiss:
        return swiss_next_round(
            event=event, by=by, tables=tables, relax=relax, keep=keep, progress=progress
        )
    if keep:
        raise _keep_refused(event)
    if event.format == Event.Format.ROUND_ROBIN:
        return round_robin_next_round(event=event, by=by, tables=tables)
    raise refuse(
        _(
            "{event_name} is an elimination bracket: all its rounds exist; start them one by one."
        ).format(event_name=event.name),
        code="not-a-league",
    )


def _check_league_running(event: Event) -> Round | None:
    if event.status == Event.Status.REGISTRATION:
        raise refuse(
            _("{event_name} is not drawn yet.").format(event_name=event.name), code="not-drawn"
        )
    if event.status == Event.Status.FINISHED:
        raise refuse(
            _("{event_name} is finished.").format(event_name=event.name), code="event-finished"
        )
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.status == Round.Status.STARTED:
        open_count = latest.matches.exclude(status=Match.Status.COMPLETE).count()
        raise refuse(
            _("{latest} is still being played ({open_count} match(es) open).").format(
                latest=latest, open_count=open_count
            ),
            code="round-in-progress",
        )
    return latest


def swiss_next_round(
    *,
    event: Event,
    by: User | None = None,
    tables: bool | None = None,
    relax: Sequence[int] = (),
    keep: Sequence[int] = (),
    progress: Callable[[str], None] | None = None,
) -> Round:
    """Start the paired round, or pair the next one by score and start it.

    A Swiss elimination goes on to its playoff when ``next_stage`` says so (the
    three-player playoff, the Wisconsin knockout), then plays that a round at a time.
    ``keep``: player ids of those out in the last Swiss round whom the director keeps
    one more round, to fill an odd field so that nobody has a bye (they stay out: their
    result counts for their place among those out in the same round, and for their
    opponent's record)."""
    with transaction.atomic():
        event_lock(event.pk)
        event = Event.objects.get(pk=event.pk)
        latest = _check_league_running(event)
        if keep and not event.is_elimination_swiss:
            raise _keep_refused(event)
        if latest is not None and latest.status == Round.Status.PENDING:
            if keep:
                raise _keep_refused(event)
            _start(latest, event, tables=tables, by=by)
            return latest
        number = (latest.number if latest else 0) + 1
        if event.is_elimination_swiss:
            round_ = _elimination_next(
                event, number, relax=relax, keep=keep, by=by, progress=progress
            )
        else:
            if event.rounds_planned and number > event.rounds_planned:
                raise refuse(
                    _("{event_name} has its {event_rounds_planned} rounds.").format(
                        event_name=event.name, event_rounds_planned=event.rounds_planned
                    ),
                    code="no-more-rounds",
                )
            round_ = swiss_pair_round(
                event=event, number=number, relax=relax, by=by, progress=progress
            )
        _start(round_, event, tables=tables, by=by)
    return round_


def _switch(event: Event) -> int | None:
    """The places paid when the playoff switch ends the event there."""
    return event.places_paid if event.playoff_switch and event.places_paid else None


def _keep_refused(event: Event) -> Exception:
    return refuse(
        _("Only a Swiss elimination keeps players one more round, between its Swiss rounds."),
        code="invalid",
        field="keep",
    )


def _elimination_next(
    event: Event,
    number: int,
    *,
    relax: Sequence[int],
    keep: Sequence[int],
    by: User | None,
    progress: Callable[[str], None] | None,
) -> Round:
    """Round ``number`` of an elimination Swiss: the playoff's next round once it has
    begun, else what ``next_stage`` says (caller holds the transaction and the lock)."""
    from tournament.selectors import elimination_state, swiss_state

    state = elimination_state(event)
    if event.playoff:
        if keep:
            raise _keep_refused(event)
        kind, seeds = event.playoff["kind"], list(event.playoff["seeds"])
        with formats_errors():
            pairings = playoffs.playoff_next(kind, seeds, state.playoff_winners)
        if pairings is None:
            raise refuse(
                _("{event_name} is over: its playoff is decided.").format(event_name=event.name),
                code="no-more-rounds",
            )
        stage_number = len(state.playoff_winners) + 1
        return _lay_out_playoff(event, number, kind, seeds, stage_number, pairings)
    swiss_rounds = event.rounds.filter(bracket=Round.Bracket.MAIN).count()
    stage = elimination.next_stage(
        state.records,
        rounds_played=swiss_rounds,
        places_paid=_switch(event),
        three_player_playoff=event.three_player_playoff,
        wisconsin_after_rounds=event.wisconsin_after_rounds,
    )
    if stage == elimination.OVER:
        raise refuse(
            _("{event_name} is over: {alive} player(s) alive.").format(
                event_name=event.name, alive=elimination.alive_count(state.records)
            ),
            code="no-more-rounds",
        )
    if stage != elimination.SWISS:
        if keep:
            raise _keep_refused(event)
        ranked = swiss_state(event).ranked
        alive = [e for e in ranked if state.records[e].alive]
        if stage == playoffs.KNOCKOUT:
            losses = {e: state.records[e].losses for e in alive}
            wins = {e: state.records[e].wins for e in alive}
            alive = playoffs.knockout_seeds(alive, losses, wins)
        alive = _playoff_apart(event, stage, alive)
        event.playoff = {"kind": stage, "seeds": alive, "after_round": swiss_rounds}
        event.save(update_fields=["playoff"])
        PairingNote.objects.create(
            event=event,
            round_number=number,
            text=_PLAYOFF_NOTES[stage].format(after=swiss_rounds, players=len(alive)),
            by=by if by is not None and by.is_authenticated else None,
        )
        with formats_errors():
            first = playoffs.playoff_next(stage, alive, []) or []
        return _lay_out_playoff(event, number, stage, alive, 1, first)
    kept = _kept_entries(event, state.records, keep, swiss_rounds)
    return swiss_pair_round(
        event=event, number=number, relax=relax, keep=kept, by=by, progress=progress
    )


#: The public pairing log's line as a playoff begins.
_PLAYOFF_NOTES = {
    playoffs.THREE_PLAYER: "After round {after}: three players alive with identical records "
    "play the three-player playoff (the first two seeds meet; the loser meets the third; "
    "the two winners meet in the final).",
    playoffs.KNOCKOUT: "After round {after} (the Wisconsin ending): the {players} players "
    "alive play a knockout seeded by losses, the byes to the top seeds.",
}


def _playoff_apart(event: Event, kind: str, seeds: list[int]) -> list[int]:
    """The playoff's seeds with the event's forbidden pairs (of every round) kept out of
    its first round where it can: the three-player playoff takes the first two seeds
    who may meet; the knockout swaps seeds as a bracket's draw does. Its later rounds
    cannot keep anyone apart."""
    entry_of = dict(Entry.objects.filter(pk__in=seeds).values_list("player_id", "pk").order_by())
    apart = {
        frozenset((entry_of[a], entry_of[b]))
        for a, b in event.forbidden_pairs.filter(rounds=ForbiddenPair.Rounds.ALL).values_list(
            "player_a_id", "player_b_id"
        )
        if a in entry_of and b in entry_of
    }
    if not apart:
        return seeds
    if kind == playoffs.THREE_PLAYER:
        a, b, c = seeds
        for order in ([a, b, c], [a, c, b], [b, c, a]):
            if frozenset(order[:2]) not in apart:
                return order
        return seeds
    with formats_errors():
        return keep_apart_in_round_one(seeds, apart, single_elimination.first_round)[0]


def _kept_entries(
    event: Event,
    records: dict[int, elimination.EliminationRecord],
    keep: Sequence[int],
    swiss_rounds: int,
) -> list[int]:
    """The entries of the players ``keep`` names, checked: each went out in the last
    Swiss round and is still entered, and with them the field is even (no bye)."""
    if not keep:
        return []
    entries = dict(
        event.entries.filter(player_id__in=list(keep), status__in=ACTIVE)
        .values_list("player_id", "pk")
        .order_by()
    )
    wrong = [
        p
        for p in dict.fromkeys(keep)
        if p not in entries or records[entries[p]].eliminated_in_round != swiss_rounds
    ]
    if wrong:
        raise refuse(
            _(
                "Only players who went out in round {number} can be kept one more round; "
                "not player(s) {players}."
            ).format(number=swiss_rounds, players=wrong[:10]),
            code="invalid",
            field="keep",
        )
    alive = elimination.alive_count(records)
    kept = list(dict.fromkeys(entries[p] for p in keep))
    if alive % 2 == 0 or (alive + len(kept)) % 2:
        raise refuse(
            _(
                "Keeping {kept} player(s) with {alive} alive leaves a bye: keep players "
                "only to make an odd field even."
            ).format(kept=len(kept), alive=alive),
            code="invalid",
            field="keep",
        )
    return kept


def _lay_out_playoff(
    event: Event,
    number: int,
    kind: str,
    seeds: list[int],
    stage: int,
    pairings: Sequence[tuple[int | None, int | None]],
) -> Round:
    """Lay out ``pairings``, the playoff's round ``stage``, as the event's round
    ``number``: a player whose opponent is gone (withdrawn) has a bye."""
    gone = set(
        event.entries.filter(pk__in=seeds, status=Entry.Status.WITHDRAWN).values_list(
            "pk", flat=True
        )
    )
    layout = Layout(event, timezone.now())
    index = layout.round(
        bracket=Round.Bracket.PLAYOFF,
        number=number,
        name=playoffs.playoff_round_name(kind, seeds, stage),
        length=event.length_for_round(number),
    )
    for slot, pairing in enumerate(pairings):
        upper, lower = playoffs.decided_pairing(pairing, gone)
        if upper is not None and lower is not None:
            layout.match(index, slot, entry1_id=upper, entry2_id=lower)
        elif upper is not None:
            layout.bye(index, slot, upper)
        else:
            layout.void(index, slot)
    (round_,) = layout.save()
    return round_


def round_robin_next_round(
    *, event: Event, by: User | None = None, tables: bool | None = None
) -> Round:
    """Start the next round of the round-robin schedule."""
    with transaction.atomic():
        event_lock(event.pk)
        event = Event.objects.get(pk=event.pk)
        _check_league_running(event)
        round_ = event.rounds.filter(status=Round.Status.PENDING).order_by("number").first()
        if round_ is None:
            raise refuse(
                _("Every round of {event_name} has been played.").format(event_name=event.name),
                code="no-more-rounds",
            )
        _start(round_, event, tables=tables, by=by)
    return round_


def swiss_rounds_default(entrants: int) -> int:
    """Enough Swiss rounds for one unbeaten player: ceil(log2(entrants)), at least 1."""
    return max(1, math.ceil(math.log2(max(entrants, 2))))


def swiss_pair_round(
    *,
    event: Event,
    number: int,
    relax: Sequence[int] = (),
    keep: Sequence[int] = (),
    by: User | None = None,
    first_round: Sequence[Pairing] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Round:
    """Pair round ``number`` of a Swiss event from the standings (caller holds the
    transaction and the event's lock). ``keep``: entries out in an elimination Swiss
    that play this round all the same (checked by the caller).

    The event's forbidden pairs (and, in round 1, same-club pairs when the event
    avoids them) make it a maximum-weight matching (``formats.pairing``), as the
    elimination Swiss always is; a plain Swiss without them keeps ``formats.swiss``.
    ``first_round``: the draw's round 1, used as it is when nothing is forbidden."""
    from tournament.selectors import elimination_records, swiss_state

    state = swiss_state(event)
    forbidden, avoid, rules = _prohibitions(event, number, state.ranked, relax)
    paired: _Paired | PairingResult | SwissRound
    with formats_errors():
        try:
            if event.is_elimination_swiss:
                records = elimination_records(event)
                if number == 1 and first_round is not None and not (forbidden or avoid):
                    paired = _as_round(first_round)
                else:
                    paired = elimination.elimination_pairings(
                        state.ranked,
                        records,
                        played=state.played,
                        byes=state.bye_counts,
                        forbidden=forbidden,
                        avoid=avoid,
                        also=keep,
                        progress=progress,
                    )
            elif forbidden or avoid:
                paired = weighted_pairings(
                    state.ranked,
                    scores=state.scores,
                    played=state.played,
                    bye_counts=state.bye_counts,
                    forbidden=forbidden,
                    avoid=avoid,
                    progress=progress,
                )
            elif number == 1 and first_round is not None:
                paired = _as_round(first_round)
            else:
                paired = swiss_pairings(
                    state.ranked, scores=state.scores, played=state.played, had_bye=state.had_bye
                )
        except NoLegalPairing as error:
            blocking = [rules[frozenset(p)] for p in error.blocking if frozenset(p) in rules]
            names = "; ".join(
                _("{a} and {b} (#{pk})").format(
                    a=rule.player_a.name, b=rule.player_b.name, pk=rule.pk
                )
                for rule in blocking
            )
            raise refuse(
                _(
                    "No pairing of round {number} keeps every forbidden pair. In the way: "
                    "{names}. Choose which to relax for this round."
                ).format(number=number, names=names),
                code="no-legal-pairing",
                field="relax",
                blocking=[
                    {"id": rule.pk, "players": [rule.player_a_id, rule.player_b_id]}
                    for rule in blocking
                ],
            ) from None
    _note_round(event, number, paired, relax, by, kept=len(keep))
    layout = Layout(event, timezone.now())
    index = layout.round(
        bracket=Round.Bracket.MAIN,
        number=number,
        name=f"Round {number}",
        length=event.length_for_round(number),
    )
    for slot, (upper, lower) in enumerate(paired.pairings):
        layout.match(index, slot, entry1_id=upper, entry2_id=lower)
    if paired.bye is not None:
        layout.bye(index, len(paired.pairings), paired.bye)
    (round_,) = layout.save()
    return round_


@dataclass(frozen=True)
class _Paired:
    """A round as the draw laid it out."""

    pairings: tuple[tuple[int, int], ...]
    bye: int | None
    rematches: tuple[tuple[int, int], ...] = ()
    avoided: tuple[tuple[int, int], ...] = ()


def _as_round(first_round: Sequence[Pairing]) -> _Paired:
    pairs = tuple((a, b) for a, b in first_round if a is not None and b is not None)
    bye = next((a if a is not None else b for a, b in first_round if a is None or b is None), None)
    return _Paired(pairs, bye)


def _prohibitions(
    event: Event, number: int, ranked: Sequence[int], relax: Sequence[int]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], dict[frozenset[int], ForbiddenPair]]:
    """The round's forbidden and avoided pairs as entry ids, and the rules by pair."""
    entry_of = dict(
        Entry.objects.filter(pk__in=list(ranked)).values_list("player_id", "pk").order_by()
    )
    forbidden: list[tuple[int, int]] = []
    avoid: list[tuple[int, int]] = []
    rules: dict[frozenset[int], ForbiddenPair] = {}
    relaxed = set(relax)
    unknown = relaxed - set(event.forbidden_pairs.values_list("pk", flat=True))
    if unknown:
        raise refuse(
            _("Forbidden pair(s) {pairs} are not of {event_name}.").format(
                pairs=sorted(unknown)[:10], event_name=event.name
            ),
            code="invalid",
            field="relax",
        )
    for rule in event.forbidden_pairs.select_related("player_a", "player_b").order_by("pk"):
        if rule.rounds == ForbiddenPair.Rounds.FIRST and number != 1:
            continue
        a, b = entry_of.get(rule.player_a_id), entry_of.get(rule.player_b_id)
        if a is None or b is None or rule.pk in relaxed:
            continue
        rules[frozenset((a, b))] = rule
        (forbidden if rule.strength == ForbiddenPair.Strength.ABSOLUTE else avoid).append((a, b))
    if number == 1 and event.avoid_same_club_first_round:
        for pair in same_club_pairs(event, ranked):
            a, b = sorted(pair)
            avoid.append((a, b))
    return forbidden, avoid, rules


def same_club_pairs(event: Event, entry_ids: Sequence[int]) -> set[frozenset[int]]:
    """Every pair of the field from the same club (the club as typed, spaces and case
    aside), when the event keeps clubs apart in round 1; else none."""
    if not event.avoid_same_club_first_round:
        return set()
    clubs: dict[str, list[int]] = {}
    rows = Entry.objects.filter(pk__in=list(entry_ids)).values_list("pk", "player__club")
    for pk, club in rows.order_by("pk"):
        key = " ".join((club or "").split()).casefold()
        if key:
            clubs.setdefault(key, []).append(pk)
    return {
        frozenset((a, b))
        for members in clubs.values()
        for k, a in enumerate(members)
        for b in members[k + 1 :]
    }


def _note_round(
    event: Event,
    number: int,
    paired: object,
    relax: Sequence[int],
    by: User | None,
    *,
    kept: int = 0,
) -> None:
    """The round's line in the public pairing log (relaxed prohibitions: how many, the
    players named in the directors' detail only)."""
    rematches = len(getattr(paired, "rematches", ()))
    avoided = len(getattr(paired, "avoided", ()))
    detail, relaxed = "", 0
    if relax:
        rules = list(
            ForbiddenPair.objects.filter(pk__in=list(relax))
            .select_related("player_a", "player_b")
            .order_by("pk")
        )
        relaxed = len(rules)
        detail = "; ".join(f"#{r.pk} {r.player_a.name} and {r.player_b.name}" for r in rules)
    PairingNote.objects.create(
        event=event,
        round_number=number,
        text=pairing_log.round_paired(number, rematches, avoided, relaxed, kept=kept),
        detail=detail,
        by=by if by is not None and by.is_authenticated else None,
    )


def swiss_round_repair(*, round_: Round) -> Round:
    """Pair a Swiss round that has not started again (a late entry or a withdrawal)."""
    round_ = _lock_round(round_)
    if round_.status != Round.Status.PENDING:
        raise refuse(_("{round} has started.").format(round=round_), code="round-started")
    event, number = round_.event, round_.number
    round_.delete()
    return swiss_pair_round(event=event, number=number)


def league_finish_if_done(event: Event) -> None:
    """Finish a Swiss or round-robin event whose last round is complete; the standings'
    leader is the champion (caller holds the transaction)."""
    from tournament.selectors import standings

    rounds = list(event.rounds.values_list("number", "status"))
    if any(status != Round.Status.COMPLETE for _, status in rounds):
        return
    if event.is_elimination_swiss:
        elimination_finish_if_over(event)
        return
    if event.format == Event.Format.SWISS:
        planned = event.rounds_planned or 0
        if len(rounds) < planned:
            return
    table = standings(event)
    leader = next((row for row in table if row.entry.status in ACTIVE), None)
    event.champion_id = leader.entry.pk if leader is not None else None
    event.status = Event.Status.FINISHED
    event.save(update_fields=["champion", "status"])


def elimination_finish_if_over(event: Event, *, force: bool = False) -> bool:
    """Finish an elimination Swiss once it is over: its playoff decided, or (without
    one) ``next_stage`` says ``over`` (at most one player alive, or the playoff
    switch); or at once with ``force`` (the director ends it). The champion is the
    player placed first alone, if any (caller holds the transaction)."""
    from tournament.selectors import elimination_places_of, elimination_state

    state = elimination_state(event)
    if not force:
        if event.playoff:
            with formats_errors():
                left = playoffs.playoff_next(
                    event.playoff["kind"], list(event.playoff["seeds"]), state.playoff_winners
                )
            if left is not None:
                return False
        else:
            swiss_rounds = event.rounds.filter(bracket=Round.Bracket.MAIN).count()
            stage = elimination.next_stage(
                state.records,
                rounds_played=swiss_rounds,
                places_paid=_switch(event),
                three_player_playoff=event.three_player_playoff,
                wisconsin_after_rounds=event.wisconsin_after_rounds,
            )
            if stage != elimination.OVER:
                return False
    places = elimination_places_of(event, state)
    first = [pk for pk, place in places.items() if place.best == place.worst == 1]
    event.champion_id = first[0] if first else None
    event.status = Event.Status.FINISHED
    event.save(update_fields=["champion", "status"])
    return True


def event_end(*, event: Event, by: User | None = None) -> Event:
    """The director ends an elimination Swiss between rounds: the players alive share
    the places by their records."""
    from tournament import page_cache

    with transaction.atomic():
        event_lock(event.pk)
        event = Event.objects.get(pk=event.pk)
        if not event.is_elimination_swiss:
            raise refuse(
                _("{event_name} is not a Swiss elimination: it ends with its last round.").format(
                    event_name=event.name
                ),
                code="not-elimination-swiss",
            )
        _check_league_running(event)
        pending = event.rounds.filter(status=Round.Status.PENDING)
        for round_ in pending:
            round_.delete()
        elimination_finish_if_over(event, force=True)
        page_cache.invalidate_event_on_commit(event.pk, event.tournament_id)
    return event


#: The longest round time a director can set, in minutes (a whole day).
MAX_ROUND_MINUTES = 24 * 60


def round_minutes_set(*, round_: Round, minutes: int | None, by: User | None = None) -> Round:
    """Set the time a round is played in (``None`` takes it off): the room board counts it
    down from the round's start. Any time before the round is complete."""
    if minutes is not None and (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 1 <= minutes <= MAX_ROUND_MINUTES
    ):
        raise refuse(
            _("A round time is a whole number of minutes from 1 to {MAX_ROUND_MINUTES}.").format(
                MAX_ROUND_MINUTES=MAX_ROUND_MINUTES
            ),
            code="invalid",
            field="minutes",
        )
    with transaction.atomic():
        round_ = _lock_round(round_)
        if round_.status == Round.Status.COMPLETE:
            raise refuse(
                _("{round} is complete.").format(round=round_),
                code="round-complete",
                field="minutes",
            )
        if round_.minutes != minutes:
            round_.minutes = minutes
            round_.save(update_fields=["minutes"])
            first = round_.matches.order_by("slot").values_list("pk", flat=True).first()
            if first is not None:
                announce_match_changed(first, round_.event_id)
    return round_
