"""Input and output shapes of the reporting endpoints (api.md fixes the names)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from matches.models import Match, Submission
from matches.services.ledger import ID_MAX
from matches.services.reporting import DoubleInput, GameInput
from tournament.models import Round

#: Cube values are powers of two; the engine says which. This bound keeps scores storable.
MAX_CUBE = 2**20


def IdField(**kwargs: Any) -> serializers.IntegerField:
    """An id in a request body: a positive integer that fits the database."""
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


class MatchFilterSerializer(serializers.Serializer[Any]):
    event = IdField(required=False)
    tournament = IdField(required=False)
    round = serializers.IntegerField(required=False, min_value=1, max_value=1000)
    bracket = serializers.ChoiceField(choices=Round.Bracket.choices, required=False)
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    player = IdField(required=False)


class KeyMixin(serializers.Serializer[Any]):
    """The private report link's key, for clients that cannot send ``X-Report-Key``."""

    key = serializers.CharField(
        required=False,
        write_only=True,
        max_length=64,
        help_text="An entry's private report key (or send the X-Report-Key header).",
    )


class DoubleSerializer(serializers.Serializer[Any]):
    by = serializers.IntegerField(help_text="The doubling player's id.")
    turn = serializers.IntegerField(
        min_value=0,
        max_value=10_000,
        help_text="The doubler's own rolls in this game before the double "
        "(the opening roll counts for the side that plays it).",
    )
    response = serializers.ChoiceField(choices=["take", "drop", "beaver"], default="take")


class GameSerializer(serializers.Serializer[Any]):
    """One game: who won, the cube when it ended, and how."""

    winner = serializers.IntegerField(help_text="The winning player's id.")
    cube = serializers.IntegerField(
        min_value=1, max_value=MAX_CUBE, default=1, help_text="1, 2, 4, ...: the cube at the end."
    )
    result = serializers.ChoiceField(choices=["single", "gammon", "backgammon"], default="single")
    ended_by = serializers.ChoiceField(choices=["play", "drop", "resign"], default="play")
    doubles = DoubleSerializer(  # type: ignore[call-arg]  # ListSerializer takes max_length; the stubs lack it
        many=True,
        required=False,
        max_length=64,
        help_text="Every double of the game, in order; [] means none (the cube is then 1). "
        "Leave it out when the doubles are not itemised.",
    )


class GameReportSerializer(KeyMixin, GameSerializer):
    """``POST /api/matches/{id}/games/``: the next game."""

    game_number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=32767,
        help_text="When given, must be the next game's number: a repeated report gets 409.",
    )


def game_input(data: dict[str, Any], *, game_number: int | None = None) -> GameInput:
    """A validated game (``GameSerializer``) as the services take it."""
    doubles = data.get("doubles")
    return GameInput(
        winner=data["winner"],
        cube=data["cube"],
        result=data["result"],
        ended_by=data["ended_by"],
        doubles=None
        if doubles is None
        else tuple(DoubleInput(d["by"], d["turn"], d["response"]) for d in doubles),
        game_number=game_number,
    )


def reported_game(data: dict[str, Any]) -> GameInput:
    """The game of a validated ``GameReportSerializer`` body."""
    return game_input(data, game_number=data.get("game_number"))


def games_input(data: dict[str, Any]) -> list[GameInput] | None:
    """The games of a validated body, if it has any."""
    games = data.get("games")
    return None if games is None else [game_input(g) for g in games]


def score_input(data: dict[str, Any]) -> tuple[int, int] | None:
    """The final score of a validated body, if it has one."""
    score = data.get("score")
    return None if score is None else (score[0], score[1])


class MatchReportSerializer(KeyMixin):
    """``POST /api/matches/{id}/report/``: the whole match, game by game, and its final score."""

    games = GameSerializer(many=True, min_length=1, max_length=500)  # type: ignore[call-arg]  # ListSerializer takes it; the stubs lack it
    score = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=32767),
        min_length=2,
        max_length=2,
        required=False,
        help_text="The final score [player1, player2]; checked against the games.",
    )


class RecordUploadSerializer(KeyMixin):
    """``POST /api/matches/{id}/record/`` (multipart): a ``.mat`` or ``.sgf`` file."""

    file = serializers.FileField(help_text="A .mat or GNU Backgammon .sgf match file.")
    first_is = serializers.IntegerField(
        required=False,
        help_text="When the file's names differ from the players': the id of the match "
        "player who is the file's first player.",
    )
    swap = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the names differ: true if the file's first player is player2.",
    )


class DisputeSerializer(KeyMixin):
    reason = serializers.CharField(max_length=2000, help_text="What is wrong with the result.")


class ConfirmSerializer(KeyMixin):
    pass


def final_score_field(**kwargs: Any) -> serializers.ListField:
    """A final score ``[player1, player2]``."""
    return serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=32767),
        min_length=2,
        max_length=2,
        **kwargs,
    )


def confirm_field() -> serializers.BooleanField:
    """The director's confirmation of an unlikely final score."""
    return serializers.BooleanField(
        default=False,
        help_text="Confirm an unlikely final score (answered 400 `unlikely-score` until then).",
    )


class ResolveSerializer(serializers.Serializer[Any]):
    """``POST /api/matches/{id}/resolve/``: a director's final decision.

    Without ``games``, ``submission`` or ``score`` the recorded games stand (the match is
    complete if they decide it); with ``games`` or ``submission``, the recorded games
    are voided and replaced. ``score`` alone enters the final score of a match without
    games, or corrects a complete match's score: the match is decided ``score`` ("score
    only"), the player who reached the length wins.
    """

    games = GameSerializer(many=True, required=False, max_length=500)  # type: ignore[call-arg]  # ListSerializer takes it; the stubs lack it
    submission = serializers.IntegerField(
        required=False, min_value=1, help_text="Adopt the games of this submission version."
    )
    score = final_score_field(
        required=False,
        help_text="The final score alone [player1, player2]: a score-only result, entered "
        "or corrected (not with games or submission).",
    )
    confirm = confirm_field()
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "score" in attrs and ("games" in attrs or "submission" in attrs):
            raise serializers.ValidationError(
                {"score": [_("Give the final score alone, or the games: not both.")]}
            )
        return attrs


class SubmissionSerializer(serializers.ModelSerializer[Submission]):
    """One stored report, as the audit shows it."""

    submitted_by = serializers.CharField(source="submitted_by.username", default=None)
    via_player = serializers.CharField(source="via_entry.player.name", default=None)

    class Meta:
        model = Submission
        fields = [
            "version",
            "kind",
            "status",
            "submitted_by",
            "via_player",
            "as_director",
            "ip_address",
            "user_agent",
            "payload",
            "file_name",
            "error_code",
            "error_message",
            "error_detail",
            "created_at",
        ]


class QueueSerializer(serializers.Serializer[Any]):
    """What the phone holds for one match."""

    match = serializers.IntegerField(min_value=1, help_text="The match's id")
    unsent = serializers.IntegerField(
        min_value=0, max_value=10000, help_text="Reports made offline, not yet sent"
    )
    attention = serializers.IntegerField(
        min_value=0,
        max_value=10000,
        default=0,
        help_text="Reports the server refused that the player has not dealt with yet",
    )


class DeviceSyncSerializer(serializers.Serializer[Any]):
    """``POST /api/devices/sync/``: what a player's phone still holds, per match."""

    matches = serializers.ListField(child=QueueSerializer(), max_length=50)


class DeviceSyncAnswerSerializer(serializers.Serializer[Any]):
    synced_at = serializers.DateTimeField()
    matches = QueueSerializer(many=True, help_text="The matches recorded: the player's own")
