from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournament import (  # noqa: F401 - connect the signal receivers
            receivers,
            receivers_ratings,
        )
