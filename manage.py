#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["checkmatch"]:
        # The match-file checker is pure Python and needs neither settings nor a database:
        # skip Django's start-up, which alone costs as much as checking a hundred matches.
        from matches.rules.check import main as checkmatch

        sys.exit(checkmatch(sys.argv[2:], prog="manage.py checkmatch"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
