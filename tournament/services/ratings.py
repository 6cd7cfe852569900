"""FIBS ratings of played matches: rate one as it is confirmed, or recompute them all.

A match is rated when it was played to its end: complete, decided by play (not a
forfeit, walkover or bye), with two entries and the winner's score at the match
length or more. Matches are rated in the order they were settled: confirmation
time (the decision time when nobody had to confirm), then id. Each rated match
leaves one :class:`~tournament.models.RatingChange` per player, dated with that
time, so a player's history reads in the same order and recomputing from scratch
replays exactly what the live updates did.

Live updates can arrive out of order (two workers, a retried task, a director's
correction). :func:`match_rate` notices when one of the players already has a
later rated match, or when the stored change no longer matches the result, and
then recomputes everything rather than leave numbers that a recomputation would
not give.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction
from django.db.models import F, Q, QuerySet

from matches.models import PLAYED_DECISIONS, Match
from tournament.formulas import ratings
from tournament.models import Player, RatingChange

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    """What :func:`match_rate` did."""

    RATED = "rated"
    ALREADY_RATED = "already-rated"
    NOT_RATED = "not-rated"
    RECOMPUTED = "recomputed"


@dataclass(frozen=True)
class _Rateable:
    match_id: int
    player1_id: int
    player2_id: int
    winner: int
    length: int
    at: dt.datetime

    @property
    def order(self) -> tuple[dt.datetime, int]:
        return (self.at, self.match_id)


def rated_matches() -> QuerySet[Match]:
    """Every match that counts for ratings (unordered; see :func:`_rateables` for the order)."""
    return Match.objects.filter(
        Q(winner=F("entry1"), score1__gte=F("length"))
        | Q(winner=F("entry2"), score2__gte=F("length")),
        Q(confirmed_at__isnull=False) | Q(decided_at__isnull=False),
        status=Match.Status.COMPLETE,
        decision__in=PLAYED_DECISIONS,
        is_bye=False,
        entry1__isnull=False,
        entry2__isnull=False,
    )


def _rateables(matches: QuerySet[Match]) -> list[_Rateable]:
    rows = matches.values_list(
        "pk",
        "entry1__player_id",
        "entry2__player_id",
        "winner_id",
        "entry1_id",
        "length",
        "confirmed_at",
        "decided_at",
    )
    found = [
        _Rateable(
            match_id=pk,
            player1_id=p1,
            player2_id=p2,
            winner=1 if winner == entry1 else 2,
            length=length,
            at=at,
        )
        for pk, p1, p2, winner, entry1, length, confirmed, decided in rows
        if (at := confirmed or decided) is not None  # the query asks for one of them
    ]
    found.sort(key=lambda r: r.order)
    return found


def match_rate(*, match_id: int) -> Outcome:
    """Rate a confirmed match once (idempotent); recompute everything if the order broke."""
    with transaction.atomic():
        found = _rateables(rated_matches().filter(pk=match_id))
        if not found:
            if RatingChange.objects.filter(match_id=match_id).exists():
                # Rated earlier, but a correction made it a forfeit or undecided.
                _recompute(reset=False)
                return Outcome.RECOMPUTED
            return Outcome.NOT_RATED
        match = found[0]
        players = {
            p.pk: p
            for p in Player.objects.select_for_update(no_key=True)
            .filter(pk__in=[match.player1_id, match.player2_id])
            .order_by("pk")
        }
        stored = list(RatingChange.objects.filter(match_id=match_id))
        if stored:
            if _stored_agrees(match, stored):
                return Outcome.ALREADY_RATED
            _recompute(reset=False)
            return Outcome.RECOMPUTED
        later = RatingChange.objects.filter(
            Q(created_at__gt=match.at) | Q(created_at=match.at, match_id__gt=match.match_id),
            player_id__in=[match.player1_id, match.player2_id],
        )
        if later.exists():
            log.info("match %s rated after a later match of its players: recomputing", match_id)
            _recompute(reset=False)
            return Outcome.RECOMPUTED
        one, two = players[match.player1_id], players[match.player2_id]
        state = {
            one.pk: (one.rating, one.experience),
            two.pk: (two.rating, two.experience),
        }
        changes = _apply(match, state)
        RatingChange.objects.bulk_create(changes)
        for change in changes:
            rating, experience = state[change.player_id]
            Player.objects.filter(pk=change.player_id).update(rating=rating, experience=experience)
        return Outcome.RATED


def ratings_recompute(*, reset: bool = False) -> int:
    """Rebuild every rating and rating history from the rated matches; returns their number.

    Each player starts from where their history started (their rating before their
    first rated match; their current rating if they have none), or with
    ``reset=True`` from 1500 and no experience.
    """
    with transaction.atomic():
        return _recompute(reset=reset)


def _recompute(*, reset: bool) -> int:
    players = list(
        Player.objects.select_for_update(no_key=True)
        .order_by("pk")
        .only("pk", "rating", "experience")
    )
    state: dict[int, tuple[float, int]] = {}
    if reset:
        state = {p.pk: (ratings.START_RATING, 0) for p in players}
    else:
        state = {p.pk: (p.rating, p.experience) for p in players}
        firsts = RatingChange.objects.order_by("player_id", "created_at", "match_id").values_list(
            "player_id", "rating_before", "experience_before"
        )
        seen: set[int] = set()
        for player_id, rating, experience in firsts:
            if player_id not in seen:
                seen.add(player_id)
                state[player_id] = (rating, experience)
    RatingChange.objects.all().delete()
    changes: list[RatingChange] = []
    matches = _rateables(rated_matches())
    for match in matches:
        changes.extend(_apply(match, state))
    RatingChange.objects.bulk_create(changes, batch_size=1000)
    for player in players:
        player.rating, player.experience = state[player.pk]
    Player.objects.bulk_update(players, ["rating", "experience"], batch_size=1000)
    return len(matches)


def _apply(match: _Rateable, state: dict[int, tuple[float, int]]) -> list[RatingChange]:
    """Rate ``match`` from ``state`` (player id -> rating, experience), updating ``state``."""
    (r1, e1), (r2, e2) = state[match.player1_id], state[match.player2_id]
    one, two = ratings.rate(
        r1, r2, match.length, winner=match.winner, experience1=e1, experience2=e2
    )
    changes = []
    for player_id, side in ((match.player1_id, one), (match.player2_id, two)):
        state[player_id] = (side.rating_after, side.experience_after)
        changes.append(
            RatingChange(
                player_id=player_id,
                match_id=match.match_id,
                rating_before=side.rating_before,
                rating_after=side.rating_after,
                experience_before=side.experience_before,
                created_at=match.at,
            )
        )
    return changes


def _stored_agrees(match: _Rateable, stored: list[RatingChange]) -> bool:
    """Whether the stored changes are those of the match as it now stands."""
    by_player = {c.player_id: c for c in stored}
    if set(by_player) != {match.player1_id, match.player2_id} or len(stored) != 2:
        return False
    winner_id = match.player1_id if match.winner == 1 else match.player2_id
    winner = by_player[winner_id]
    return winner.rating_after > winner.rating_before and all(
        c.created_at == match.at for c in stored
    )


def unrated_match_ids(*, settled_before: dt.datetime, limit: int = 500) -> list[int]:
    """Rateable matches without a rating yet, settled before ``settled_before`` (the sweep)."""
    return list(
        rated_matches()
        .filter(rating_changes__isnull=True)
        .filter(
            Q(confirmed_at__lt=settled_before)
            | Q(confirmed_at__isnull=True, decided_at__lt=settled_before)
        )
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
