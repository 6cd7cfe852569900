"""The match as the API shows it: one definition, used by the tournament API and the
reporting endpoints alike.

The builders (:func:`match_data`, :func:`match_detail_data`, :func:`game_data`) make
the values; the serializers declare the same keys, in the same order, for the
OpenAPI schema, and answer with the builders (walking DRF fields per match costs
more than a game report's database work). ``tests/matches/test_report_hot_path.py``
checks that the declared fields and the built keys agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
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
    """One game, its winner named by player id."""
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


def match_data(match: Match, games: Iterable[Game] | None = None) -> dict[str, Any]:
    """A match as lists show it: ``score`` is the current score including any start.

    The Crawford game's number is derived from ``games`` when given, else from the
    ``live_games`` annotations of a list query, else from the match's games.
    """
    entry1, entry2 = match.entry1, match.entry2
    round_ = match.round
    if games is None and not hasattr(match, "live_games"):
        games = match.games.all()
    return {
        "id": match.pk,
        "event": match.event_id,
        "round": round_.number,
        "round_id": match.round_id,
        "round_name": str(round_),
        "bracket": str(round_.bracket),
        "slot": match.slot,
        "player1": _player(entry1),
        "player2": _player(entry2),
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
        "designated": match.designated,
        "recorded": match.recorded,
        "clocked": match.clocked,
        "xg_pr": [_pr(match.xg_pr1), _pr(match.xg_pr2)],
    }


def _pr(value: Any) -> float | None:
    return None if value is None else float(value)


def match_detail_data(match: Match, games: Iterable[Game] | None = None) -> dict[str, Any]:
    """One match with its round, players and live games (voided games are left out).

    The match needs its event, round, entries and players loaded, and its games given
    (as a report's service hands them over) or prefetched (``matches.selectors.match_detail``).
    """
    every = match.games.all() if games is None else games
    games = sorted((g for g in every if not g.voided), key=lambda g: g.number)
    player1, player2 = _player(match.entry1), _player(match.entry2)
    return {
        **match_data(match, games),
        "event_name": match.event.name,
        "games": [game_data(g, player1, player2) for g in games],
        "started_at": _when(match.started_at),
        "decided_at": _when(match.decided_at),
        "bmab_marks": dict(match.bmab_marks or {}),
    }


# ---- the same shapes, declared for the schema ------------------------------------------

#: Every refusal: ``{"code", "message", "detail"}`` (api.md).
ERROR = inline_serializer(
    "Error",
    {
        "code": serializers.CharField(),
        "message": serializers.CharField(),
        "detail": serializers.DictField(),
    },
)


def _pair() -> serializers.ListField:
    """Two integers: a score, player1's then player2's."""
    return serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, read_only=True
    )


class GameOutSerializer(serializers.ModelSerializer[Game]):
    """One game of a match (``game_data``)."""

    winner = serializers.IntegerField(read_only=True, allow_null=True)
    score_before = _pair()

    class Meta:
        model = Game
        fields = [
            "number",
            "winner",
            "winner_side",
            "cube",
            "result",
            "ended_by",
            "points",
            "score_before",
            "crawford",
            "doubles",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Game) -> dict[str, Any]:
        match = instance.match
        return game_data(instance, _player(match.entry1), _player(match.entry2))


class MatchSerializer(serializers.ModelSerializer[Match]):
    """A match as lists show it: ``score`` is the current score including any start."""

    round = serializers.IntegerField(read_only=True)
    round_id = serializers.IntegerField(read_only=True)
    round_name = serializers.CharField(read_only=True)
    bracket = serializers.CharField(read_only=True)
    player1 = serializers.IntegerField(read_only=True, allow_null=True)
    player2 = serializers.IntegerField(read_only=True, allow_null=True)
    player1_name = serializers.CharField(read_only=True, allow_null=True)
    player2_name = serializers.CharField(read_only=True, allow_null=True)
    score = _pair()
    start_score = _pair()
    winner = serializers.IntegerField(read_only=True, allow_null=True)
    crawford_game_number = serializers.IntegerField(read_only=True, allow_null=True)
    # Blank until the match is decided (a read-only model field would lose allow_blank).
    decision = serializers.ChoiceField(
        choices=Match.Decision.choices, allow_blank=True, read_only=True
    )
    xg_pr = serializers.ListField(
        child=serializers.FloatField(allow_null=True),
        min_length=2,
        max_length=2,
        read_only=True,
        help_text="XG PR (reported) of player1 and player2, as a director typed them in "
        "(null: none); the gnubg PR of the analysis is unofficial.",
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "event",
            "round",
            "round_id",
            "round_name",
            "bracket",
            "slot",
            "player1",
            "player2",
            "player1_name",
            "player2_name",
            "length",
            "score",
            "start_score",
            "status",
            "decision",
            "is_bye",
            "winner",
            "crawford",
            "holland",
            "crawford_game_number",
            "flagged",
            "table",
            "designated",
            "recorded",
            "clocked",
            "xg_pr",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Match) -> dict[str, Any]:
        return match_data(instance)


class MatchDetailSerializer(MatchSerializer):
    """One match with its games (voided games are left out)."""

    games = GameOutSerializer(many=True, read_only=True)
    event_name = serializers.CharField(read_only=True)
    bmab_marks = serializers.DictField(
        read_only=True,
        help_text='Who set each BMAB flag and when: {"designated": {"value", "by", "at", '
        '"reason"}, "recorded": ..., "clocked": ..., "xg_pr": {"by", "at"}}.',
    )

    class Meta(MatchSerializer.Meta):
        fields = [
            *MatchSerializer.Meta.fields,
            "event_name",
            "games",
            "started_at",
            "decided_at",
            "bmab_marks",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Match) -> dict[str, Any]:
        return match_detail_data(instance)
