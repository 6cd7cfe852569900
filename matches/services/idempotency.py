"""Idempotency keys: a report sent again is answered as it was the first time, never recorded twice.

A client (a phone sending its queue of reports made offline, a script retrying after a
timeout) names each report with an ``Idempotency-Key``. The first report with a key is
decided and stored as any other, and the key is written beside its submission in the
same transaction (:func:`key_store`). A report arriving again with the key, on the same
match, is looked up under the match's row lock (:func:`key_replay`: one indexed query)
and answered from what was stored: the match for an accepted report, the same refusal
for a refused one. Nothing is decided, nothing stored. The same key with another report
(another kind or other fields) is a client's mistake, refused as ``idempotency-key-reused``.

Keys are kept :data:`KEPT_HOURS` (``REPORT_KEY_HOURS``, at least a weekend) and then
swept (:func:`report_keys_sweep`, a Celery beat job); the submissions stay forever.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connections, router
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.errors import AppError, Invalid
from matches.models import ReportKey, Submission
from matches.rows import row_insert
from matches.rules_text import translated

#: The longest key taken (a UUID is 36 characters).
KEY_MAX = 100
#: Hours a key is kept, at the least: a Friday-to-Monday weekend is 72.
KEPT_HOURS_MIN = 72


def kept_hours() -> int:
    """How long keys are kept (``REPORT_KEY_HOURS``, never under :data:`KEPT_HOURS_MIN`)."""
    return max(int(getattr(settings, "REPORT_KEY_HOURS", 96)), KEPT_HOURS_MIN)


def key_checked(value: str | None) -> str:
    """The key a request sent (blank: none), or a 400 naming the header for a bad one.

    Printable ASCII without spaces, 1 to 100 characters: a UUID fits; a key that could
    not be stored or logged as sent is refused rather than cut.
    """
    if value is None or value == "":
        return ""
    if len(value) > KEY_MAX or not all(33 <= ord(c) <= 126 for c in value):
        raise Invalid(
            _(
                "Idempotency-Key: at most {count} printable characters without spaces "
                "(a UUID, for instance)."
            ).format(count=KEY_MAX),
            code="invalid",
            field="Idempotency-Key",
        )
    return value


#: The hidden field of the pages' forms that carries the key (the header's stand-in): the
#: page generates it, so a form sent twice (a second tap, the browser's resend) is one report.
KEY_FIELD = "idempotency_key"


def key_sent(headers: Mapping[str, str], form: Mapping[str, Any]) -> str:
    """The key of a request to a page: the ``Idempotency-Key`` header (a script), else the
    form's hidden :data:`KEY_FIELD`; checked as :func:`key_checked` checks it."""
    value = headers.get("Idempotency-Key") or form.get(KEY_FIELD)
    return key_checked(value if isinstance(value, str) else None)


class KeyReused(Invalid):
    """The key already named another report (400)."""

    def __init__(self, key: str) -> None:
        super().__init__(
            _(
                "Idempotency-Key {key} was already used for another report of this match: "
                "use a new key for each report."
            ).format(key=key),
            code="idempotency-key-reused",
            field="Idempotency-Key",
        )


@dataclass(frozen=True, slots=True)
class StoredReport:
    """What a key's first report came to: its submission and the refusal's HTTP status
    (``0``: accepted)."""

    submission_id: int
    kind: str
    payload: Any
    status: int
    error_code: str
    error_message: str
    error_detail: Any

    def refusal(self) -> AppError | None:
        """The refusal as first answered (the same status, code, message and detail)."""
        if not self.status:
            return None
        # Stored as first written (a rules refusal in the engine's English): read in the
        # active language.
        error = AppError(translated(self.error_message), code=self.error_code, status=self.status)
        error.detail = self.error_detail if isinstance(self.error_detail, dict) else {}
        return error


@functools.cache
def _lookup_sql(using: str) -> str:
    quote = connections[using].ops.quote_name
    k, s = ReportKey._meta, Submission._meta

    def col(meta: Any, name: str) -> str:
        return quote(meta.get_field(name).column)

    return (
        f"SELECT s.{quote('id')}, s.{col(s, 'kind')}, s.{col(s, 'payload')}, k.{col(k, 'status')}, "
        f"s.{col(s, 'error_code')}, s.{col(s, 'error_message')}, s.{col(s, 'error_detail')} "
        f"FROM {quote(k.db_table)} k JOIN {quote(s.db_table)} s "
        f"ON s.{quote('id')} = k.{col(k, 'submission')} "
        f"WHERE k.{col(k, 'match')} = %s AND k.{col(k, 'key')} = %s"
    )


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def key_find(*, match_id: int, key: str) -> StoredReport | None:
    """The report first sent with ``key`` on the match (one indexed query), if any."""
    using = router.db_for_read(ReportKey)
    with connections[using].cursor() as cursor:
        cursor.execute(_lookup_sql(using), [match_id, key])
        row = cursor.fetchone()
    if row is None:
        return None
    sid, kind, payload, status, code, message, detail = row
    return StoredReport(sid, kind, _json(payload), status, code, message, _json(detail))


def key_replay(*, match_id: int, key: str, kind: str, payload: Any) -> StoredReport | None:
    """The stored report when ``key`` was already used for this same report; ``None`` for
    a new key; :class:`KeyReused` when the key named another report.

    Call it with the match row locked: a second copy sent while the first is being
    decided waits for it, then finds its key.
    """
    stored = key_find(match_id=match_id, key=key)
    if stored is None:
        return None
    if stored.kind != kind or stored.payload != payload:
        raise KeyReused(key)
    return stored


def key_row(*, match_id: int, key: str, error: Exception | None) -> ReportKey:
    """The row that writes ``key`` beside the submission it records (not saved: the
    ledger inserts it with the submission, ``rows.row_insert``'s children)."""
    status = 0
    if error is not None:
        status = error.status if isinstance(error, AppError) else 400
    return ReportKey(match_id=match_id, key=key, status=status)


def key_store(*, match_id: int, key: str, submission: Submission, error: Exception | None) -> None:
    """Write ``key`` beside the submission it recorded (in the report's transaction)."""
    row = key_row(match_id=match_id, key=key, error=error)
    row.submission = submission
    row_insert(row)


def report_keys_sweep(*, now: dt.datetime | None = None) -> int:
    """Delete the keys older than :func:`kept_hours`; how many went."""
    cutoff = (now or timezone.now()) - dt.timedelta(hours=kept_hours())
    deleted, _ = ReportKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
