"""What a refused report may cost in storage.

Every report is kept (matches/services/ledger.py), so a link that sends a megabyte of
junk twenty times a second must not fill the disk. A rejected submission keeps its
file text and payload only up to a size (``STORED_TEXT_MAX``, ``STORED_PAYLOAD_MAX``),
and only for the first ``settings.REPORT_REJECTED_KEPT_PER_HOUR`` rejections of a link
in an hour; past that it keeps who, when, from where and why, without the content.
Accepted submissions are kept whole (the match file is the record).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings

from core.ratelimit import window_wait
from matches.models import Submission

#: Characters of a rejected report's file text kept; bytes of its payload as JSON.
STORED_TEXT_MAX = 64 * 1024
STORED_PAYLOAD_MAX = 16 * 1024
TRUNCATED = "\n[... cut: {n} characters not stored]"


def _payload_size(payload: Any) -> int:
    try:
        return len(json.dumps(payload, default=str))
    except (TypeError, ValueError, RecursionError):
        return STORED_PAYLOAD_MAX + 1


def _link(submission: Submission) -> str:
    """Whose budget: the credential that gave the role, never a key the client chose.

    A player's entry (by whichever of its keys or by the account), else the account (a
    director: a report key sent along is ignored by the role, so it buys no budget),
    else the address.
    """
    if submission.via_entry_id:
        return f"entry:{submission.via_entry_id}"
    if submission.submitted_by is not None:  # with its creation time: test ids are reused
        return (
            f"user:{submission.submitted_by.pk}:{submission.submitted_by.date_joined.timestamp()}"
        )
    return f"ip:{submission.ip_address or '-'}"


#: The prefix of the budget's counters (``core.ratelimit``: one window an hour per link).
BUDGET_PREFIX = "report-budget"


def _within_budget(link: str) -> bool:
    """Count one rejection of ``link``; whether it is within the hour's budget. The one
    fixed-window counter counts it (a cache that is down keeps the content: sizes are
    still capped)."""
    rate = (settings.REPORT_REJECTED_KEPT_PER_HOUR, 3600)
    return window_wait(BUDGET_PREFIX, link, rate) is None


def rejected_submission_trim(submission: Submission) -> Submission:
    """Cap what a rejected submission stores (in place); accepted ones are left whole."""
    if submission.status != Submission.Status.REJECTED:
        return submission
    if not _within_budget(_link(submission)):
        cut_text, cut_payload = len(submission.file_text), _payload_size(submission.payload)
        submission.file_text = ""
        submission.payload = {"not_stored": "too many rejected reports from this link this hour"}
        if cut_text or cut_payload:
            submission.payload["cut"] = {"file_text": cut_text, "payload": cut_payload}
        return submission
    text = submission.file_text
    if len(text) > STORED_TEXT_MAX:
        submission.file_text = text[:STORED_TEXT_MAX] + TRUNCATED.format(
            n=len(text) - STORED_TEXT_MAX
        )
    size = _payload_size(submission.payload)
    if size > STORED_PAYLOAD_MAX:
        submission.payload = {"not_stored": "payload too large", "cut": {"payload": size}}
    return submission
