"""``manage.py recompute_ratings [--reset]``: rebuild every rating from the rated matches."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from tournament.services.ratings import ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute every player's FIBS rating and rating history from the played matches, "
        "in the order they were confirmed. Each player starts where their history started "
        "(or at 1500 with no experience with --reset)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset",
            action="store_true",
            help="start every player at 1500 with no experience",
        )

    def handle(self, *args: object, reset: bool = False, **options: object) -> None:
        count = ratings_recompute(reset=reset)
        self.stdout.write(f"Rated {count} matches.")
