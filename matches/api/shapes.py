"""The match as ``GET /api/matches/{id}/`` shows it, built as a plain dict for the report endpoints.

``tournament.api.serializers.MatchDetailSerializer`` defines that shape (and documents it in
the schema); walking its fields costs more than a game report's database work, so the
reporting endpoints answer with :func:`match_detail_data`, which builds the same keys, in
the same order, with the same values. ``tests/matches/test_report_hot_path.py`` compares
the two on matches in every state.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rest_framework.fields import DateTimeField

from matches.models import Game, Match
from matches.selectors import match_crawford_game_number
from tournament.models import Entry

_datetime = DateTimeField(read_only=True)


def _when(value: datetime | None) -> str | None:
    return _datetime.to_representation(value) if value is not None else None


def _player(entry: Entry | None) -> int | None:
    return entry.player_id if entry is not None else None


def game_data(game: Game, player1: int | None, player2: int | None) -> dict[str, Any]:
    """One game as ``GameOutSerializer`` shows it."""
    return {
        "number": game.number,
        "winner": player1 if game.winner_side == 1 else player2,
        "winner_side": game.winner_side,
        "cube": game.cube,
        "result": str(game.result),
        "ended_by": str(game.ended_by),
        "points": game.points,
        "score_before": [game.score_before1, game.score_before2],
        "crawford": game.crawford,
        "doubles": game.doubles,
    }


def match_detail_data(match: Match) -> dict[str, Any]:
    """``MatchDetailSerializer(match).data``: the match, its round and players, its live games.

    The match needs its event, round, entries and players loaded, and its games prefetched
    (``matches.selectors.match_detail``, or handed over by the report's service).
    """
    entry1, entry2 = match.entry1, match.entry2
    player1, player2 = _player(entry1), _player(entry2)
    games = sorted((g for g in match.games.all() if not g.voided), key=lambda g: g.number)
    round_ = match.round
    return {
        "id": match.pk,
        "event": match.event_id,
        "round": round_.number,
        "round_id": match.round_id,
        "round_name": str(round_),
        "bracket": str(round_.bracket),
        "slot": match.slot,
        "player1": player1,
        "player2": player2,
        "player1_name": entry1.player.name if entry1 is not None else None,
        "player2_name": entry2.player.name if entry2 is not None else None,
        "length": match.length,
        "score": [match.score1, match.score2],
        "start_score": [match.start_score1, match.start_score2],
        "status": str(match.status),
        "decision": str(match.decision),
        "is_bye": match.is_bye,
        "winner": _player(match.winner),
        "crawford": match.crawford,
        "holland": match.holland,
        "crawford_game_number": match_crawford_game_number(match=match, games=games),
        "flagged": match.flagged,
        "table": match.table,
        "event_name": match.event.name,
        "games": [game_data(g, player1, player2) for g in games],
        "started_at": _when(match.started_at),
        "decided_at": _when(match.decided_at),
    }
