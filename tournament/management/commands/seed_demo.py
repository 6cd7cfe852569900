"""``manage.py seed_demo [--players N] [--reset]``: a realistic, partly played weekend.

The Demo Open: a Main (single elimination, 11-point matches, 13 from the
quarter-finals, 17 in the final) whose round-1 and round-2 losers drop into a
9-point Consolation, a Last Chance for players out of both, and a Swiss side
event. Everything goes through the services a director's console uses (entries,
draw, rounds, results checked by the rules engine, bracket advance), so the data
is what a real event leaves. Running it again changes nothing (``--reset``
rebuilds the tournament). Prints the director's login.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from core.http import RequestMeta
from matches.access import Actor
from matches.models import Game, Match, Submission
from matches.rules.match import MatchRules, MatchState
from matches.services.reporting import GameInput, game_report, match_report
from matches.signals import match_completing
from tournament import page_cache
from tournament.formats.single_elimination import bracket_rounds
from tournament.models import Entry, Event, Player, Round, Tournament, User
from tournament.services.advance import match_advance
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_register
from tournament.services.events import event_create
from tournament.services.payments import entries_mark_paid
from tournament.services.ratings import ratings_recompute
from tournament.services.results import GameResult, match_result_enter
from tournament.services.rounds import event_next_round, round_start
from tournament.services.tournaments import tournament_create
from tournament.tasks.advance import queue_advance_match
from tournament.tasks.ratings import queue_rate_match

DEMO_SLUG = "demo-open"
DEMO_USER = "director"
DEMO_PASSWORD = "director-demo"
FIRST = [
    "Anna", "Ben", "Carla", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas",
    "Kaori", "Luca", "Mona", "Nils", "Olga", "Paolo", "Rina", "Sven", "Tara", "Umar",
    "Vera", "Wim", "Yara", "Zoltan",
]  # fmt: skip
LAST = [
    "Ballard", "Robertie", "Magriel", "Woolsey", "Kleinman", "Heinrich", "Trice", "Cooke",
    "Zare", "Keith", "Tanaka", "Rossi", "Berg", "Novak", "Silva", "Okafor", "Lindqvist",
    "Moreau", "Haddad", "Kowalski",
]  # fmt: skip
CLUBS = ["Nordic BG", "Club Lisboa", "Tavla Istanbul", "Backgammon Berlin", "Osaka Dice", ""]


@contextmanager
def bulk_load() -> Iterator[None]:
    """Build without the per-match follow-up tasks: the command moves each bracket on itself
    (``match_advance``), recomputes the ratings once at the end and refreshes the pages;
    the demo's players have no email, so no notification is lost."""
    receivers = [
        (queue_advance_match, "tournament.tasks.advance.queue_advance_match"),
        (queue_rate_match, "tournament.tasks.ratings.queue_rate_match"),
    ]
    for receiver, uid in receivers:
        match_completing.disconnect(receiver, dispatch_uid=uid)
        match_completing.disconnect(receiver)
    try:
        yield
    finally:
        for receiver, uid in receivers:
            match_completing.connect(receiver, dispatch_uid=uid)


def main_lengths(players: int) -> list[int]:
    """11-point matches, 13 from the quarter-finals, 17 in the final."""
    rounds = bracket_rounds(players)
    return [17 if r == rounds else 13 if r >= rounds - 2 else 11 for r in range(1, rounds + 1)]


