"""Read-only queries about matches, their games and reports (no side effects)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from matches.models import DeviceSync, Game, Match, Submission
from matches.names import tell_apart
from matches.rows import match_game_rows
from matches.rules.match import MatchRules, MatchState, crawford_game_index
from tournament.models import Entry, Player, PlayerLink, Tournament, User

#: Statuses of a match a player still has to do something about.
OPEN_STATUSES = (
    Match.Status.READY,
    Match.Status.PLAYING,
    Match.Status.REPORTED,
    Match.Status.DISPUTED,
)


def match_rules(match: Match) -> MatchRules:
    """The rules the match is played by (its own copy of the event's settings)."""
    return MatchRules(length=match.length, crawford=match.crawford, holland=match.holland)


def match_games(*, match: Match) -> list[Game]:
    """The match's games in order, voided ones left out."""
    return list(Game.objects.filter(match_id=match.pk, voided=False).order_by("number"))


def match_every_game(*, match: Match, moves: bool = False) -> list[Game]:
    """Every game row of the match in order, voided ones included (``voided`` tells).

    The move records (large for games read from a file) are left out unless asked for.
    """
    if not moves:
        return match_game_rows(match.pk)
    return list(Game.objects.filter(match_id=match.pk).order_by("number", "id"))


def match_state(*, match: Match, games: Iterable[Game] | None = None) -> MatchState:
    """The engine's view of the match: its starting score and the score after each game."""
    played = match_games(match=match) if games is None else games
    return MatchState.replay(
        match.length,
        [(g.winner_side - 1, g.points) for g in played],
        start=(match.start_score1, match.start_score2),
    )


def _crawford_and_next(match: Match, games: Iterable[Game] | None) -> tuple[int | None, int]:
    """The Crawford game's number (played or next, or ``None``) and the next game's number."""
    if games is not None:
        live = sorted((g for g in games if not g.voided), key=lambda g: g.number)
        flagged = next((g.number for g in live if g.crawford), None)
        numbers = [g.number for g in live]
        scores = [(g.score_before1, g.score_before2) for g in live]
        next_number = numbers[-1] + 1 if numbers else 1
    else:
        flagged = getattr(match, "flagged_crawford", None)
        numbers, scores = [], []
        next_number = int(getattr(match, "live_games", 0) or 0) + 1
    if flagged is not None:
        return int(flagged), next_number
    index = crawford_game_index(
        [*scores, (match.score1, match.score2)], length=match.length, crawford=match.crawford
    )
    if index is None:
        return None, next_number
    if index < len(numbers):
        return numbers[index], next_number
    return (None if match.status == Match.Status.COMPLETE else next_number), next_number


def match_crawford_game_number(*, match: Match, games: Iterable[Game] | None = None) -> int | None:
    """The number of the match's Crawford game, played or next; ``None`` when there is none
    so far (or the match is played without the Crawford rule, or is decided).

    A game's own ``crawford`` flag (the engine's verdict when it was reported) decides
    when one is set. Otherwise the engine's :func:`crawford_game_index` derives it from
    the stored scores: before each live game in ``games``, then now. Without ``games``
    the annotations of :func:`crawford_annotations` stand in for them.
    """
    return _crawford_and_next(match, games)[0]


def match_crawford_played(*, match: Match, games: Iterable[Game] | None = None) -> bool:
    """Whether the match's Crawford game is behind it (see :func:`match_crawford_game_number`)."""
    number, next_number = _crawford_and_next(match, games)
    return number is not None and number < next_number


def match_with_players(*, match_id: int) -> Match:
    """A match with its event, round, entries and players loaded (for pages)."""
    return Match.objects.select_related(
        "event__tournament", "round", "entry1__player", "entry2__player", "winner__player"
    ).get(pk=match_id)


def match_submissions(*, match: Match) -> QuerySet[Submission]:
    """Every report about the match, oldest first, with who made it."""
    return (
        Submission.objects.filter(match_id=match.pk)
        .select_related("submitted_by", "via_entry__player")
        .order_by("version")
    )


def entry_matches(*, entry: Entry) -> QuerySet[Match]:
    """The entry's matches in its event, earliest round first."""
    return (
        Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
        .select_related(
            "event__tournament", "round", "entry1__player", "entry2__player", "winner__player"
        )
        .order_by("round__number", "round__bracket", "slot")
    )


def entry_next_match(*, entry: Entry) -> Match | None:
    """The match the entry plays or reports next, or ``None`` when it has none open."""
    return entry_matches(entry=entry).filter(status__in=OPEN_STATUSES).first()


def link_matches(*, link: PlayerLink) -> list[Match]:
    """Every match of the link's player in the tournament, every event."""
    pid = link.player_id
    return list(
        Match.objects.filter(event__tournament_id=link.tournament_id)
        .filter(Q(entry1__player_id=pid) | Q(entry2__player_id=pid))
        .select_related(
            "event__tournament",
            "round",
            "entry1__player",
            "entry2__player",
            "entry1__event",
            "entry2__event",
            "winner__player",
        )
        .order_by("event__position", "event_id", "round__bracket", "round__number", "slot")
    )


#: The order a player's open matches come in on their page: what they must act on first.
_URGENCY: dict[str, int] = {
    Match.Status.REPORTED: 0,
    Match.Status.PLAYING: 1,
    Match.Status.READY: 2,
    Match.Status.DISPUTED: 3,
}


def link_finished_entries(*, link: PlayerLink) -> QuerySet[Entry]:
    """The link's player's entries in the tournament's finished events, in event order."""
    return (
        Entry.objects.filter(
            event__tournament_id=link.tournament_id,
            player_id=link.player_id,
            event__status="finished",
        )
        .select_related("player", "event__tournament", "event__champion__player")
        .order_by("event__position", "event_id")
    )


def link_overview(*, link: PlayerLink) -> tuple[list[Match], list[Match], list[Match]]:
    """The player's matches as their page shows them: open (next first, across events),
    waiting (an opponent or the round still to come) and played."""
    matches = link_matches(link=link)
    open_ = sorted(
        (m for m in matches if m.status in OPEN_STATUSES), key=lambda m: _URGENCY[m.status]
    )
    waiting = [m for m in matches if m.status == Match.Status.PENDING and not m.is_bye]
    played = [m for m in matches if m.status == Match.Status.COMPLETE]
    played.sort(key=lambda m: m.decided_at or m.updated_at)
    return open_, waiting, played


def player_for_user(*, user: User) -> Player | None:
    """The player record linked to a user account, if any."""
    return Player.objects.filter(user_id=user.pk).first()


def player_entries(*, player: Player) -> QuerySet[Entry]:
    """The player's entries, newest event first."""
    return (
        Entry.objects.filter(player=player)
        .select_related("event__tournament")
        .order_by("-event__created_at", "-pk")
    )


def directed_matches(*, user: User) -> QuerySet[Match]:
    """Matches of tournaments the user directs (every tournament for staff)."""
    queryset = Match.objects.select_related(
        "event__tournament", "round", "entry1__player", "entry2__player", "reported_by__player"
    )
    if user.is_staff or user.is_superuser:
        return queryset
    return queryset.filter(event__tournament__directors=user)


def dispute_queue(*, user: User) -> list[Match]:
    """Disputed matches first, then results awaiting confirmation, oldest first.

    Each match gets ``last_dispute``: its latest dispute or conflicting report (or ``None``).
    """
    matches = list(
        directed_matches(user=user)
        .filter(status__in=[Match.Status.DISPUTED, Match.Status.REPORTED])
        .order_by("updated_at")
    )
    matches.sort(key=lambda m: m.status != Match.Status.DISPUTED)
    latest: dict[int, Submission] = {}
    disputes = (
        Submission.objects.filter(match__in=[m.pk for m in matches])
        .filter(
            Q(kind=Submission.Kind.DISPUTE, status=Submission.Status.ACCEPTED)
            | Q(error_code="conflicting-report")
        )
        .select_related("via_entry__player")
        .order_by("match_id", "version")
    )
    for submission in disputes:
        latest[submission.match_id] = submission
    for match in matches:
        match.last_dispute = latest.get(match.pk)  # type: ignore[attr-defined]
    # Namesakes told apart as on every page (``told`` on both entries; who reported or
    # disputed is one of them).
    tell_apart(e for m in matches for e in (m.entry1, m.entry2))
    return matches


def match_detail(*, match_id: int) -> Match:
    """A match with what its API representation shows: players, round, event, its games."""
    return (
        Match.objects.select_related(
            "event", "round", "entry1__player", "entry2__player", "winner__player"
        )
        .prefetch_related(
            Prefetch("games", queryset=Game.objects.filter(voided=False).order_by("number"))
        )
        .get(pk=match_id)
    )


# ---- lists of matches, and who may read them ------------------------------------


def tournaments_visible_to(user: User | Any) -> QuerySet[Tournament]:
    """Public tournaments, plus private ones the user directs."""
    qs = Tournament.objects.all()
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return qs
    if user is not None and user.is_authenticated:
        return qs.filter(Q(is_public=True) | Q(directors=user)).distinct()
    return qs.filter(is_public=True)


def crawford_annotations() -> dict[str, Any]:
    """What ``matches.selectors.match_crawford_game_number`` reads when no games are at hand."""
    live = Game.objects.filter(match=OuterRef("pk"), voided=False)
    return {
        "flagged_crawford": Subquery(
            live.filter(crawford=True).order_by("number").values("number")[:1],
            output_field=IntegerField(),
        ),
        "live_games": Coalesce(
            Subquery(
                live.order_by().values("match").annotate(n=Count("pk")).values("n")[:1],
                output_field=IntegerField(),
            ),
            Value(0),
        ),
    }


def matches_query() -> QuerySet[Match]:
    """Matches with what a list shows: round, players, winner, the Crawford game."""
    return (
        Match.objects.select_related("round", "entry1__player", "entry2__player", "winner__player")
        .annotate(**crawford_annotations())
        .order_by("event_id", "round__bracket", "round__number", "slot")
    )


def match_list(
    *,
    event: int | None = None,
    round_number: int | None = None,
    bracket: str | None = None,
    status: str | None = None,
    player: int | None = None,
    tournament: int | None = None,
) -> QuerySet[Match]:
    """Matches filtered by event, round number, bracket, status and player (ids)."""
    qs = matches_query()
    if event is not None:
        qs = qs.filter(event_id=event)
    if tournament is not None:
        qs = qs.filter(event__tournament_id=tournament)
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    if bracket:
        qs = qs.filter(round__bracket=bracket)
    if status:
        qs = qs.filter(status=status)
    if player is not None:
        qs = qs.filter(Q(entry1__player_id=player) | Q(entry2__player_id=player))
    return qs


def device_syncs(*, match_ids: Iterable[int]) -> dict[int, list[DeviceSync]]:
    """Per match, its players' phones' last syncs (``matches.services.sync``), side 1 first."""
    found: dict[int, list[DeviceSync]] = {}
    rows = (
        DeviceSync.objects.filter(match_id__in=list(match_ids))
        .select_related("entry__player", "match")
        .order_by("match_id", "entry_id")
    )
    for row in rows:
        found.setdefault(row.match_id, []).append(row)
    for syncs in found.values():
        syncs.sort(key=lambda s: 0 if s.entry_id == s.match.entry1_id else 1)
    return found


def matches_with_unsent(*, match_ids: Iterable[int]) -> set[int]:
    """The matches among ``match_ids`` a player's phone last said holds unsent reports."""
    return set(
        DeviceSync.objects.filter(match_id__in=list(match_ids), unsent__gt=0).values_list(
            "match_id", flat=True
        )
    )
