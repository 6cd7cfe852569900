from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournament import (  # noqa: F401 - register the checks, connect the receivers
            checks,
            tasks,  # the receivers sit beside the tasks they queue
        )
