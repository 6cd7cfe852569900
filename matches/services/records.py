"""Uploaded match files (``.mat`` or GNU Backgammon ``.sgf``) as whole-match reports.

The rules engine reads the file and replays every game move by move; the match's
games are then taken from it. The file's two players are matched to the match's
players by name; when the names differ the reporter says which match player is
the file's first player (``first_is``), or that the file has them the other way
round (``swap``). A file that cannot be read or breaks a rule is stored as a
rejected submission whose error names the game, move and side.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, match_role
from matches.errors import AppError, Conflict, Invalid
from matches.game_moves import encode_moves
from matches.models import Match
from matches.rules.check import read_match
from matches.rules.errors import RulesError
from matches.rules.match import DoubleReport, GameReport
from matches.rules.matfile import decode
from matches.rules.record import Double, Drop, GameRecord, MatchRecord, RollPlay, Take, replay_match
from matches.selectors import match_rules
from matches.services.analysis import analysis_record_stored
from matches.services.ledger import MatchNotFound, submission_reject, submission_run
from matches.services.reporting import SideGame, whole_match_decide

#: The largest match file accepted, in bytes (a long 25-point match is about 60 kB).
DEFAULT_MAX_BYTES = 1_048_576


def max_file_bytes() -> int:
    """The upload limit (setting ``MATCH_FILE_MAX_BYTES``)."""
    return int(getattr(settings, "MATCH_FILE_MAX_BYTES", DEFAULT_MAX_BYTES))


def file_too_large(size: int) -> Invalid:
    """The refusal for an upload over the limit (HTTP 413)."""
    limit = max_file_bytes()
    return Invalid(
        _("The file is {size} bytes; match files may be at most {limit} bytes.").format(
            size=size, limit=limit
        ),
        code="file-too-large",
        status=413,
        limit=limit,
    )


def name_key(name: str) -> str:
    """A player name compared loosely: case, accents, spaces and underscores ignored.

    >>> name_key("  Zoë_van  Dijk ") == name_key("zoe van dijk")
    True
    """
    folded = unicodedata.normalize("NFKD", name.replace("_", " ")).casefold()
    return " ".join("".join(c for c in folded if not unicodedata.combining(c)).split())


@dataclass(frozen=True, slots=True)
class ReadFile:
    """A match file read and replayed: games in the match's orientation."""

    record: MatchRecord
    swapped: bool
    games: list[SideGame]
    score: tuple[int, int]


def _swapped(match: Match, record: MatchRecord, first_is: int | None, swap: bool | None) -> bool:
    """Whether the file's first player is the match's second one."""
    assert match.entry1 is not None
    assert match.entry2 is not None
    players = (match.entry1.player, match.entry2.player)
    if first_is is not None:
        for side, player in enumerate(players):
            if player.pk == first_is:
                return side == 1
        raise Invalid(
            _("Player {first_is} does not play in this match.").format(first_is=first_is),
            code="not-in-match",
            field="first_is",
        )
    if swap is not None:
        return swap
    file_names = [name_key(n) for n in record.players]
    match_names = [name_key(p.name) for p in players]
    if file_names == match_names:
        return False
    if file_names == match_names[::-1]:
        return True
    first, second = (n.replace("_", " ") for n in record.players)  # .mat files: no spaces
    raise Invalid(
        _(
            "The names in the file ({first} and {second}) are not the "
            "names of this match's players ({players_0_name} and "
            "{players_1_name}). Say which of the two is {first} in the "
            "file (“The file's first player is”) and upload it again."
        ).format(
            first=first,
            second=second,
            players_0_name=players[0].name,
            players_1_name=players[1].name,
        ),
        code="players-unmatched",
        field="first_is",
        file_players=list(record.players),
        match_players=[{"id": p.pk, "name": p.name} for p in players],
    )


def _flip(side: int, swapped: bool) -> int:
    return 1 - side if swapped else side


def _doubles(game: GameRecord, swapped: bool) -> tuple[DoubleReport, ...]:
    """The game's doubles, each with the doubler's own rolls before it, in the match's sides."""
    rolls = [0, 0]
    doubles: list[DoubleReport] = []
    pending: tuple[int, int] | None = None
    for action in game.actions:
        if isinstance(action, RollPlay):
            rolls[action.side] += 1
        elif isinstance(action, Double):
            pending = (action.side, rolls[action.side])
        elif isinstance(action, (Take, Drop)) and pending is not None:
            response = "take" if isinstance(action, Take) else "drop"
            doubles.append(DoubleReport(_flip(pending[0], swapped), pending[1], response))
            pending = None
    return tuple(doubles)


