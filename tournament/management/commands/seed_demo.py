"""``manage.py seed_demo``: a demo tournament and a director login (idempotent)."""

from __future__ import annotations

import datetime as dt
import random

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from tournament.models import Player, Tournament, User

DEMO_PASSWORD = "director-demo"
FIRST = [
    "Anna",
    "Ben",
    "Carla",
    "Dmitri",
    "Elif",
    "Falafel",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kaori",
    "Luca",
    "Mona",
    "Nils",
    "Olga",
    "Paolo",
    "Rina",
    "Sven",
    "Tara",
    "Umar",
]
LAST = [
    "Ballard",
    "Robertie",
    "Magriel",
    "Woolsey",
    "Kleinman",
    "Heinrich",
    "Trice",
    "Cooke",
    "Zare",
    "Keith",
    "Tanaka",
    "Rossi",
    "Berg",
    "Novak",
    "Silva",
    "Okafor",
]


class Command(BaseCommand):
    help = "Create a demo tournament with players and a director login (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=48)

    @transaction.atomic
    def handle(self, *args: object, players: int, **options: object) -> None:
        director, _ = User.objects.get_or_create(username="director")
        director.set_password(DEMO_PASSWORD)
        director.is_staff = True
        director.save()
        tournament, _ = Tournament.objects.get_or_create(
            slug="demo-open",
            defaults={
                "name": "Demo Open",
                "venue": "Club House",
                "starts_on": dt.date.today(),
                "ends_on": dt.date.today() + dt.timedelta(days=2),
            },
        )
        tournament.directors.add(director)
        rng = random.Random(2026)
        existing = Player.objects.count()
        Player.objects.bulk_create(
            Player(
                name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i + 1}",
                rating=round(rng.gauss(1600, 150), 1),
            )
            for i in range(existing, players)
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament '{tournament.name}' ready. Director login: director / {DEMO_PASSWORD}"
            )
        )
