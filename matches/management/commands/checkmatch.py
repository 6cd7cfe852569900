"""``python manage.py checkmatch [--json] [--holland] [--no-crawford] [--jacoby] [--start-score A-B] FILE...``

Checks .mat and .sgf match files against the rules; exits 0 when every file is
valid, 1 when any is not, 2 on a usage or read error. The checking itself is the
rules engine's (:mod:`matches.rules.check`); this command only wires it to Django's
command line. It needs no database.
"""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from matches.rules.check import add_arguments, check_paths, exit_code, options_from, render


class Command(BaseCommand):
    help = "Check backgammon match files (.mat, .sgf): every roll, play, cube action and score."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: ArgumentParser) -> None:
        add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        reports, unreadable = check_paths(options["files"], options_from(options))
        self.stdout.write(render(reports, as_json=options["json"]))
        code = exit_code(reports, unreadable)
        if code:
            sys.stdout.flush()
            raise SystemExit(code)
