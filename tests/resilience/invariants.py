"""What must hold after any run, however many clients raced and whatever failed.

Written once, checked after every race, fault and load run (``assert_invariants``):

- score: a match's score is its start score plus the points of its accepted
  (non-voided) games, and every game's ``score_before`` is the score after the
  games before it; a score-only result (decision ``score``) has no accepted games;
- games: no game number twice among a match's accepted games, numbered 1..n;
- slots: each bracket slot (round, slot) is one match; an entry plays at most one
  match per round, and never against itself; a decided match's winner is one of
  its players; a decided "play" or "score" result has its winner at or past the
  match length and the loser below it;
- bracket: in a single-elimination event, every advanced match's winner sits on
  its line of the next round (round r, slot k -> round r + 1, slot k // 2);
- submissions: versions of each match are 1..n with no gap, and (when the caller
  counted them) every report request that reached a match is stored.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

from django.db.models import Q

from matches.models import Game, Match, Submission
from tournament.models import Event


def _matches(event_ids: Iterable[int] | None, match_ids: Iterable[int] | None) -> list[Match]:
    queryset = Match.objects.select_related("round", "event")
    if event_ids is not None:
        queryset = queryset.filter(event_id__in=list(event_ids))
    if match_ids is not None:
        queryset = queryset.filter(pk__in=list(match_ids))
    return list(queryset.order_by("event_id", "round__bracket", "round__number", "slot"))


def score_violations(matches: list[Match]) -> list[str]:
    """Score = start + accepted games' points; each game starts from the score before it."""
    problems: list[str] = []
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(match__in=matches, voided=False).order_by("match_id", "number"):
        games[game.match_id].append(game)
    for match in matches:
        if match.decision == Match.Decision.SCORE:
            if games[match.pk]:
                problems.append(f"match {match.pk}: a score-only result with accepted games")
            continue
        running = [match.start_score1, match.start_score2]
        numbers = [g.number for g in games[match.pk]]
        twice = sorted(n for n, c in Counter(numbers).items() if c > 1)
        if twice:
            problems.append(f"match {match.pk}: game numbers recorded twice: {twice}")
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"match {match.pk}: accepted games are numbered {numbers}")
        for game in games[match.pk]:
            if [game.score_before1, game.score_before2] != running:
                problems.append(
                    f"match {match.pk} game {game.number}: starts at "
                    f"{game.score_before1}-{game.score_before2}, the games before end at "
                    f"{running[0]}-{running[1]}"
                )
            running[game.winner_side - 1] += game.points
        if [match.score1, match.score2] != running:
            problems.append(
                f"match {match.pk}: score {match.score1}-{match.score2}, but start "
                f"{match.start_score1}-{match.start_score2} plus its accepted games make "
                f"{running[0]}-{running[1]}"
            )
    return problems


def slot_violations(matches: list[Match]) -> list[str]:
    """One match per (round, slot); an entry at most once per round; winners are players."""
    problems: list[str] = []
    slots = Counter((m.round_id, m.slot) for m in matches)
    problems += [f"round {r} slot {s}: {n} matches" for (r, s), n in slots.items() if n > 1]
    seen: dict[tuple[int, int], int] = {}
    for match in matches:
        if match.entry1_id is not None and match.entry1_id == match.entry2_id:
            problems.append(f"match {match.pk}: entry {match.entry1_id} plays itself")
        for entry_id in {match.entry1_id, match.entry2_id} - {None}:
            key = (match.round_id, entry_id)  # type: ignore[assignment]
            if key in seen:
                problems.append(
                    f"entry {entry_id} sits in matches {seen[key]} and {match.pk} of round "
                    f"{match.round_id}"
                )
            seen[key] = match.pk  # type: ignore[index]
        if match.winner_id is not None and match.winner_id not in (
            match.entry1_id,
            match.entry2_id,
        ):
            problems.append(f"match {match.pk}: winner {match.winner_id} does not play it")
        if match.status == Match.Status.COMPLETE and match.winner_id is None and not match.is_bye:
            problems.append(f"match {match.pk}: complete without a winner")
        problems += result_violations(match)
    return problems


