"""A director's decisions on a match: forfeit, penalty, table, correction, score.

The match's own read shapes are the matches app's (``matches.api.shapes``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from matches.api.serializers import IdField, confirm_field, final_score_field


class ForfeitSerializer(serializers.Serializer[Any]):
    winner = IdField(help_text="The winning player's id.")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class PenaltySerializer(serializers.Serializer[Any]):
    player = IdField(help_text="The late player's id.")
    points = serializers.IntegerField(min_value=1, max_value=99)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class MatchTableSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(
        min_value=1,
        max_value=999,
        allow_null=True,
        help_text="The table (board) to play the match at; null takes it off its table.",
    )


class CorrectSerializer(serializers.Serializer[Any]):
    """``POST /api/matches/{id}/correct/``: the decided match's real winner, and its score.

    Without ``score`` a played or score-only result's score is swapped (the new winner
    gets the points the old winner had); with it, the new winner must be the player who
    reached the match length (400 ``winner-score-mismatch`` otherwise), and the result
    becomes score-only.
    """

    winner = IdField(help_text="The player who really won.")
    score = final_score_field(
        required=False,
        help_text="The real final score [player1, player2], if not the recorded one swapped.",
    )
    confirm = confirm_field()
    cascade = serializers.BooleanField(
        default=False,
        help_text="Also void and reopen later matches that have started.",
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class FinalScoreSerializer(serializers.Serializer[Any]):
    """``POST /api/matches/{id}/score/``: the final score alone, as the console's score form
    takes it: entered on a match without games, or a decided match's score corrected (the
    player who reached the length wins; a changed winner re-seats the next round)."""

    score = final_score_field(help_text="The final score [player1, player2].")
    confirm = confirm_field()
    cascade = serializers.BooleanField(
        default=False,
        help_text="Also void and reopen later matches that have started (a changed winner).",
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
