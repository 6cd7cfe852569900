"""Fail on merge-conflict markers committed in any tracked text file.

A conflict once sat in bench/RESULTS.md for a day (issue 27). Run by ``make lint``:
``git grep`` over the tracked files, so it sees what a commit would carry.
"""

from __future__ import annotations

import subprocess
import sys

#: A line that starts with seven of <, |, = or > (and nothing but a label after them):
#: what git writes (``|||||||`` opens the common ancestor's side in the diff3 and zdiff3
#: styles). Markdown's "=======" underline of a heading is told apart by the file: it
#: counts only where one of the other markers is.
PATTERN = r"^(<{7}|>{7}|\|{7})( .*)?$|^={7}$"

#: What a marker line other than ``=======`` starts with.
OPENERS = ("<" * 7, ">" * 7, "|" * 7)


def markers() -> list[str]:
    """``path:line:text`` of every marker line in the tracked files."""
    found = subprocess.run(
        ["git", "grep", "-n", "-I", "-E", PATTERN, "--", ".", ":!tools/lint_conflict_markers.py"],
        capture_output=True,
        text=True,
        check=False,
    )
    hits = found.stdout.splitlines()
    starts = {h.split(":", 2)[0] for h in hits if h.split(":", 2)[2].startswith(OPENERS)}
    # A lone ======= in a file with no other marker is a setext heading, not a conflict.
    return [h for h in hits if h.split(":", 2)[0] in starts]


def main() -> int:
    hits = markers()
    for hit in hits:
        print(f"merge-conflict marker: {hit}")
    if hits:
        print("Resolve the conflict: keep both sides' intent, delete the markers.")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