def record_read(
    *, match: Match, data: bytes, first_is: int | None = None, swap: bool | None = None
) -> ReadFile:
    """Read and replay a match file for ``match``; raise the engine's first error."""
    record = read_match(data)
    if record.length != match.length:
        raise Invalid(
            _(
                "The file is a {record_length}-point match; this match is {match_length} points."
            ).format(record_length=record.length, match_length=match.length),
            code="length-mismatch",
            file_length=record.length,
        )
    swapped = _swapped(match, record, first_is, swap)
    start = (match.start_score1, match.start_score2)
    file_start = start[::-1] if swapped else start
    replay = replay_match(record, match_rules(match), file_start)
    if replay.error is not None:
        raise replay.error
    games: list[SideGame] = []
    for game, played in zip(record.games, replay.games, strict=True):
        report = GameReport(
            winner=_flip(played.winner, swapped),
            cube=played.cube,
            result=played.result,
            ended_by=played.ended_by,
        )
        moves = encode_moves(game.actions, swapped=swapped)
        games.append(SideGame(report=report, moves=moves, doubles=_doubles(game, swapped)))
    state = replay.state
    score = state.score[::-1] if swapped else state.score
    return ReadFile(record=record, swapped=swapped, games=games, score=(score[0], score[1]))


def _payload(
    match: Match, read: ReadFile | None, first_is: int | None, swap: bool | None
) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    if first_is is not None:
        payload["first_is"] = first_is
    if swap is not None:
        payload["swap"] = swap
    if read is None:
        return payload
    assert match.entry1 is not None
    assert match.entry2 is not None
    ids = (match.entry1.player_id, match.entry2.player_id)
    payload["file_players"] = list(read.record.players)
    payload["swapped"] = read.swapped
    payload["score"] = list(read.score)
    payload["games"] = [
        {
            "winner": ids[g.report.winner],
            "cube": g.report.cube,
            "result": str(g.report.result),
            "ended_by": str(g.report.ended_by),
            "doubles": [
                {"by": ids[d.by], "turn": d.turn, "response": str(d.response)}
                for d in g.doubles or ()
            ],
        }
        for g in read.games
    ]
    return payload


def record_upload(
    *,
    match_id: int,
    actor: Actor,
    file_name: str,
    data: bytes,
    meta: RequestMeta,
    first_is: int | None = None,
    swap: bool | None = None,
    idempotency_key: str = "",
) -> Match:
    """Report a whole match by its file; the engine replays it before anything is stored.

    ``idempotency_key``: the same file sent again with it records nothing and is answered
    as the first time (``matches.services.idempotency``): the file is read again (reading
    stores nothing), and its report is then found by its key."""
    match = (
        Match.objects.select_related("event", "entry1__player", "entry2__player")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise MatchNotFound()
    match_role(match=match, actor=actor)  # 401/403 before the file is even read
    text = decode(data)
    common: dict[str, Any] = {
        "match_id": match_id,
        "kind": "record",
        "actor": actor,
        "meta": meta,
        "file_name": file_name,
        "file_text": text,
        "idempotency_key": idempotency_key,
    }
    read: ReadFile | None = None
    try:
        if len(data) > max_file_bytes():
            raise file_too_large(len(data))
        if None in (match.entry1, match.entry2) or match.is_bye:
            raise Conflict(_("This match is not ready to be played yet."), code="match-not-ready")
        read = record_read(match=match, data=data, first_is=first_is, swap=swap)
    except (RulesError, AppError) as exc:
        kept = submission_reject(payload=_payload(match, None, first_is, swap), error=exc, **common)
        if kept is None:  # sent again with its key: the same refusal, nothing stored
            exc.replayed = True
        raise
    expected = (match.entry1_id, match.entry2_id, match.start_score1, match.start_score2)

    def games(locked: Match) -> list[SideGame]:
        now = (locked.entry1_id, locked.entry2_id, locked.start_score1, locked.start_score2)
        if now != expected:
            raise Conflict(_("The match changed while the file was read; upload it again."))
        return read.games

    stored = submission_run(
        payload=_payload(match, read, first_is, swap),
        decide=whole_match_decide(games, None),
        **common,
    )
    # GNU Backgammon analyses the accepted file in the background (its own queue); it
    # never changes the result. A file sent again was analysed the first time.
    if not stored.replayed:
        analysis_record_stored(match_id=match_id)
    return stored