def result_violations(match: Match) -> list[str]:
    """A result played or entered as a score only has its winner at or past the match
    length and the loser below it (a forfeit, walkover or bye may end at any score)."""
    if match.status != Match.Status.COMPLETE or match.winner_id is None:
        return []
    if match.decision not in (Match.Decision.PLAY, Match.Decision.SCORE):
        return []
    won, lost = (
        (match.score1, match.score2)
        if match.winner_id == match.entry1_id
        else (match.score2, match.score1)
    )
    if won >= match.length and lost < match.length:
        return []
    return [
        f"match {match.pk}: decided ({match.decision}) for entry {match.winner_id} at "
        f"{match.score1}-{match.score2} of {match.length}: the winner must reach the "
        "length and the loser stay below it"
    ]


def bracket_violations(matches: list[Match]) -> list[str]:
    """Single elimination: an advanced match's winner sits on its line of the next round."""
    problems: list[str] = []
    by_seat = {(m.event_id, m.round.bracket, m.round.number, m.slot): m for m in matches}
    for match in matches:
        if match.event.format != Event.Format.SINGLE_ELIMINATION or match.event.feeds_from_id:
            continue
        nxt = by_seat.get(
            (match.event_id, match.round.bracket, match.round.number + 1, match.slot // 2)
        )
        if nxt is None:
            continue
        line = nxt.entry1_id if match.slot % 2 == 0 else nxt.entry2_id
        if match.advanced_at is not None and match.winner_id is not None:
            if line != match.winner_id:
                problems.append(
                    f"match {match.pk} advanced with winner {match.winner_id}, but match "
                    f"{nxt.pk} has {line} on that line"
                )
        elif line is not None:
            problems.append(
                f"match {nxt.pk} has entry {line} on the line of match {match.pk}, "
                "which has not moved on"
            )
    return problems


def submission_violations(
    matches: list[Match], expected: Mapping[int, int] | None = None
) -> list[str]:
    """Versions 1..n per match; ``expected`` (match id -> requests sent) all stored."""
    problems: list[str] = []
    versions: dict[int, list[int]] = defaultdict(list)
    for match_id, version in (
        Submission.objects.filter(match__in=matches)
        .order_by("match_id", "version")
        .values_list("match_id", "version")
    ):
        versions[match_id].append(version)
    for match in matches:
        got = versions[match.pk]
        if got != list(range(1, len(got) + 1)):
            problems.append(f"match {match.pk}: submission versions {got}")
    for match_id, sent in (expected or {}).items():
        stored = len(versions[match_id])
        if stored != sent:
            problems.append(
                f"match {match_id}: {sent} report requests, {stored} submissions stored"
            )
    return problems


def invariant_violations(
    *,
    event_ids: Iterable[int] | None = None,
    match_ids: Iterable[int] | None = None,
    submissions: Mapping[int, int] | None = None,
) -> list[str]:
    """Every broken invariant among the chosen matches (all matches when none is chosen)."""
    matches = _matches(event_ids, match_ids)
    return (
        score_violations(matches)
        + slot_violations(matches)
        + bracket_violations(matches)
        + submission_violations(matches, submissions)
    )


def assert_invariants(
    *,
    event_ids: Iterable[int] | None = None,
    match_ids: Iterable[int] | None = None,
    submissions: Mapping[int, int] | None = None,
) -> None:
    """Fail with every broken invariant listed."""
    problems = invariant_violations(
        event_ids=event_ids, match_ids=match_ids, submissions=submissions
    )
    assert not problems, "invariants broken:\n" + "\n".join(problems)


def bracket_state(event_id: int) -> list[tuple[object, ...]]:
    """A comparable picture of an event: each match's seat, players, status, winner, score."""
    rows = (
        Match.objects.filter(event_id=event_id)
        .exclude(Q(is_bye=True) & Q(entry1__isnull=True) & Q(entry2__isnull=True))
        .order_by("round__bracket", "round__number", "slot")
        .values_list(
            "round__bracket",
            "round__number",
            "slot",
            "entry1__player_id",
            "entry2__player_id",
            "status",
            "winner__player_id",
            "score1",
            "score2",
        )
    )
    return [tuple(r) for r in rows]


def bracket_by_place(event_id: int, player_ids: list[int]) -> list[tuple[object, ...]]:
    """``bracket_state`` with players named by their place in ``player_ids``, so that two
    events built alike (a run with faults and one without) compare equal."""
    index = {pk: i for i, pk in enumerate(player_ids)}
    return [
        tuple(index.get(v, v) if n in (3, 4, 6) else v for n, v in enumerate(row))  # type: ignore[call-overload]
        for row in bracket_state(event_id)
    ]