class Games:
    """Realistic games: cubes turned now and then, gammons, drops, the Crawford game for 1."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def one(self, state: MatchState, rules: MatchRules, winner: int) -> GameResult:
        rng = self.rng
        if state.is_crawford_game(rules):
            cube = 1
        else:
            cube = rng.choices([1, 2, 4, 8], weights=[52, 34, 11, 3])[0]
        ended_by = "play"
        if cube > 1 and rng.random() < 0.35:
            ended_by = "drop"  # the cube shows the value before the refused redouble
        elif rng.random() < 0.1:
            ended_by = "resign"
        result = "single"
        if ended_by != "drop":
            result = rng.choices(["single", "gammon", "backgammon"], weights=[74, 23, 3])[0]
        return GameResult(winner=winner + 1, cube=cube, result=result, ended_by=ended_by)

    def match(
        self, length: int, start: tuple[int, int], favourite: int, edge: float
    ) -> list[GameResult]:
        """Games until the match is over; ``favourite`` (0 or 1) wins each game with ``edge``."""
        rules = MatchRules(length=length)
        state = MatchState.start(length, start)
        games: list[GameResult] = []
        while not state.is_over:
            winner = favourite if self.rng.random() < edge else 1 - favourite
            game = self.one(state, rules, winner)
            factor = {"single": 1, "gammon": 2, "backgammon": 3}[game.result]
            games.append(game)
            state = state.after_game(winner, game.cube * factor)
        return games


class Command(BaseCommand):
    help = "Build the Demo Open: a partly played Main, Consolation, Last Chance and Swiss."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=48, help="Players in the Main (8+).")
        parser.add_argument(
            "--reset", action="store_true", help="Delete the Demo Open first and build it again."
        )

    def handle(self, *args: object, players: int, reset: bool, **options: object) -> None:
        if players < 8:
            raise CommandError("--players must be at least 8 (a Main feeding a Consolation).")
        started = time.perf_counter()
        self.rng = random.Random(2026)
        self.games = Games(self.rng)
        director = self._director()
        existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if existing is not None and reset:
            self._delete(existing)
            existing = None
        if existing is not None and existing.events.exists():
            self._done(existing, director, "already there (use --reset to rebuild it)", started)
            return
        if existing is not None:
            existing.delete()
        tournament = tournament_create(
            name="Demo Open",
            slug=DEMO_SLUG,
            director=director,
            venue="Club House",
            currency="EUR",
            starts_on=dt.date.today(),
            ends_on=dt.date.today() + dt.timedelta(days=2),
        )
        field = self._players(players)
        with bulk_load(), transaction.atomic():  # one commit, no per-match follow-up tasks
            self._weekend(tournament, director, field)
        ratings_recompute()
        for event in tournament.events.all():
            page_cache.invalidate_event(event.pk, tournament.pk)
        self._done(tournament, director, "built", started)

    # ---- building blocks ---------------------------------------------------------------

    def _director(self) -> User:
        director, _ = User.objects.get_or_create(username=DEMO_USER)
        director.set_password(DEMO_PASSWORD)
        director.is_staff = True
        director.save()
        return director

    def _delete(self, tournament: Tournament) -> None:
        with transaction.atomic():
            events = list(tournament.events.all())
            Game.objects.filter(match__event__in=events).delete()
            Submission.objects.filter(match__event__in=events).delete()
            Match.objects.filter(event__in=events).delete()
            Entry.objects.filter(event__in=events).delete()
            tournament.delete()

    def _players(self, count: int) -> list[Player]:
        """The demo's players, made once (their names are the same every run)."""
        names = [f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)} {k + 1}" for k in range(count)]
        known = {p.name: p for p in Player.objects.filter(name__in=names)}
        missing = [
            Player(
                name=name,
                club=self.rng.choice(CLUBS),
                country=self.rng.choice(["", "DK", "PT", "TR", "DE", "JP", "US"]),
                rating=round(self.rng.gauss(1600, 150), 1),
                notify=False,
            )
            for name in names
            if name not in known
        ]
        Player.objects.bulk_create(missing)
        known.update({p.name: p for p in Player.objects.filter(name__in=names)})
        return [known[name] for name in names]

    def _weekend(self, tournament: Tournament, director: User, field: list[Player]) -> None:
        main = event_create(
            tournament=tournament,
            name="Main",
            match_lengths=main_lengths(len(field)),
            entry_fee=Decimal(60),
            payout_split=[50, 30, 20],
        )
        consolation = event_create(
            tournament=tournament,
            name="Consolation",
            match_lengths=[9],
            feeds_from=main,
            feed_rounds=[1, 2],
        )
        last_chance = event_create(
            tournament=tournament,
            name="Last Chance",
            kind=Event.Kind.LAST_CHANCE,
            match_lengths=[7, 7, 9],
            entry_fee=Decimal(20),
            payout_split=[70, 30],
        )
        swiss = event_create(
            tournament=tournament,
            name="Saturday Swiss",
            format=Event.Format.SWISS,
            kind=Event.Kind.SIDE,
            match_lengths=[5],
            rounds=5,
        )
        self._register(main, field, director)
        draw_make(event=main, method="rating", by=director)

        # Main round 1 and 2 played; the Consolation's round 1 (fed by Main round 1) played.
        self._start(main, 1)
        self._play_round(main, 1, director)
        self._start(consolation, 1)
        self._start(main, 2)
        self._play_round(main, 2, director)
        self._play_round(consolation, 1, director)
        # Main round 3 and Consolation round 2 under way: some decided, some in play.
        self._start(main, 3)
        self._start(consolation, 2)
        self._play_round(main, 3, director, share=0.5, in_play=2, reported=1)
        self._play_round(consolation, 2, director, share=0.4, in_play=1)

        # Last Chance: players out of the Consolation already, plus two late arrivals.
        out = list(
            consolation.entries.filter(status=Entry.Status.ELIMINATED).select_related("player")
        )
        late = self._late_arrivals()
        for player in [e.player for e in out[:14]] + late:
            entry_register(event=last_chance, player=player, by=director)
        self._collect_fees(last_chance, director)
        if last_chance.entries.count() >= 2:
            draw_make(event=last_chance, method="random", seed=7, by=director)
            self._start(last_chance, 1)
            self._play_round(last_chance, 1, director, share=0.5, in_play=1)

        # The Swiss side event: half the field (at most 128), two rounds played, the third
        # in play.
        for player in field[: min(128, max(8, len(field) // 2))]:
            entry_register(event=swiss, player=player, by=director)
        draw_make(event=swiss, method="random", seed=2026, by=director)
        for number in (1, 2):
            event_next_round(event=swiss, by=director)
            self._play_round(swiss, number, director)
        event_next_round(event=swiss, by=director)
        self._play_round(swiss, 3, director, share=0.6, in_play=1)

    def _register(self, event: Event, field: list[Player], director: User) -> None:
        """The Main's registration desk: most players check in. Through the services for a
        club-sized field; a big field's list is loaded in bulk, as an import would."""
        if len(field) <= 256:
            for player in field:
                entry = entry_register(event=event, player=player, by=director)
                if self.rng.random() < 0.97:
                    entry_check_in(entry=entry, by=director)
            self._collect_fees(event, director)
            return
        now = timezone.now()
        present = [self.rng.random() < 0.97 for _ in field]
        Entry.objects.bulk_create(
            Entry(
                event=event,
                player=player,
                status=Entry.Status.CHECKED_IN if here else Entry.Status.REGISTERED,
                checked_in_at=now if here else None,
                paid=self._payment() if here else "",
            )
            for player, here in zip(field, present, strict=True)
        )

    def _payment(self) -> str:
        """How one entry paid at the desk: cash mostly, some by transfer, a few not yet."""
        roll = self.rng.random()
        return "" if roll < 0.08 else Entry.Payment.TRANSFER if roll < 0.35 else Entry.Payment.CASH

    def _collect_fees(self, event: Event, director: User) -> None:
        """The desk's takings: each entry marked paid its way, a few left unpaid."""
        by_method: dict[str, list[int]] = {}
        for pk in event.entries.order_by("pk").values_list("pk", flat=True):
            by_method.setdefault(self._payment(), []).append(pk)
        for method, ids in by_method.items():
            if method:
                entries_mark_paid(event=event, entry_ids=ids, method=method, by=director)

    def _late_arrivals(self) -> list[Player]:
        late = []
        for name in ("Late Larry", "Last-Minute Lina"):
            player, _ = Player.objects.get_or_create(
                name=name, defaults={"rating": 1550.0, "club": "Club House", "notify": False}
            )
            late.append(player)
        return late

    def _start(self, event: Event, number: int) -> None:
        round_ = event.rounds.filter(bracket=Round.Bracket.MAIN, number=number).first()
        if round_ is not None and round_.status == Round.Status.PENDING:
            round_start(round_=round_)

    def _play_round(
        self,
        event: Event,
        number: int,
        director: User,
        *,
        share: float = 1.0,
        in_play: int = 0,
        reported: int = 0,
    ) -> None:
        """Decide ``share`` of the round's ready matches; leave ``in_play`` with a few games
        reported and ``reported`` awaiting the opponent's confirmation."""
        ready = list(
            Match.objects.filter(
                event=event, round__number=number, status=Match.Status.READY
            ).select_related("entry1__player", "entry2__player")
        )
        decided = round(len(ready) * share)
        for match in ready[:decided]:
            self._decide(match, director)
        for match in ready[decided : decided + in_play]:
            self._in_play(match, director)
        for match in ready[decided + in_play : decided + in_play + reported]:
            self._reported(match)

    def _favourite(self, match: Match) -> tuple[int, float]:
        assert match.entry1 is not None
        assert match.entry2 is not None
        r1, r2 = match.entry1.player.rating, match.entry2.player.rating
        favourite = 0 if r1 >= r2 else 1
        edge = 0.5 + min(0.12, abs(r1 - r2) / 2000)
        return favourite, edge

    def _decide(self, match: Match, director: User) -> None:
        favourite, edge = self._favourite(match)
        if self.rng.random() < 0.25:
            favourite = 1 - favourite  # upsets happen
        games = self.games.match(
            match.length, (match.start_score1, match.start_score2), favourite, edge
        )
        match_result_enter(match=match, games=games, by=director)
        match_advance(match_id=match.pk)

    def _inputs(self, match: Match, games: list[GameResult]) -> list[GameInput]:
        assert match.entry1 is not None
        assert match.entry2 is not None
        ids = (match.entry1.player_id, match.entry2.player_id)
        return [
            GameInput(winner=ids[g.winner - 1], cube=g.cube, result=g.result, ended_by=g.ended_by)
            for g in games
        ]

    def _in_play(self, match: Match, director: User) -> None:
        """A match under way: the first games reported one by one from a player's link."""
        favourite, edge = self._favourite(match)
        games = self.games.match(match.length, (0, 0), favourite, edge)[:2]
        actor = Actor(entry=match.entry1)
        for game in self._inputs(match, games[:-1] or games):
            game_report(match_id=match.pk, actor=actor, game=game, meta=RequestMeta())

    def _reported(self, match: Match) -> None:
        """A whole match reported by one player, awaiting the other's confirmation."""
        favourite, edge = self._favourite(match)
        games = self.games.match(match.length, (0, 0), favourite, edge)
        match_report(
            match_id=match.pk,
            actor=Actor(entry=match.entry2),
            games=self._inputs(match, games),
            score=None,
            meta=RequestMeta(),
        )

    def _done(self, tournament: Tournament, director: User, what: str, started: float) -> None:
        events = ", ".join(
            f"{e.name} ({e.entries.count()} players, {e.get_status_display().lower()})"
            for e in tournament.events.all()
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament '{tournament.name}' {what} in {time.perf_counter() - started:.1f} s: "
                f"{events}.\nDirector login: {director.username} / {DEMO_PASSWORD}"
            )
        )
