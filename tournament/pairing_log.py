"""The lines of the public pairing log (``PairingNote.text``): stored in English, as the
services write them here, and shown in the reader's language (:func:`shown`).

A stored line is read back by the patterns below, so that notes written before any
translation existed are translated too; a line they do not know is shown as stored.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

_PAIRED = re.compile(r"Round (?P<number>\d+) paired from the standings(?P<rest>(?:; [^;]+)*)\.")
_REMATCHES = re.compile(r"(?P<n>\d+) rematch\(es\) could not be avoided")
_AVOIDED = re.compile(r"(?P<n>\d+) pair\(s\) to avoid could not be")
_KEPT = re.compile(
    r"the director kept (?P<n>\d+) player\(s\) out in round (?P<round>\d+) one more round, "
    r"so that nobody has a bye"
)
_RELAXED = re.compile(r"the director relaxed (?P<n>\d+) forbidden pair\(s\) for this round")
_SWAPS = re.compile(
    r"Round 1: (?P<n>\d+) swap\(s\) of neighbouring seeds kept forbidden pairs apart; "
    r"the draw log's order is before them\."
)


def round_paired(number: int, rematches: int, avoided: int, relaxed: int, *, kept: int = 0) -> str:
    """The stored line of a round paired from the standings (``kept``: players out in the
    round before whom the director kept one more round)."""
    parts = [f"Round {number} paired from the standings"]
    if kept:
        parts.append(
            f"the director kept {kept} player(s) out in round {number - 1} one more round, "
            "so that nobody has a bye"
        )
    if rematches:
        parts.append(f"{rematches} rematch(es) could not be avoided")
    if avoided:
        parts.append(f"{avoided} pair(s) to avoid could not be")
    if relaxed:
        parts.append(f"the director relaxed {relaxed} forbidden pair(s) for this round")
    return "; ".join(parts) + "."


def draw_swaps(swaps: int) -> str:
    """The stored line of a draw that swapped seeds to keep forbidden pairs apart."""
    return (
        f"Round 1: {swaps} swap(s) of neighbouring seeds kept forbidden pairs apart; "
        "the draw log's order is before them."
    )


def _part(text: str) -> str | None:
    if found := _KEPT.fullmatch(text):
        n = int(found["n"])
        return ngettext(
            "the director kept {n} player out in round {round} one more round, so that "
            "nobody has a bye",
            "the director kept {n} players out in round {round} one more round, so that "
            "nobody has a bye",
            n,
        ).format(n=n, round=found["round"])
    if found := _REMATCHES.fullmatch(text):
        n = int(found["n"])
        return ngettext(
            "{n} rematch could not be avoided", "{n} rematches could not be avoided", n
        ).format(n=n)
    if found := _AVOIDED.fullmatch(text):
        n = int(found["n"])
        return ngettext(
            "{n} pair to avoid could not be kept apart",
            "{n} pairs to avoid could not be kept apart",
            n,
        ).format(n=n)
    if found := _RELAXED.fullmatch(text):
        n = int(found["n"])
        return ngettext(
            "the director relaxed {n} forbidden pair for this round",
            "the director relaxed {n} forbidden pairs for this round",
            n,
        ).format(n=n)
    return None


def shown(text: str) -> str:
    """A stored line in the active language (as stored if it is not one of ours)."""
    if found := _SWAPS.fullmatch(text):
        n = int(found["n"])
        return ngettext(
            "Round 1: {n} swap of neighbouring seeds kept forbidden pairs apart; "
            "the draw log's order is before it.",
            "Round 1: {n} swaps of neighbouring seeds kept forbidden pairs apart; "
            "the draw log's order is before them.",
            n,
        ).format(n=n)
    if found := _PAIRED.fullmatch(text):
        head = _("Round {number} paired from the standings").format(number=found["number"])
        rest = [p for p in found["rest"].split("; ") if p]
        parts = [_part(p) for p in rest]
        if any(p is None for p in parts):
            return text
        return _("{items}.").format(items="; ".join([head, *(p for p in parts if p)]))
    return text
