"""``make lint``: no unmarked text in the templates, and every catalogue compiles.

1. Every template under ``templates/`` (``.html`` and the emails' ``.txt``): text between
   tags, the attributes a reader meets (``title``, ``placeholder``, ``alt``, ``hx-confirm``,
   every ``aria-*`` but those that hold tokens or ids, every ``data-*``, the ``value`` of a
   text or button ``<input>``), and the string literals given to template filters
   (``default:"none"``) must sit inside ``{% translate %}`` / ``{% blocktranslate %}`` (or
   ``_("...")``) when they have a letter in them. Template tags, variables, comments,
   ``<script>`` and ``<style>`` are not text. A line may opt out with ``{# i18n: skip #}``
   (a name or a code shown as is).
2. ``msgfmt --check`` on every ``locale/*/LC_MESSAGES/*.po``: the format strings agree
   with their msgids, and nothing is fuzzy.

Exit status 1 with each finding as ``path:line: text``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TOKEN = re.compile(
    r"(\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}|<!--.*?-->|<(?:[a-zA-Z/!])(?:[^>{]|\{[%{#].*?[%}#]\}|\{)*>)",
    re.S,
)
ATTRS = re.compile(
    r'(?<![\w-])(title|placeholder|alt|value|hx-confirm|aria-[a-z]+|data-[a-z][a-z0-9-]*)="'
    r'((?:\{[%{#].*?[%}#]\}|[^"])*)"',
    re.S,
)
#: ``aria-*`` attributes that hold tokens or element ids, not words.
ARIA_TOKENS = {
    "aria-activedescendant", "aria-atomic", "aria-autocomplete", "aria-busy",
    "aria-checked", "aria-colcount", "aria-colindex", "aria-colspan", "aria-controls",
    "aria-current", "aria-describedby", "aria-details", "aria-disabled", "aria-errormessage",
    "aria-expanded", "aria-flowto", "aria-haspopup", "aria-hidden", "aria-invalid",
    "aria-labelledby", "aria-level", "aria-live", "aria-modal", "aria-multiline",
    "aria-multiselectable", "aria-orientation", "aria-owns", "aria-posinset", "aria-pressed",
    "aria-readonly", "aria-relevant", "aria-required", "aria-rowcount", "aria-rowindex",
    "aria-rowspan", "aria-selected", "aria-setsize", "aria-sort", "aria-valuemax",
    "aria-valuemin", "aria-valuenow",
}  # fmt: skip
#: ``<input>`` types whose ``value`` is not shown as text.
UNSHOWN_VALUES = {
    "hidden", "checkbox", "radio", "number", "date", "datetime-local", "time", "month",
    "week", "range", "color", "file",
}  # fmt: skip
INPUT_TYPE = re.compile(r'\btype="([a-z-]+)"', re.I)
#: A filter's string argument in a variable or tag: ``|default:"none"``.
FILTER_LITERAL = re.compile(r"""\|\s*(\w+)\s*:\s*(?:"([^"]*)"|'([^']*)')""")
#: Filters whose argument is a format, a separator or a code, not text to read.
FORMAT_FILTERS = {
    "date", "time", "cut", "join", "stringformat", "floatformat", "slice",
    "truncatechars", "truncatewords", "urlencode", "timesince", "timeuntil", "divisibleby",
}  # fmt: skip
BLOCK = re.compile(r"\{%\s*blocktrans(late)?\b.*?\{%\s*endblocktrans(late)?\s*%\}", re.S)
LETTER = re.compile(r"[^\W\d_]", re.U)
ENTITY = re.compile(r"&[a-zA-Z]+;|&#x?[0-9a-fA-F]+;")
#: Opening tokens whose content is not text, and the token that ends them.
SKIP = [
    (re.compile(r"<script\b", re.I), re.compile(r"</script", re.I)),
    (re.compile(r"<style\b", re.I), re.compile(r"</style", re.I)),
    (re.compile(r"\{%\s*block body_class\b"), re.compile(r"\{%\s*endblock\b")),
    (
        re.compile(r"\{%\s*(comment|verbatim|blocktranslate|blocktrans)\b"),
        re.compile(r"\{%\s*end(comment|verbatim|blocktranslate|blocktrans)\b"),
    ),
]
#: Text that stays as it is in every language (symbols, units shown as such).
KEPT = {"PR", "v", "\u00d7"}


