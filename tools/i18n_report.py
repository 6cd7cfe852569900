"""How much of each catalogue is translated: ``make translations`` prints it.

Reads ``locale/<lang>/LC_MESSAGES/django.po`` (a fresh ``makemessages`` extraction
merged with the translations) and counts the entries with a translation, fuzzy ones as
untranslated. A language appears in ``settings.LANGUAGES`` only from 90 %.

    python tools/i18n_report.py        # one line per language; exit 1 below 90 %
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THRESHOLD = 0.9


def _unquote(text: str) -> str:
    return str(ast.literal_eval(text))


def entries(path: Path) -> Iterator[tuple[str, list[str], set[str]]]:
    """Each entry of a .po file but its header: (msgid, its translations, its flags)."""
    msgid: list[str] = []
    strs: list[list[str]] = []
    flags: set[str] = set()
    current: list[str] | None = None
    obsolete = False

    def done() -> Iterator[tuple[str, list[str], set[str]]]:
        if msgid and not obsolete:
            text = "".join(msgid)
            if text:
                yield text, ["".join(s) for s in strs], set(flags)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            obsolete = True
            continue
        if not line:
            yield from done()
            msgid, strs, flags, current, obsolete = [], [], set(), None, False
        elif line.startswith("#,"):
            flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            current = []  # the plural's English is not counted apart
        elif line.startswith("msgid "):
            msgid = [_unquote(line[6:])]
            current = msgid
        elif line.startswith("msgstr"):
            value = line.split(" ", 1)[1]
            strs.append([_unquote(value)])
            current = strs[-1]
        elif line.startswith('"') and current is not None:
            current.append(_unquote(line))
    yield from done()


def msgids(path: Path) -> list[str]:
    return [msgid for msgid, _strs, _flags in entries(path)]


def msgstrs(path: Path) -> list[str]:
    return [s for _msgid, strs, _flags in entries(path) for s in strs if s]


def report() -> dict[str, tuple[int, int]]:
    """Per language: (translated entries, all entries) of its django.po."""
    counts = {}
    for po in sorted((ROOT / "locale").glob("*/LC_MESSAGES/django.po")):
        found = list(entries(po))
        done = sum(1 for _m, strs, flags in found if all(strs) and "fuzzy" not in flags)
        counts[po.parent.parent.name] = (done, len(found))
    return counts


def main() -> int:
    low = 0
    for lang, (done, total) in report().items():
        share = done / total if total else 0.0
        low += share < THRESHOLD
        print(f"{lang}: {done}/{total} translated ({share:.1%})")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
