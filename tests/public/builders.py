"""Fast builders for public-page tests: whole brackets in a handful of bulk inserts.

A seeded single-elimination Main (byes to the top seeds, 1 and 2 only meeting in
the final) laid out as the draw lays it: every round and match created at once,
the winner of (round r, slot k) going to (round r + 1, slot k // 2). ``finish``
plays a match to its end and moves the winner on, as the bracket service does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils import timezone

from matches.models import Game, Match
from tests.factories import EventFactory, TournamentFactory
from tournament.models import Draw, Entry, Event, Player, RatingChange, Round, Tournament


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size`` (1 and 2 at opposite ends)."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for seed in order for x in (seed, n + 1 - seed)]
    return order


def players(count: int, prefix: str = "Player") -> list[Player]:
    """``count`` new players with distinct names and ratings."""
    return Player.objects.bulk_create(
        Player(name=f"{prefix} {i:04d}", rating=1400.0 + (i * 37) % 400)
        for i in range(1, count + 1)
    )


def elimination(
    count: int,
    *,
    tournament: Tournament | None = None,
    lengths: Sequence[int] = (7, 9, 11),
    kind: str = Event.Kind.MAIN,
    name: str = "Main",
    slug: str = "main",
    feeds_from: Event | None = None,
    people: Sequence[Player] | None = None,
    with_draw: bool = True,
) -> Event:
    """A drawn single-elimination event of ``count`` players with round 1 started."""
    tournament = tournament or TournamentFactory()
    event = EventFactory(
        tournament=tournament,
        name=name,
        slug=slug,
        kind=kind,
        match_lengths=list(lengths),
        feeds_from=feeds_from,
        feed_rounds=[1] if feeds_from else [],
        status=Event.Status.RUNNING,
    )
    people = list(people) if people is not None else players(count, prefix=name)
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, seed=i) for i, p in enumerate(people[:count], start=1)
    )
    size = 1
    while size < count:
        size *= 2
    total = size.bit_length() - 1
    rounds = Round.objects.bulk_create(
        Round(
            event=event,
            number=n,
            match_length=event.length_for_round(n),
            status=Round.Status.STARTED if n == 1 else Round.Status.PENDING,
        )
        for n in range(1, total + 1)
    )
    order = seed_order(size)
    by_seed = {e.seed: e for e in entries}
    first: list[Match] = []
    promoted: list[tuple[int, Entry]] = []
    for k in range(size // 2):
        a, b = by_seed.get(order[2 * k]), by_seed.get(order[2 * k + 1])
        if a is not None and b is not None:
            first.append(_match(event, rounds[0], k, a, b, Match.Status.READY))
        else:
            lone = a or b
            bye = _match(event, rounds[0], k, lone, None, Match.Status.COMPLETE)
            bye.is_bye, bye.winner, bye.decision = True, lone, Match.Decision.BYE
            first.append(bye)
            promoted.append((k, lone))
    later = [
        _match(event, rnd, k, None, None, Match.Status.PENDING)
        for rnd in rounds[1:]
        for k in range(size >> rnd.number)
    ]
    for k, entry in promoted:
        if total > 1:
            target = later[k // 2]
            if k % 2 == 0:
                target.entry1 = entry
            else:
                target.entry2 = entry
    for match in later[: size // 4]:
        if match.entry1 and match.entry2:
            match.status = Match.Status.READY
    Match.objects.bulk_create(first + later)
    if with_draw:
        Draw.objects.create(
            event=event,
            method="random",
            seed=20260321,
            log="method random\nseed 20260321\n"
            + "\n".join(f"{e.seed} {e.player.name}" for e in entries),
        )
    return event


def _match(
    event: Event, rnd: Round, slot: int, a: Entry | None, b: Entry | None, status: str
) -> Match:
    return Match(
        event=event,
        round=rnd,
        slot=slot,
        entry1=a,
        entry2=b,
        length=rnd.match_length,
        crawford=event.crawford,
        status=status,
    )


def play_game(
    match: Match,
    *,
    winner_side: int,
    cube: int = 1,
    result: str = Game.Result.SINGLE,
    doubles: list[dict[str, object]] | None = None,
    moves: object = None,
) -> Game:
    """Record the next game of ``match`` and move its score on (Crawford derived)."""
    match.refresh_from_db()
    number = match.games.filter(voided=False).count() + 1
    points = cube * {"single": 1, "gammon": 2, "backgammon": 3}[result]
    crawford_done = match.games.filter(crawford=True, voided=False).exists()
    leader_at_crawford = match.length - 1 in (match.score1, match.score2)
    game = Game.objects.create(
        match=match,
        number=number,
        winner_side=winner_side,
        cube=cube,
        result=result,
        points=points,
        score_before1=match.score1,
        score_before2=match.score2,
        crawford=match.crawford and leader_at_crawford and not crawford_done,
        doubles=doubles or [],
        moves=moves,
    )
    if winner_side == 1:
        match.score1 += points
    else:
        match.score2 += points
    match.status = Match.Status.PLAYING
    match.save(update_fields=["score1", "score2", "status", "updated_at"])
    return game


def finish(match: Match, *, winner_side: int) -> Match:
    """Complete ``match`` for ``winner_side`` and seat the winner in the next round."""
    match.refresh_from_db()
    winner = match.entry1 if winner_side == 1 else match.entry2
    if winner_side == 1:
        match.score1 = max(match.score1, match.length)
    else:
        match.score2 = max(match.score2, match.length)
    match.winner = winner
    match.status = Match.Status.COMPLETE
    match.decision = Match.Decision.PLAY
    match.decided_at = match.confirmed_at = match.advanced_at = timezone.now()
    match.save()
    following = Match.objects.filter(
        event=match.event, round__number=match.round.number + 1, slot=match.slot // 2
    ).first()
    if following is not None:
        if match.slot % 2 == 0:
            following.entry1 = winner
        else:
            following.entry2 = winner
        if following.entry1_id and following.entry2_id:
            following.status = Match.Status.READY
        following.save()
    elif match.event.champion_id is None:
        match.event.champion = winner
        match.event.status = Event.Status.FINISHED
        match.event.save()
    return match


def finish_many(matches: Sequence[Match], *, winner_side: int) -> None:
    """``finish`` for many round matches of one event at once, in two bulk updates."""
    if not matches:
        return
    now = timezone.now()
    for match in matches:
        match.winner = match.entry1 if winner_side == 1 else match.entry2
        if winner_side == 1:
            match.score1 = match.length
        else:
            match.score2 = match.length
        match.status, match.decision = Match.Status.COMPLETE, Match.Decision.PLAY
        match.decided_at = match.confirmed_at = match.advanced_at = now
    Match.objects.bulk_update(
        matches,
        [
            "winner",
            "score1",
            "score2",
            "status",
            "decision",
            "decided_at",
            "confirmed_at",
            "advanced_at",
        ],
    )
    first = matches[0]
    following = {
        m.slot: m
        for m in Match.objects.filter(event=first.event, round__number=first.round.number + 1)
    }
    for match in matches:
        target = following[match.slot // 2]
        if match.slot % 2 == 0:
            target.entry1 = match.winner
        else:
            target.entry2 = match.winner
        if target.entry1_id and target.entry2_id:
            target.status = Match.Status.READY
    Match.objects.bulk_update(list(following.values()), ["entry1", "entry2", "status"])


def rating_history(player: Player, matches: Sequence[Match], start: float = 1500.0) -> None:
    """A rating change for ``player`` after each of ``matches``, one day apart."""
    rating = start
    when = timezone.now() - dt.timedelta(days=len(matches))
    changes = []
    for i, match in enumerate(matches):
        after = rating + (7.5 if i % 3 else -4.0)
        changes.append(
            RatingChange(
                player=player,
                match=match,
                rating_before=rating,
                rating_after=after,
                experience_before=i * 7,
                created_at=when + dt.timedelta(days=i),
            )
        )
        rating = after
    RatingChange.objects.bulk_create(changes)
    player.rating = rating
    player.save(update_fields=["rating"])
