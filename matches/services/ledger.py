"""Every report is kept: the one way reports reach the database.

:func:`submission_run` locks the match row, asks the report's ``decide`` function
what the report means, stores a new :class:`~matches.models.Submission` version
(accepted or rejected, with the error's code, message and location) and applies
the accepted changes, all in one transaction. A refused report is committed as a
rejected submission and its error is raised after the commit, so nothing a player
or director sends is ever lost, and nothing refused changes the score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connections, router, transaction
from django.utils.translation import gettext as _

from core.http import RequestMeta
from matches.access import Actor, HiddenMatch, NotAllowed, Role, match_role
from matches.errors import REFUSALS, AppError, Conflict, NotAuthenticated, NotFound
from matches.models import Game, Match, Submission
from matches.rows import Child, column_field, match_locked_with_key, row_insert, row_update
from matches.rules.errors import RulesError
from matches.services.idempotency import (
    KeyReused,
    StoredReport,
    key_find,
    key_replay,
    key_row,
    key_store,
)
from matches.services.report_budget import rejected_submission_trim
from matches.signals import announce_match_changed, announce_match_completed

#: Match fields a report may change.
MATCH_FIELDS = (
    "score1",
    "score2",
    "status",
    "winner",
    "decision",
    "reported_by",
    "started_at",
    "decided_at",
    "confirmed_at",
    "advanced_at",
    "flagged",
    "updated_at",
)


@dataclass(slots=True)
class Outcome:
    """What ``decide`` concluded: new games (and moves for stored ones), voiding, or a refusal.

    ``error`` set with no other change is a plain rejection. ``error`` set together
    with match changes (a conflicting report that sends the match to the director)
    keeps those changes and still stores the submission as rejected.
    """

    games: list[Game] = field(default_factory=list)
    moves: dict[int, list[Any]] = field(default_factory=dict)
    void: bool = False
    match_changed: bool = False
    completed: bool = False
    error: Exception | None = None
    payload: dict[str, Any] | None = None
    #: Every game row of the match after the report (voided ones too), when the decision
    #: knows them: handed over with the match so that showing it needs no further query.
    games_after: list[Game] | None = None
    #: Match fields the report changes besides ``MATCH_FIELDS`` (e.g. the starting score).
    fields: tuple[str, ...] = ()
    #: Run with the match once the accepted changes are written (same transaction): what
    #: the caller must change in turn (a correction's bracket moves).
    after: Callable[[Match], None] | None = None


Decide = Callable[[Match, Role], Outcome]


def error_fields(exc: Exception) -> dict[str, Any]:
    """The code, message and detail stored for a refused report (and shown by the API)."""
    if isinstance(exc, RulesError):
        return {
            "error_code": exc.code,
            "error_message": storable(exc.message),
            "error_detail": _jsonable({**exc.as_dict(), **exc.data}),
        }
    if isinstance(exc, AppError):
        return {
            "error_code": exc.code,
            "error_message": storable(exc.message),
            "error_detail": _jsonable(exc.detail),
        }
    return {"error_code": "invalid", "error_message": storable(str(exc)), "error_detail": {}}


def storable(text: str) -> str:
    """Text the database can store: PostgreSQL refuses NUL characters."""
    return text.replace("\x00", "\ufffd")


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {storable(str(k)): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, str):
        return storable(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return storable(str(value))


class MatchNotFound(NotFound):
    """No match has this id (404)."""

    def __init__(self) -> None:
        super().__init__(_("Not found."))


#: Match primary keys are 64-bit: a larger id names no match (and must not reach SQL).
ID_MAX = 2**63 - 1


def match_lock(*, match_id: int) -> Match:
    """The match row, locked until the transaction ends; 404 if there is none.

    Its event, round, entries and players are read with it (not locked): access checks
    and the answer need them.
    """
    return match_lock_with_key(match_id=match_id, key="")[0]


def match_lock_with_key(*, match_id: int, key: str) -> tuple[Match, int | None]:
    """:func:`match_lock`, and the submission ``key`` already recorded for the match, if
    any, in the same statement (``rows.match_locked_with_key``: a report's one round trip
    fewer)."""
    match, seen = match_locked_with_key(match_id, key) if 0 < match_id <= ID_MAX else (None, None)
    if match is None:
        raise MatchNotFound()
    return match, seen


def _next_version(match: Match) -> dict[str, tuple[str, list[Any]]]:
    """The submission's version, computed by the database as the row is inserted.

    The match row is locked, so no other report of it can take the same number; the
    unique constraint on (match, version) would refuse it anyway. Asking in the INSERT
    (a new snapshot, after the lock was granted) saves a query on every report.
    """
    connection = connections[router.db_for_write(Submission)]
    quote = connection.ops.quote_name
    version, match_id = (column_field(Submission, f).column for f in ("version", "match"))
    assert version is not None
    assert match_id is not None
    sql = (
        f"SELECT COALESCE(MAX({quote(version)}), 0) + 1 "
        f"FROM {quote(Submission._meta.db_table)} WHERE {quote(match_id)} = %s"
    )
    return {"version": (sql, [match.pk])}


def _submission(
    *,
    match: Match,
    kind: str,
    actor: Actor,
    role: Role | None,
    meta: RequestMeta,
    payload: dict[str, Any],
    file_name: str,
    file_text: str,
    error: Exception | None,
) -> Submission:
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    via_entry = role.entry_id if role is not None else (actor.entry.pk if actor.entry else None)
    submission = Submission(
        match=match,
        kind=kind,
        status=Submission.Status.REJECTED if error else Submission.Status.ACCEPTED,
        submitted_by=user,
        via_entry_id=via_entry,
        as_director=bool(role and role.director),
        ip_address=meta.ip,
        user_agent=storable(meta.user_agent[:300]),
        payload=_jsonable(payload),
        file_name=storable(file_name[:200]),
        file_text=storable(file_text),
        **(error_fields(error) if error else {}),
    )
    return rejected_submission_trim(submission)  # a refusal's storage is capped


def submission_run(
    *,
    match_id: int,
    kind: str,
    actor: Actor,
    meta: RequestMeta,
    payload: dict[str, Any],
    decide: Decide,
    role_of: Callable[..., Role] = match_role,
    file_name: str = "",
    file_text: str = "",
    prelock: Callable[[], None] | None = None,
    undoable: bool = False,
    idempotency_key: str = "",
) -> Match:
    """Lock the match, decide, store the submission and apply the outcome; raise a refusal.

    ``idempotency_key``: a report sent again with the key it first came with is answered
    as it was then (the match, or the same refusal) and records nothing
    (``matches.services.idempotency``); the returned match's ``replayed`` is then true.

    Who may act is checked first: a request by somebody who may not act on the
    match is answered 401/403 and is not a report about it. ``prelock`` runs first in
    the transaction (a caller that must lock more rows, in its order). ``undoable``
    decisions write rows of their own before they may still refuse: they run in a
    savepoint, so that a refusal leaves nothing of them behind.
    """
    try:
        with transaction.atomic():
            if prelock is not None:
                prelock()
            match, key_seen = match_lock_with_key(match_id=match_id, key=idempotency_key)
            role: Role | None = None
            stored: StoredReport | None = None
            try:  # a refused role (own-match) is kept as a rejected submission too
                role = role_of(match=match, actor=actor)
                if key_seen is not None:
                    stored = key_replay(
                        match_id=match.pk,
                        key=idempotency_key,
                        kind=kind,
                        payload=_jsonable(payload),
                    )
                if stored is not None:
                    outcome = Outcome()
                elif undoable:
                    with transaction.atomic():
                        outcome = decide(match, role)
                else:
                    outcome = decide(match, role)
            except (NotAuthenticated, NotAllowed, HiddenMatch):  # not a report about the match
                raise
            except REFUSALS as exc:  # stored as rejected; anything else is a bug: it propagates
                if undoable:
                    match = match_lock(match_id=match_id)  # as it is again in the database
                outcome = Outcome(error=exc)
            if stored is not None:  # sent again: answered as the first time, nothing stored
                return _replayed(match, stored)
            submission = _submission(
                match=match,
                kind=kind,
                actor=actor,
                role=role,
                meta=meta,
                payload=outcome.payload if outcome.payload is not None else payload,
                file_name=file_name,
                file_text=file_text,
                error=outcome.error,
            )
            children: list[Child] = []
            if idempotency_key and not isinstance(outcome.error, KeyReused):
                key = key_row(match_id=match.pk, key=idempotency_key, error=outcome.error)
                children.append((key, "submission_id"))
            game = _game_with_submission(match, outcome)
            if game is not None:
                children.append((game, "submission_id"))
            row_insert(submission, computed=_next_version(match), children=children)
            _apply(match, outcome, submission, game_inserted=game is not None)
    except IntegrityError:
        # Two reports got past the row lock at once: the database's unique constraints
        # kept the second out. With a key, that is a copy of this report committed while
        # this one waited for the lock (the key was read before the lock was granted):
        # answered as a replay of that copy, nothing stored twice.
        error: AppError = Conflict(
            _("Another report of this match was recorded at the same moment; reload the match."),
            code="conflict",
        )
        if idempotency_key:
            stored = key_find(match_id=match_id, key=idempotency_key)
            if stored is not None:
                if stored.kind == kind and stored.payload == _jsonable(payload):
                    with transaction.atomic():
                        return _replayed(match_lock(match_id=match_id), stored)
                error = KeyReused(idempotency_key)
        submission_reject(
            match_id=match_id, kind=kind, actor=actor, meta=meta, payload=payload, error=error
        )
        raise error from None
    if outcome.error is not None:
        raise outcome.error
    return match


def _replayed(match: Match, stored: StoredReport) -> Match:
    """The answer to a report sent again: the match as it is now, or the first refusal."""
    refusal = stored.refusal()
    if refusal is not None:
        refusal.replayed = True
        raise refusal
    match.replayed = True
    return match


def _game_with_submission(match: Match, outcome: Outcome) -> Game | None:
    """The report's one new game when it can go in with its submission (one statement);
    not after a void, which must come first (it voids every game of the match)."""
    if outcome.error is not None or outcome.void or len(outcome.games) != 1:
        return None
    game = outcome.games[0]
    game.match = match
    return game


def _apply(
    match: Match, outcome: Outcome, submission: Submission, *, game_inserted: bool = False
) -> None:
    if outcome.void:
        Game.objects.filter(match_id=match.pk, voided=False).update(voided=True)
    for game_id, moves in outcome.moves.items():
        Game.objects.filter(pk=game_id).update(moves=moves)
    if game_inserted:
        outcome.games[0].submission = submission
    elif outcome.games:
        for game in outcome.games:
            game.match = match
            game.submission = submission
        if len(outcome.games) == 1:
            row_insert(outcome.games[0])
        else:
            Game.objects.bulk_create(outcome.games)
    if outcome.match_changed:
        row_update(match, MATCH_FIELDS + outcome.fields)
        announce_match_changed(match.pk, match.event_id, tournament_id=match.event.tournament_id)
    if outcome.after is not None and outcome.error is None:
        outcome.after(match)
    if outcome.completed:
        announce_match_completed(match.pk, match.event_id)
    if outcome.games_after is not None and outcome.error is None:
        match.games_after = outcome.games_after
        winner = Match._meta.get_field("winner")
        if match.winner_id is not None and not winner.is_cached(match):
            match.winner = match.entry1 if match.winner_id == match.entry1_id else match.entry2


def submission_reject(
    *,
    match_id: int,
    kind: str,
    actor: Actor,
    meta: RequestMeta,
    payload: dict[str, Any],
    error: Exception,
    role_of: Callable[..., Role] = match_role,
    file_name: str = "",
    file_text: str = "",
    idempotency_key: str = "",
) -> Submission | None:
    """Store a report refused before it could be read (bad input) as a rejected submission.

    Raises 401/403/404 like any report when the actor may not act on the match. The same
    report sent again with its ``idempotency_key`` is not stored again (``None``); the
    key sent with another report raises ``idempotency-key-reused``.
    """
    with transaction.atomic():
        match = match_lock(match_id=match_id)
        role = role_of(match=match, actor=actor)
        if idempotency_key and key_replay(
            match_id=match.pk, key=idempotency_key, kind=kind, payload=_jsonable(payload)
        ):
            return None
        submission = _submission(
            match=match,
            kind=kind,
            actor=actor,
            role=role,
            meta=meta,
            payload=payload,
            file_name=file_name,
            file_text=file_text,
            error=error,
        )
        row_insert(submission, computed=_next_version(match))
        if idempotency_key:
            key_store(match_id=match.pk, key=idempotency_key, submission=submission, error=error)
    return submission