def has_letters(text: str) -> bool:
    text = ENTITY.sub("", text).strip()
    return bool(LETTER.search(text)) and text not in KEPT


def _shown_value(tag: str) -> bool:
    """Whether a tag's ``value`` is text a reader sees: a text or button ``<input>``."""
    if not re.match(r"<input\b", tag, re.I):
        return False
    found = INPUT_TYPE.search(re.sub(r"\{[%{#].*?[%}#]\}", "", tag))
    return found is None or found.group(1).lower() not in UNSHOWN_VALUES


def findings_in(src: str) -> list[tuple[int, str]]:
    """Unmarked text in a template's source: (line, text) each."""
    skipped_lines = {n for n, line in enumerate(src.splitlines(), 1) if "{# i18n: skip #}" in line}
    found: list[tuple[int, str]] = []

    def report(offset: int, text: str) -> None:
        line = src.count("\n", 0, offset) + 1
        if line not in skipped_lines:
            found.append((line, " ".join(text.split())[:80]))

    pos = 0
    until: re.Pattern[str] | None = None
    for m in TOKEN.finditer(src):
        text, token = src[pos : m.start()], m.group(0)
        if until is None and has_letters(text):
            report(pos, text)
        pos = m.end()
        if until is not None:
            if until.match(token):
                until = None
            continue
        for start, end in SKIP:
            if start.match(token):
                until = end
                break
        if token.startswith(("{{", "{%")):
            for f in FILTER_LITERAL.finditer(token):
                literal = f.group(2) if f.group(2) is not None else f.group(3)
                if f.group(1) not in FORMAT_FILTERS and has_letters(literal):
                    report(m.start(), f"{f.group(1)}:{literal!r} in {token[:60]}")
        if token.startswith("<") and not token.startswith("<!--"):
            for a in ATTRS.finditer(token):
                name = a.group(1)
                if name in ARIA_TOKENS or (name == "value" and not _shown_value(token)):
                    continue
                value = re.sub(BLOCK, "", a.group(2))
                value = re.sub(r"\{[%{#].*?[%}#]\}", "", value)
                if has_letters(value):
                    report(m.start(), f'{name}="{a.group(2)}"')
    if until is None and has_letters(src[pos:]):
        report(pos, src[pos:])
    return found


def findings(path: Path) -> list[tuple[int, str]]:
    return findings_in(path.read_text())


def check_templates(root: Path = ROOT) -> int:
    bad = 0
    for path in sorted((root / "templates").rglob("*")):
        if path.suffix not in {".html", ".txt"}:
            continue
        for line, text in findings(path):
            print(f"{path.relative_to(root)}:{line}: unmarked text: {text}")
            bad += 1
    return bad


def check_catalogues(root: Path = ROOT) -> int:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        print("msgfmt is missing: install gettext (make venv does it as root)")
        return 1
    bad = 0
    for po in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
        done = subprocess.run(
            [msgfmt, "--check", "--statistics", "-o", "/dev/null", str(po)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            print(f"{po.relative_to(root)}: msgfmt --check failed:\n{done.stderr}")
            bad += 1
        elif "fuzzy" in done.stderr:
            print(f"{po.relative_to(root)}: fuzzy entries: {done.stderr.strip()}")
            bad += 1
    return bad


def main(argv: list[str] | None = None) -> int:
    """Check the repository, or the tree ``argv[0]`` names (its templates/ and locale/)."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]).resolve() if args else ROOT
    bad = check_templates(root) + check_catalogues(root)
    if bad:
        print(f"{bad} i18n problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
