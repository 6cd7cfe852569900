"""The model of a whole tournament: a hypothesis ``RuleBasedStateMachine`` over the
service layer (``tournament.services``, ``matches.services``), with the invariants a
director must be able to trust checked after every step.

One tournament, four events: a single-elimination Main that feeds a Consolation (the
losers of its rounds 1 and 2), a Swiss and a round robin. The rules do what the people
of a weekend do, each through the one service the console, the pages and the API call:
sign up (the same email twice too, for the same and for another event), approve,
enter by hand, check in, withdraw and undo the withdrawal, draw, start rounds, report
and confirm, dispute and resolve, enter results, record and reopen walkovers and
forfeits, correct winners and scores, set the tournament's language (and sign up in one),
have a league's next round paired in the background (the outbox may run that job twice).
After each step the worker's part runs (every
outbox row, in order: the bracket moves on, notices go out), then every invariant.

A refusal (an ``AppError``: the service said no, with a message) is an answer, not a
failure; anything else raised is a failure, and so is a broken invariant.

**Every new feature joins the model: add a rule here and an invariant if it brings one.**

The pattern:

* A rule is a method decorated with ``@rule(pick=PICK, ...)``; it picks its object from
  the current state with ``self.choose(candidates, pick)`` (candidates read from the
  database, so the rule works whatever happened before), calls ONE service as a door
  would, inside ``self.attempt(...)`` (refusals are kept in ``self.refusals``), and
  records what the invariants need to know (``self.accepted_on(match)`` after an
  accepted action on a match: the audit invariant then looks for it).
* An invariant is a method decorated with ``@invariant()`` that reads the state through
  the selectors and serializers the pages and the API use, and asserts with a message
  that says what a director would see. Wrap its body in ``if self.checks("name"):`` so
  that an invariant still broken by a defect somebody else owns can be listed in
  ``PENDING`` (name -> who fixes it) until the fix lands; the explicit example of that
  defect (``test_examples.py``) is then a strict xfail.
* The run: ``tests/model/test_tournament_model.py`` (bounded, in ``make test``; long,
  marked ``stress``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from core.http import RequestMeta
from matches.access import Actor
from matches.errors import REFUSALS, AppError
from matches.models import Game, Match, ReportKey, Submission
from matches.services.confirmation import match_confirm, match_dispute, match_resolve
from matches.services.reporting import GameInput, game_report, match_report
from tests.factories import UserFactory
from tests.model.world import (
    ACTIVE,
    LEAGUES,
    OPEN,
    Correction,
    Notice,
    correction_true,
    expected_field,
    feed_family,
    field_counts,
    fingerprint,
    matches_of_player,
    notice_corrected,
    notice_true,
    run_worker,
    tells_table,
    winning_games,
)
from tournament import outbox
from tournament.models import (
    Entry,
    Event,
    OutboxTask,
    Player,
    PlayerLink,
    Round,
    SignupRequest,
    Tournament,
)
from tournament.selectors import elimination_next, elimination_records, standings
from tournament.selectors.final_places import event_final
from tournament.services.console_extras import entry_register_player
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in
from tournament.services.event_settings import event_update
from tournament.services.events import event_create
from tournament.services.forbidden_pairs import forbidden_pair_add
from tournament.services.merge import players_merge
from tournament.services.pairing_jobs import (
    UNDER_WAY,
    pairing_job,
    pairing_job_key,
    pairing_job_queue,
    pairing_job_token_key,
)
from tournament.services.payments import entries_mark_paid
from tournament.services.results import (
    match_award,
    match_final_score_enter,
    match_reopen_decision,
    match_result_enter,
    match_winner_correct,
)
from tournament.services.rounds import event_end, event_next_round, round_start
from tournament.services.signup import (
    entry_approve,
    entry_signup,
    entry_signup_from_link,
    entry_undo_by_player,
    entry_withdraw_by_player,
    signup_ask,
    signup_confirm,
)
from tournament.services.tables import match_table_set, round_tables_assign
from tournament.services.tournaments import tournament_create, tournament_update
from tournament.services.withdrawals import entry_withdraw, entry_withdraw_undo
from tournament.tasks.pairing import pair_next_round

T = TypeVar("T")

#: A choice among whatever the state offers when the rule runs.
PICK = st.integers(min_value=0, max_value=10**6)
#: The people of the weekend: names and emails (a few, so that addresses repeat).
PEOPLE = [
    ("Anna Berg", "anna@example.org"),
    ("Anna Berg", "anna.berg@example.net"),  # a namesake
    ("Bo Lind", "bo@example.org"),
    ("Cai Holm", "cai@example.org"),
    ("Dana Eck", "dana@example.org"),
    ("Eli Nord", "eli@example.org"),
    ("Finn Dal", "finn@example.org"),
    ("Gry Vang", "gry@example.org"),
    ("Hal Ring", "hal@example.org"),
    ("Ida Sand", "ida@example.org"),
    ("Jon Ask", "jon@example.org"),
    ("Kai Bro", "kai@example.org"),
]
PERSON = st.integers(min_value=0, max_value=len(PEOPLE) - 1)
#: The site's languages, none ("": a sign-up in no language of its own) and one it does
#: not offer (refused).
LANGUAGE = st.sampled_from(["", "en", "da", "de", "ja", "tr", "fr"])
#: Currencies as a director types them, with the code each one is (``None``: refused).
KNOWN_CURRENCIES: dict[str, str] = {
    "": "",
    "EUR": "EUR",
    "eur": "EUR",
    " dkk ": "DKK",
    "JPY": "JPY",
}
CURRENCY = st.sampled_from([None, *KNOWN_CURRENCIES, "EURO", "XYZ", "€"])
#: Refusals of a report sent again that say the player may no longer act on the match
#: (withdrawn, event over, moved out of it by a correction): answered before the key.
GONE = {"permission-denied", "forbidden", "not-found", "not-authenticated"}

#: Invariants still broken by a defect another helper fixes (name -> owner). The bounded
#: run leaves them out; each has a strict-xfail example in ``test_examples.py``. Empty
#: this as the fixes land.
PENDING: dict[str, str] = {}


class TournamentModel(RuleBasedStateMachine):
    """One tournament weekend (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        mail.outbox = []
        self.director = UserFactory()
        self.tournament: Tournament = tournament_create(
            name="Model Open", director=self.director, starts_on=dt.date.today()
        )
        self.main = event_create(tournament=self.tournament, name="Main", match_lengths=[3, 1])
        self.consolation = event_create(
            tournament=self.tournament,
            name="Consolation",
            match_lengths=[1],
            feeds_from=self.main,
            feed_rounds=[1, 2],
        )
        self.swiss = event_create(
            tournament=self.tournament,
            name="Swiss",
            format=Event.Format.SWISS,
            match_lengths=[1],
            rounds=3,
        )
        self.robin = event_create(
            tournament=self.tournament,
            name="Round robin",
            format=Event.Format.ROUND_ROBIN,
            match_lengths=[1],
        )
        self.elim = event_create(
            tournament=self.tournament,
            name="Elimination Swiss",
            format=Event.Format.SWISS_ELIMINATION,
            losses_to_eliminate=2,
            match_lengths=[1],
        )
        event_update(event=self.main, signup=Event.Signup.APPROVAL)
        event_update(event=self.swiss, signup=Event.Signup.OPEN)
        event_update(event=self.robin, signup=Event.Signup.OPEN)
        event_update(event=self.elim, signup=Event.Signup.OPEN)
        self.events = [self.main, self.consolation, self.swiss, self.robin, self.elim]
        # Background pairing jobs live in the cache, which outlives the example's rolled-back
        # database: an earlier example's event of the same id must not lend its job.
        cache.delete_many(
            [key(e.pk) for e in self.events for key in (pairing_job_key, pairing_job_token_key)]
        )
        #: events that had a background pairing job
        self.jobs: set[int] = set()
        #: the elimination Swiss: a result of it corrected (a player out may then have
        #: played on), and whether the director ended it
        self.elim_corrected = False
        self.elim_ended = False
        #: forbidden pair id -> the last round of its event paired before it was made
        self.forbidden_after: dict[int, int] = {}
        #: the elimination Swiss: entry id -> the round a player out was kept to play
        self.elim_kept: dict[int, int] = {}
        #: the most places paid the playoff switch has been set to (0: never on)
        self.elim_switch_places = 0
        #: the elimination Swiss's Swiss records when its playoff began (None before)
        self.elim_records_at_playoff: dict[int, Any] | None = None
        self.meta = RequestMeta()
        self.refusals: Counter[str] = Counter()
        self.steps: list[str] = []
        self.notices: list[Notice] = []
        #: the corrections the worker sent (each takes back one notice)
        self.corrections: list[Correction] = []
        #: merges the service accepted (each must be in the audit)
        self.merges = 0
        self._notices_seen = (-1, -1)
        #: match id -> accepted actions the model made on it (the audit invariant)
        self.accepted: Counter[int] = Counter()
        #: entry id -> the player's matches in the tournament when it withdrew
        self.withdrawn_with: dict[int, set[int]] = {}
        #: events changed by the last step (the heavy invariants read these only)
        self.dirty: list[Event] = list(self.events)
        self._prints: dict[int, int] = {}
        #: emails already checked for their language (the outbox grows)
        self.mails_seen = 0
        #: the page language each address last asked to sign up in (its mail's language when
        #: it is no player's yet), and the confirm mails' tokens not yet followed
        self.asked_in: dict[str, str] = {}
        #: the currency the director last saved (a refused one changes nothing)
        self.currency = ""
        self.unconfirmed: list[str] = []
        #: per event, the fee its paid entries paid at (while some entry is paid)
        self.fee_collected_at: dict[int, Decimal | None] = {}
        #: reports sent with a key: (match id, what, send it again, first answer)
        self.keyed: list[tuple[int, str, Callable[[], tuple[str, Any]], Any]] = []
        #: reports sent again that were recorded or answered anew (the invariant says)
        self.twice: list[str] = []

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # ---- helpers for rules ------------------------------------------------------------

    def checks(self, name: str) -> bool:
        return name not in PENDING

    @staticmethod
    def choose(candidates: Sequence[T], pick: int) -> T | None:
        return candidates[pick % len(candidates)] if candidates else None

    def attempt(self, what: str, action: Callable[[], Any]) -> Any:
        """Run one service call as a door would: a refusal is an answer (counted), a
        follow-up of the worker runs after it; anything else propagates."""
        self.steps.append(what)
        try:
            with transaction.atomic():
                result = action()
        except AppError as err:
            self.refusals[err.code] += 1
            result = None
        run_worker(self.notices, corrections=self.corrections)
        self._look()
        return result

    def _look(self) -> None:
        """Which events the step changed: the heavy invariants look at those only."""
        now = fingerprint(self.events)
        self.dirty = [e for e in self.events if self._prints.get(e.pk) != now[e.pk]]
        self._prints = now

    def accepted_on(self, match: Match | int | None) -> None:
        if match is not None:
            self.accepted[match if isinstance(match, int) else match.pk] += 1

    def event(self, pick: int, events: Sequence[Event] | None = None) -> Event:
        event = self.choose(events or self.events, pick)
        assert event is not None
        event.refresh_from_db()
        return event

    def entries(self, *statuses: str, events: Sequence[Event] | None = None) -> list[Entry]:
        query = Entry.objects.filter(event__in=events or self.events).select_related(
            "player", "event"
        )
        if statuses:
            query = query.filter(status__in=statuses)
        return list(query.order_by("pk"))

    def matches(self, *statuses: str, **filters: Any) -> list[Match]:
        return list(
            Match.objects.filter(event__tournament=self.tournament, is_bye=False, **filters)
            .filter(status__in=statuses)
            .exclude(entry1=None)
            .exclude(entry2=None)
            .select_related("entry1__player", "entry2__player", "event", "round")
            .order_by("pk")
        )

    def player_actor(self, match: Match, side: int) -> Actor:
        entry = match.entry1 if side == 1 else match.entry2
        return Actor(entry=entry)

    def games_for(self, match: Match, side: int) -> list[GameInput]:
        player = (match.entry1 if side == 1 else match.entry2).player_id  # type: ignore[union-attr]
        return [
            GameInput(winner=player, cube=g.cube, result=g.result)
            for g in winning_games(match, side)
        ]

    # ---- rules: entries ---------------------------------------------------------------

    @rule(pick=PICK, person=PERSON, language=LANGUAGE)
    def sign_up(self, pick: int, person: int, language: str) -> None:
        """A player signs up on the public page (the same email may come twice), in the
        language of the page (none: the tournament's is theirs)."""
        event = self.event(pick, [self.main, self.swiss, self.robin, self.elim])
        name, email = PEOPLE[person]
        self.attempt(
            f"sign up {name} <{email}> for {event.name} in {language or 'no language'}",
            lambda: entry_signup(event=event, name=name, email=email, language=language),
        )

    @rule(language=LANGUAGE, currency=CURRENCY)
    def set_tournament_settings(self, language: str, currency: str | None) -> None:
        """The director saves the tournament's settings: its language (one the site does
        not offer is refused; empty keeps it) and its currency (an ISO 4217 code in any
        case, blank for none; an unknown code is refused; ``None``: an API call without it
        keeps it)."""
        t = self.tournament
        t.refresh_from_db()
        saved = self.attempt(
            f"set the tournament's language to {language or '(unchanged)'}"
            f" and its currency to {currency!r}",
            lambda: tournament_update(
                tournament=t,
                name=t.name,
                starts_on=t.starts_on,
                ends_on=t.ends_on,
                venue=t.venue,
                time_zone=t.time_zone,
                is_public=t.is_public,
                analysis_enabled=t.analysis_enabled,
                analysis_plies=t.analysis_plies,
                analysis_public=t.analysis_public,
                language=language,
                currency=currency,
            ),
        )
        if saved is not None and currency is not None:
            self.currency = KNOWN_CURRENCIES[currency]

    @rule(pick=PICK, method=st.sampled_from(["cash", "transfer", "waived", ""]))
    def mark_paid(self, pick: int, method: str) -> None:
        """The desk marks an entry paid (or unpaid) in any event, the fed Consolation too,
        which refuses a payment: its players pay nothing there."""
        event = self.event(pick, self.events)
        entry = self.choose(list(event.entries.order_by("pk")), pick)
        if entry is not None:
            self.attempt(
                f"mark {entry.player.name} paid {method or '(unpaid)'} in {event.name}",
                lambda: entries_mark_paid(event=event, entry_ids=[entry.pk], method=method),
            )

    @rule(pick=PICK, fee=st.sampled_from([None, Decimal(0), Decimal(20), Decimal("12.50")]))
    def set_entry_fee(self, pick: int, fee: Decimal | None) -> None:
        """The director changes an event's entry fee: refused once fees were collected at
        the old one, and for the fed Consolation."""
        event = self.event(pick, self.events)
        event.refresh_from_db()
        self.attempt(
            f"set {event.name}'s entry fee to {fee}",
            lambda: event_update(event=event, entry_fee=fee),
        )

    @invariant()
    def fees_kept_as_collected(self) -> None:
        """The fed Consolation takes no fee and no payment; an event whose entries paid
        (not waived) keeps the fee they paid at, the one it had at its first payment."""
        for event in self.events:
            event.refresh_from_db()
            paid = event.entries.exclude(paid__in=["", "waived"]).exists()
            if event.feeds_from_id:
                assert not event.entry_fee, (event.name, event.entry_fee)
                assert not paid, event.name
            if paid:
                at = self.fee_collected_at.setdefault(event.pk, event.entry_fee)
                assert event.entry_fee == at, (event.name, event.entry_fee, at)
            else:
                self.fee_collected_at.pop(event.pk, None)

    @rule(pick=PICK, person=PERSON, language=LANGUAGE)
    def ask_to_sign_up(self, pick: int, person: int, language: str) -> None:
        """The public door, on a page in ``language``: the sign-up is asked and a mail goes
        to the address (one to confirm it, or one saying it is already in the event; past
        its mails of the day, refused). It is confirmed, or not, in a later step."""
        event = self.event(pick, [self.main, self.swiss, self.robin])
        name, email = PEOPLE[person]
        self.asked_in[email.lower()] = language

        def ask() -> None:
            asked = signup_ask(event=event, name=name, email=email, language=language)
            if asked.kind == "confirm":
                self.unconfirmed.append(asked.token)

        self.attempt(f"ask to sign up {name} <{email}> for {event.name} in {language!r}", ask)

    @precondition(lambda self: self.unconfirmed)
    @rule(pick=PICK, language=LANGUAGE, again=st.booleans())
    def confirm_from_the_mail(self, pick: int, language: str, again: bool) -> None:
        """The link in a confirm mail is followed, on a page in ``language`` (maybe not the
        one it was asked in); ``again``: the mail stays, to be followed a second time."""
        token = self.choose(self.unconfirmed, pick)
        assert token is not None
        if not again:
            self.unconfirmed.remove(token)

        def confirm() -> None:
            known = set(Player.objects.values_list("pk", flat=True))
            done = signup_confirm(token=token, language=language)
            asked = SignupRequest.objects.get(token=token)
            player = Player.objects.get(pk=done.entry.player_id)
            if player.pk not in known:  # made by this confirmation
                offered = {code for code, _label in settings.LANGUAGES}
                # the language the confirming reader chose, else the one it was asked in
                wanted = language if language in offered else asked.language
                assert player.language == wanted, (player.language, wanted, language)

        self.attempt(f"confirm sign-up {token[:8]} in {language!r}", confirm)

    @rule(pick=PICK, person=PERSON)
    def enter_by_hand(self, pick: int, person: int) -> None:
        """The director enters a player: the one with that email if there is one."""
        event = self.event(pick, [self.main, self.swiss, self.robin, self.elim])
        name, email = PEOPLE[person]

        def enter() -> Entry:
            # The console's form: a name and an address typed in (any case); the service
            # enters the player they already are, else makes one (a namesake is asked).
            return entry_register_player(
                event=event, name=name, email=email.upper() if pick % 2 else email,
                by=self.director, confirm_new=pick % 3 == 0,
            )  # fmt: skip

        self.attempt(f"enter {name} <{email}> in {event.name} by hand", enter)

    @rule(pick=PICK)
    def approve(self, pick: int) -> None:
        entry = self.choose(self.entries(Entry.Status.PENDING), pick)
        if entry is not None:
            self.attempt(f"approve {entry}", lambda: entry_approve(entry=entry, by=self.director))

    @rule(pick=PICK)
    def check_in(self, pick: int) -> None:
        entry = self.choose(self.entries(Entry.Status.REGISTERED), pick)
        if entry is not None:
            self.attempt(f"check in {entry}", lambda: entry_check_in(entry=entry))

    @rule(pick=PICK)
    def withdraw(self, pick: int) -> None:
        entry = self.choose(self.entries(*ACTIVE, Entry.Status.WAITING, Entry.Status.PENDING), pick)
        if entry is None:
            return
        family = feed_family(entry.event)
        before = matches_of_player(self.tournament, entry.player_id, family)
        undecided = set(
            Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
            .exclude(status=Match.Status.COMPLETE)
            .values_list("pk", flat=True)
        )
        done = self.attempt(
            f"withdraw {entry}",
            lambda: entry_withdraw(entry=entry, reason="model", by=self.director),
        )
        if done is not None and done.status == Entry.Status.WITHDRAWN:
            self.withdrawn_with[entry.pk] = before
            # Each walkover the withdrawal decided is a decision in its match's audit.
            for match_id in Match.objects.filter(
                pk__in=undecided, decision=Match.Decision.WALKOVER
            ).values_list("pk", flat=True):
                self.accepted_on(match_id)

    @rule(pick=PICK)
    def undo_withdrawal(self, pick: int) -> None:
        entry = self.choose(self.entries(Entry.Status.WITHDRAWN), pick)
        if entry is None:
            return
        given = set(
            Match.objects.filter(Q(entry1=entry) | Q(entry2=entry))
            .filter(status=Match.Status.COMPLETE, decision=Match.Decision.WALKOVER)
            .exclude(winner=entry)
            .values_list("pk", flat=True)
        )
        done = self.attempt(
            f"undo the withdrawal of {entry}",
            lambda: entry_withdraw_undo(entry=entry, by=self.director),
        )
        if done is not None:
            self.withdrawn_with.pop(entry.pk, None)
            # Each walkover it gave and the undo reopened is a decision in the audit.
            for match_id in (
                Match.objects.filter(pk__in=given)
                .exclude(status=Match.Status.COMPLETE)
                .values_list("pk", flat=True)
            ):
                self.accepted_on(match_id)

    @rule(pick=PICK)
    def sign_up_from_the_link(self, pick: int) -> None:
        """A player with a link signs up for another event from it (one address at a
        venue: no form)."""
        link = self.choose(
            list(PlayerLink.objects.filter(tournament=self.tournament).order_by("pk")), pick
        )
        if link is None:
            return
        event = self.event(pick // 3, [self.main, self.swiss, self.robin, self.elim])
        self.attempt(
            f"{link.player} signs up for {event.name} from their link",
            lambda: entry_signup_from_link(link=link, event=event),
        )

    def _link_of(self, entry: Entry) -> PlayerLink:
        return PlayerLink.objects.get(tournament=self.tournament, player_id=entry.player_id)

    @rule(pick=PICK)
    def player_withdraws(self, pick: int) -> None:
        """A player withdraws from their link (confirmed), before the draw."""
        entry = self.choose(self.entries(*ACTIVE, Entry.Status.WAITING, Entry.Status.PENDING), pick)
        if entry is None:
            return
        before = matches_of_player(self.tournament, entry.player_id)
        done = self.attempt(
            f"{entry} withdraws from their link",
            lambda: entry_withdraw_by_player(link=self._link_of(entry), entry=entry),
        )
        if done is not None:
            self.withdrawn_with[entry.pk] = before

    @rule(pick=PICK)
    def player_takes_back_their_withdrawal(self, pick: int) -> None:
        entry = self.choose(self.entries(Entry.Status.WITHDRAWN), pick)
        if entry is None:
            return
        done = self.attempt(
            f"{entry} takes back their withdrawal from their link",
            lambda: entry_undo_by_player(link=self._link_of(entry), entry=entry),
        )
        if done is not None:
            self.withdrawn_with.pop(entry.pk, None)

    @rule(pick=PICK, other=PICK)
    def merge_two_records(self, pick: int, other: int) -> None:
        """The director finds that two players are one person and merges them."""
        players = list(
            Player.objects.filter(entries__event__tournament=self.tournament)
            .distinct()
            .order_by("pk")
        )
        keep, gone = self.choose(players, pick), self.choose(players, other)
        if keep is None or gone is None:
            return
        record = self.attempt(
            f"merge {gone} (record {gone.pk}) into {keep} (record {keep.pk})",
            lambda: players_merge(
                tournament=self.tournament, keep=keep, other=gone, by=self.director
            ),
        )
        if record is None:
            return
        self.merges += 1
        for entry_id in record.moved["dropped"]:
            self.withdrawn_with.pop(entry_id, None)
        # What the kept player already played is not new to an entry withdrawn before.
        now = matches_of_player(self.tournament, keep.pk)
        for entry_id in list(self.withdrawn_with):
            if Entry.objects.filter(pk=entry_id, player_id=keep.pk).exists():
                self.withdrawn_with[entry_id] |= now

    @invariant()
    def merges_are_recorded(self) -> None:
        """Every accepted merge is in the audit (``PlayerMerge``), and only those; no
        merged record remains."""
        from tournament.models import PlayerMerge

        recorded = PlayerMerge.objects.filter(tournament=self.tournament).count()
        assert recorded == self.merges, f"{self.merges} merges accepted, {recorded} audited"
        gone = PlayerMerge.objects.filter(tournament=self.tournament).values_list(
            "removed_id", flat=True
        )
        assert not Player.objects.filter(pk__in=list(gone)).exists(), "a merged record remains"

    # ---- rules: draw and rounds ------------------------------------------------------

    @rule(pick=PICK, seed=st.integers(min_value=0, max_value=2**20))
    def make_the_draw(self, pick: int, seed: int) -> None:
        event = self.event(pick, [self.main, self.swiss, self.robin, self.elim])
        self.attempt(
            f"draw {event.name} (seed {seed})",
            lambda: draw_make(event=event, method="random", seed=seed, by=self.director),
        )

    @rule(pick=PICK, tables=st.sampled_from([None, True, False]))
    def start_round(self, pick: int, tables: bool | None) -> None:
        """Start the next round: an elimination bracket's next pending round (one per
        bracket), a Swiss round 1, or a league's next round; its tables numbered as it
        starts (``True``), not (``False``), or as the tournament does (``None``)."""
        event = self.event(pick)
        if event.status in (Event.Status.REGISTRATION, Event.Status.FINISHED):
            return
        pending = event.rounds.filter(status=Round.Status.PENDING).order_by("bracket", "number")
        first = pending.first()
        if event.format in LEAGUES and (first is None or first.number > 1):
            self.attempt(
                f"next round of {event.name} (tables {tables})",
                lambda: event_next_round(event=event, by=self.director, tables=tables),
            )
        elif first is not None:
            self.attempt(
                f"start {first} of {event.name} (tables {tables})",
                lambda: round_start(round_=first, by=self.director, tables=tables),
            )

    @rule(pick=PICK)
    def number_the_tables(self, pick: int) -> None:
        """The director numbers the tables of a started round (its ready matches)."""
        rounds = list(
            Round.objects.filter(
                event__tournament=self.tournament, status=Round.Status.STARTED
            ).order_by("pk")
        )
        round_ = self.choose(rounds, pick)
        if round_ is None:
            return
        self.attempt(
            f"number the tables of {round_}",
            lambda: round_tables_assign(round_=round_, by=self.director),
        )

    @rule(pick=PICK, table=st.one_of(st.none(), st.integers(min_value=1, max_value=6)))
    def put_a_match_at_a_table(self, pick: int, table: int | None) -> None:
        """The director puts one match at a table (or takes it off its table)."""
        match = self.choose(
            self.matches(Match.Status.PENDING, Match.Status.READY, Match.Status.PLAYING), pick
        )
        if match is None:
            return
        self.attempt(
            f"match {match.pk} at table {table}",
            lambda: match_table_set(match=match, table=table, by=self.director),
        )

    # ---- rules: forbidden pairs and the elimination Swiss -----------------------------

    @rule(
        pick=PICK,
        other=PICK,
        strength=st.sampled_from(["absolute", "avoid"]),
        rounds=st.sampled_from(["first", "all"]),
    )
    def forbid_a_pair(self, pick: int, other: int, strength: str, rounds: str) -> None:
        """The director keeps two players of a Swiss apart."""
        event = self.event(pick, [self.swiss, self.elim, self.robin])
        entries = self.entries(*ACTIVE, events=[event])
        a, b = self.choose(entries, pick), self.choose(entries, other)
        if a is None or b is None:
            return
        paired = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        done = self.attempt(
            f"keep {a.player} and {b.player} apart in {event.name} ({strength}, {rounds})",
            lambda: forbidden_pair_add(
                event=event,
                players=[a.player_id, b.player_id],
                strength=strength,
                rounds=rounds,
                by=self.director,
            ),
        )
        if done is not None:
            self.forbidden_after[done.pk] = paired

    @rule(pick=PICK)
    def next_round_relaxing(self, pick: int) -> None:
        """Pair the next round; when the forbidden pairs block it, relax those in the way."""
        event = self.event(pick, [self.swiss, self.elim])

        def pair() -> Round:
            try:
                with transaction.atomic():
                    return event_next_round(event=event, by=self.director)
            except AppError as err:
                if err.code != "no-legal-pairing":
                    raise
                relax = [item["id"] for item in err.detail["blocking"]]
                return event_next_round(event=event, by=self.director, relax=relax)

        self.attempt(f"next round of {event.name}, relaxing what blocks it", pair)

    @rule(pick=PICK, again=st.booleans())
    def next_round_in_the_background(self, pick: int, again: bool) -> None:
        """Pair a league's next round in the background (a large field's way): the job is
        an outbox row the worker runs. ``again``: the outbox runs the row a second time (a
        delete lost after the run, a drain after a dead worker): nothing more happens."""
        event = self.event(pick, [self.swiss, self.elim, self.robin])

        def queue() -> list[Any] | None:
            pairing_job_queue(event=event, by=self.director)
            row = OutboxTask.objects.filter(task=outbox.PAIR_TASK, args__0=event.pk).last()
            return list(row.args) if row is not None else None

        args = self.attempt(f"next round of {event.name} in the background", queue)
        self.jobs.add(event.pk)
        if again and args is not None:
            rounds = list(event.rounds.values_list("pk", "status"))
            answer = pairing_job(event.pk)
            assert pair_next_round(*args) == "done already", "a job ran twice"
            assert list(event.rounds.values_list("pk", "status")) == rounds, "paired twice"
            assert pairing_job(event.pk) == answer, "a second run changed the job's answer"

    @rule(pick=PICK)
    def next_round_keeping_a_player_out(self, pick: int) -> None:
        """The director keeps a player who went out in the last round one more round,
        so that nobody has a bye (offered when the players alive are odd)."""
        event = self.elim
        upcoming = elimination_next(event)
        kept = self.choose(upcoming.keepable, pick)
        if kept is None:
            return
        done = self.attempt(
            f"next round of {event.name}, keeping {kept.player} one more round",
            lambda: event_next_round(event=event, by=self.director, keep=[kept.player_id]),
        )
        if done is not None:
            self.elim_kept[kept.pk] = done.number

    @rule(rounds=st.one_of(st.none(), st.integers(min_value=0, max_value=6)))
    def set_the_wisconsin_ending(self, rounds: int | None) -> None:
        """The director sets (or takes off) the Wisconsin ending: a knockout after that
        many rounds (0 is refused; refused too once a playoff has begun)."""
        self.attempt(
            f"Wisconsin ending after {rounds} round(s)",
            lambda: event_update(event=self.elim, wisconsin_after_rounds=rounds),
        )

    @rule(
        places=st.one_of(st.none(), st.integers(min_value=1, max_value=4)),
        switch=st.booleans(),
        last_loss=st.booleans(),
    )
    def set_the_places_paid(self, places: int | None, switch: bool, last_loss: bool) -> None:
        """The director sets the places paid, the playoff switch and cashing on the last
        loss (the switch may end the event at once)."""
        done = self.attempt(
            f"{places} places paid, switch {switch}, last loss cashes {last_loss}",
            lambda: event_update(
                event=self.elim,
                places_paid=places,
                playoff_switch=switch,
                last_loss_cashes=last_loss,
            ),
        )
        if done is not None and switch and places:
            self.elim_switch_places = max(self.elim_switch_places, places)

    @rule(on=st.booleans())
    def set_the_three_player_playoff(self, on: bool) -> None:
        self.attempt(
            f"three-player playoff {'on' if on else 'off'}",
            lambda: event_update(event=self.elim, three_player_playoff=on),
        )

    @rule()
    def end_the_elimination_swiss(self) -> None:
        done = self.attempt(
            "end the elimination Swiss", lambda: event_end(event=self.elim, by=self.director)
        )
        if done is not None:
            self.elim_ended = True

    # ---- rules: results --------------------------------------------------------------

    @rule(pick=PICK, side=st.sampled_from([1, 2]))
    def player_reports(self, pick: int, side: int) -> None:
        """A player reports the whole match from their private link."""
        match = self.choose(self.matches(Match.Status.READY, Match.Status.PLAYING), pick)
        if match is None or Game.objects.filter(match=match, voided=False).exists():
            return
        winner = 1 + (pick // 7) % 2
        done = self.attempt(
            f"player {side} reports match {match.pk} for {winner}",
            lambda: match_report(
                match_id=match.pk,
                actor=self.player_actor(match, side),
                games=self.games_for(match, winner),
                score=None,
                meta=self.meta,
            ),
        )
        self.accepted_on(done)

    @rule(pick=PICK)
    def opponent_confirms(self, pick: int) -> None:
        match = self.choose(self.matches(Match.Status.REPORTED), pick)
        if match is None:
            return
        side = 2 if match.reported_by_id == match.entry1_id else 1
        self.keyed_report(
            f"confirm match {match.pk}",
            match,
            lambda key: match_confirm(
                match_id=match.pk,
                actor=self.player_actor(match, side),
                meta=self.meta,
                idempotency_key=key,
            ),
        )

    @rule(pick=PICK)
    def opponent_disputes(self, pick: int) -> None:
        match = self.choose(self.matches(Match.Status.REPORTED), pick)
        if match is None:
            return
        side = 2 if match.reported_by_id == match.entry1_id else 1
        self.keyed_report(
            f"dispute match {match.pk}",
            match,
            lambda key: match_dispute(
                match_id=match.pk,
                actor=self.player_actor(match, side),
                reason="That is not what happened.",
                meta=self.meta,
                idempotency_key=key,
            ),
        )

    @rule(pick=PICK)
    def director_resolves(self, pick: int) -> None:
        """The director settles a dispute: the recorded games stand, or the other player's
        games replace them."""
        match = self.choose(self.matches(Match.Status.DISPUTED), pick)
        if match is None:
            return
        games = None if pick % 2 else self.games_for(match, 1 + (pick // 2) % 2)
        self.keyed_report(
            f"resolve match {match.pk}",
            match,
            lambda key: match_resolve(
                match_id=match.pk,
                actor=Actor(user=self.director),
                meta=self.meta,
                note="model",
                games=games,
                idempotency_key=key,
            ),
        )

    @rule(pick=PICK)
    def director_enters_result(self, pick: int) -> None:
        match = self.choose(self.matches(Match.Status.READY), pick)
        if match is None:
            return
        games = winning_games(match, 1 + pick % 2)
        self.keyed_report(
            f"enter the result of match {match.pk}",
            match,
            lambda key: match_result_enter(
                match=match, games=games, by=self.director, idempotency_key=key
            ),
        )

    @rule(pick=PICK, forfeit=st.booleans())
    def walkover_or_forfeit(self, pick: int, forfeit: bool) -> None:
        match = self.choose(self.matches(*OPEN), pick)
        if match is None:
            return
        winner = match.entry1 if pick % 2 else match.entry2
        decision = "forfeit" if forfeit else "walkover"
        done = self.attempt(
            f"{decision} match {match.pk}",
            lambda: match_award(
                match=match, winner=winner, decision=decision, reason="model", by=self.director
            ),
        )
        self.accepted_on(done)

    @rule(pick=PICK)
    def reopen_walkover_or_forfeit(self, pick: int) -> None:
        match = self.choose(
            [
                m
                for m in self.matches(Match.Status.COMPLETE)
                if m.decision in (Match.Decision.WALKOVER, Match.Decision.FORFEIT)
            ],
            pick,
        )
        if match is None:
            return
        done = self.attempt(
            f"reopen the {match.decision} of match {match.pk}",
            lambda: match_reopen_decision(match=match, reason="model", by=self.director),
        )
        self.accepted_on(done)

    @rule(pick=PICK, cascade=st.booleans())
    def correct_winner(self, pick: int, cascade: bool) -> None:
        match = self.choose(
            [m for m in self.matches(Match.Status.COMPLETE) if m.winner_id is not None], pick
        )
        if match is None:
            return
        if match.event_id == self.elim.pk:
            self.elim_corrected = True
        other = match.entry2 if match.winner_id == match.entry1_id else match.entry1
        done = self.attempt(
            f"correct the winner of match {match.pk} (cascade={cascade})",
            lambda: match_winner_correct(
                match=match,
                winner=other,
                confirm=True,
                cascade=cascade,
                reason="model",
                by=self.director,
            ),
        )
        self.accepted_on(done)

    @rule(pick=PICK)
    def correct_score(self, pick: int) -> None:
        """The director corrects a decided match's score (same winner, the loser's points)."""
        match = self.choose(
            [
                m
                for m in self.matches(Match.Status.COMPLETE)
                if m.winner_id is not None and m.length > 1
            ],
            pick,
        )
        if match is None:
            return
        loser_points = pick % match.length
        first_won = match.winner_id == match.entry1_id
        score = (match.length, loser_points) if first_won else (loser_points, match.length)
        self.keyed_report(
            f"correct the score of match {match.pk} to {score}",
            match,
            lambda key: match_final_score_enter(
                match=match,
                score1=score[0],
                score2=score[1],
                confirm=True,
                reason="model",
                by=self.director,
                idempotency_key=key,
            ),
        )

    @precondition(lambda self: len(self.steps) > 10)
    @rule(pick=PICK)
    def play_out(self, pick: int) -> None:
        """The director finishes an event: starts its rounds and enters every result."""
        event = self.event(pick, [self.main, self.swiss, self.robin, self.elim])
        for _ in range(40):
            event.refresh_from_db()
            if event.status in (Event.Status.REGISTRATION, Event.Status.FINISHED):
                return
            ready = self.matches(Match.Status.READY, event=event)
            if not ready:
                before = len(self.steps)
                self.start_round(self.events.index(event) + 4 * pick)
                if len(self.steps) == before or not self.matches(Match.Status.READY, event=event):
                    return
                continue
            for match in ready:
                done = self.attempt(
                    f"enter the result of match {match.pk}",
                    lambda match=match: match_result_enter(  # type: ignore[misc]
                        match=match, games=winning_games(match, 1 + match.pk % 2), by=self.director
                    ),
                )
                self.accepted_on(done)

    # ---- rules: reports sent again (Idempotency-Key) -----------------------------------

    def keyed_report(self, what: str, match: Match, send: Callable[[str], Match]) -> Any:
        """Send a report with its key as a door does (the link's page, the API, the
        console's form): accepted (and whether it was a replay) or refused (and the
        code); refusals are kept. Remembered, to be sent again by ``report_sent_again``."""
        key = f"model-{len(self.keyed)}-{match.pk}"

        def call() -> tuple[str, Any]:
            try:
                done = send(key)
            except REFUSALS as err:
                return ("refused", getattr(err, "code", "invalid"))
            return ("replayed" if done.replayed else "accepted", done.pk)

        first = self.attempt(f"{what} ({key})", call)
        self.keyed.append((match.pk, f"{what} ({key})", call, first))
        if first is not None and first[0] == "accepted":
            self.accepted_on(match)
        return first

    @rule(
        pick=PICK,
        side=st.sampled_from([1, 2]),
        winner=st.sampled_from([1, 2]),
        cube=st.sampled_from([1, 1, 2]),
        shift=st.sampled_from([0, 0, 0, -1, 1]),
    )
    def player_reports_a_game(
        self, pick: int, side: int, winner: int, cube: int, shift: int
    ) -> None:
        """A player reports one game from their private link (the page gives it a key);
        now and then the wrong game number (one already recorded, or one too far)."""
        match = self.choose(self.matches(Match.Status.READY, Match.Status.PLAYING), pick)
        if match is None:
            return
        number = Game.objects.filter(match=match, voided=False).count() + 1 + shift
        player = (match.entry1 if winner == 1 else match.entry2).player_id  # type: ignore[union-attr]
        game = GameInput(winner=player, cube=cube, game_number=max(number, 1))
        self.keyed_report(
            f"player {side} reports game {game.game_number} of match {match.pk}",
            match,
            lambda key: game_report(
                match_id=match.pk,
                actor=self.player_actor(match, side),
                game=game,
                meta=self.meta,
                idempotency_key=key,
            ),
        )

    @rule(pick=PICK)
    def report_sent_again(self, pick: int) -> None:
        """A report arrives again with its key (a phone's queue sent twice, an answer lost
        on the way back, the console's form sent again): answered as the first time,
        nothing recorded."""
        sent = self.choose(self.keyed, pick)
        if sent is None:
            return
        match_id, what, call, first = sent
        if first is None or not Match.objects.filter(pk=match_id).exists():
            return

        def recorded() -> tuple[int, int, int]:
            return (
                Game.objects.filter(match_id=match_id).count(),
                Submission.objects.filter(match_id=match_id).count(),
                ReportKey.objects.filter(match_id=match_id).count(),
            )

        before = recorded()
        again = self.attempt(f"sent again: {what}", call)
        if recorded() != before:
            self.twice.append(f"{what} sent again: {before} -> {recorded()}")
        if again is None or (again[0] == "refused" and again[1] in GONE):
            return  # the sender may no longer act on the match (withdrawn, event over)
        expected = ("replayed", match_id) if first[0] == "accepted" else first
        if again != expected:
            self.twice.append(f"{what}: first {first}, again {again}")

    # ---- invariants ------------------------------------------------------------------

    @invariant()
    def background_jobs_finished_and_true(self) -> None:
        """Once the worker is idle no pairing job is still queued or running (none lost),
        and a job that says done names a started round of its event."""
        for event_id in self.jobs:
            job = pairing_job(event_id)
            assert job["state"] not in UNDER_WAY, f"event {event_id}: a job left {job}"
            if job["state"] == "done":
                round_ = Round.objects.filter(pk=job["round_id"], event_id=event_id).first()
                assert round_ is not None, f"event {event_id}: the job's round is gone: {job}"
                assert round_.number == job["round"]
                assert round_.status != Round.Status.PENDING, f"{round_} done but not started"

    @invariant()
    def one_player_per_email(self) -> None:
        """One person, one player per tournament: no two players of the tournament share
        an address (their own email or the tournament's contact for them)."""
        if not self.checks("one_player_per_email"):
            return
        players: dict[str, set[int]] = {}
        entered = Player.objects.filter(entries__event__tournament=self.tournament).distinct()
        links = {
            link.player_id: link.email
            for link in PlayerLink.objects.filter(tournament=self.tournament)
        }
        for player in entered:
            for email in {player.email, links.get(player.pk, "")} - {""}:
                players.setdefault(email.lower(), set()).add(player.pk)
        shared = {email: ids for email, ids in players.items() if len(ids) > 1}
        assert not shared, f"one email, several players: {shared}"

    @invariant()
    def no_player_in_two_open_matches(self) -> None:
        seen: Counter[tuple[int, int]] = Counter()
        for event_id, e1, e2 in Match.objects.filter(
            event__tournament=self.tournament, status__in=OPEN
        ).values_list("event_id", "entry1_id", "entry2_id"):
            seen.update((event_id, e) for e in (e1, e2) if e is not None)
        twice = [key for key, n in seen.items() if n > 1]
        assert not twice, f"(event, entry) {twice} sit in two open matches of the event"

    @invariant()
    def withdrawn_player_in_no_new_match(self) -> None:
        """A withdrawn player sits in no match of the event or of any event it feeds that
        was not theirs already when they withdrew, and in no open match of the event."""
        if not self.checks("withdrawn_player_in_no_new_match"):
            return
        for entry_id, before in self.withdrawn_with.items():
            entry = Entry.objects.select_related("player").get(pk=entry_id)
            if entry.status != Entry.Status.WITHDRAWN:
                continue
            now = matches_of_player(self.tournament, entry.player_id, feed_family(entry.event))
            new = now - before
            assert not new, f"{entry.player} withdrew, then was put into matches {sorted(new)}"
            open_ = Match.objects.filter(Q(entry1=entry) | Q(entry2=entry), status__in=OPEN)
            assert not open_.exists(), f"{entry.player} withdrew but is in an open match"

    @invariant()
    def tables_shared_by_no_two_matches_and_told(self) -> None:
        """No two unfinished matches sit at one table; the players of a ready match at a
        table were told that table (its "ready" notice names it, or a table notice)."""
        from tournament.services.player_links import notice_emails

        seated = list(
            Match.objects.filter(event__tournament=self.tournament, table__isnull=False)
            .exclude(status=Match.Status.COMPLETE)
            .select_related("event", "round", "entry1__player", "entry2__player")
        )
        tables = Counter(m.table for m in seated)
        shared = sorted(t for t, n in tables.items() if n > 1)
        assert not shared, f"tables {shared} each hold two unfinished matches"
        for match in seated:
            if match.status != Match.Status.READY or not (match.entry1 and match.entry2):
                continue
            players = [match.entry1.player_id, match.entry2.player_id]
            contacts = notice_emails(self.tournament.pk, players)
            for player_id in players:
                to = contacts.get(player_id)
                if not to:
                    continue
                told = [m for m in mail.outbox if m.to == [to] and tells_table(m, match)]
                assert told, (
                    f"match {match.pk} ({match.event.name}, {match.round}) is at table "
                    f"{match.table}; {to} was never told that table"
                )

    @invariant()
    def each_match_one_result(self) -> None:
        """A decided match has exactly one winner and one decision; an undecided match has
        none; a played match's games add up to its score; a player plays once per round."""
        matches = list(Match.objects.filter(event__in=self.dirty))
        points: dict[int, list[int]] = {}
        for match_id, side, value in Game.objects.filter(
            match__event__in=self.dirty, voided=False
        ).values_list("match_id", "winner_side", "points"):
            points.setdefault(match_id, [0, 0])[side - 1] += value
        rounds: Counter[tuple[int, int]] = Counter()
        for match in matches:
            rounds.update((match.round_id, e) for e in (match.entry1_id, match.entry2_id) if e)
            if match.status == Match.Status.COMPLETE:
                if match.is_bye and match.winner_id is None:
                    continue  # a voided (unneeded) match
                assert match.winner_id in (match.entry1_id, match.entry2_id), match
                assert match.decision, f"match {match.pk} is complete without a decision"
                if match.decision == Match.Decision.PLAY:
                    won = points.get(match.pk, [0, 0])
                    assert (
                        match.start_score1 + won[0],
                        match.start_score2 + won[1],
                    ) == (match.score1, match.score2), f"match {match.pk}: games and score differ"
            elif match.status in (Match.Status.REPORTED, Match.Status.DISPUTED):
                # A player's report decided it, awaiting the opponent (or the director): the
                # reported winner is one of its players, the decision "played".
                assert match.winner_id in (None, match.entry1_id, match.entry2_id), match
                assert match.decision in ("", Match.Decision.PLAY), match
            else:
                assert match.winner_id is None, f"match {match.pk} is {match.status}, won"
                assert not match.decision, f"match {match.pk} is {match.status}, decided"
        twice = [key for key, n in rounds.items() if n > 1]
        assert not twice, f"(round, entry) {twice}: a player twice in one round"

    @invariant()
    def field_counted_the_same_everywhere(self) -> None:
        if not self.checks("field_counted_the_same_everywhere"):
            return
        counts_of = field_counts(self.tournament, self.dirty)
        for event in self.dirty:
            field = expected_field(event)
            counts = counts_of[event.pk]
            wrong = {where: n for where, n in counts.items() if n != len(field)}
            assert not wrong, f"{event.name} has {len(field)} players; but {wrong}"

    @invariant()
    def places_rank_exactly_the_drawn(self) -> None:
        if not self.checks("places_rank_exactly_the_drawn"):
            return
        for event in self.dirty:
            sheet = event_final(event)
            if sheet is None:
                continue
            placed = [row.entry.pk for row in sheet.rows]
            assert len(placed) == len(set(placed)), f"{event.name}: a player placed twice"
            field = expected_field(event)
            assert set(placed) == field, (
                f"{event.name}: places rank {sorted(placed)}, the drawn are {sorted(field)}"
            )
            best = sorted(row.place.best for row in sheet.rows)
            for row in sheet.rows:
                better = sum(1 for b in best if b < row.place.best)
                assert better == row.place.best - 1, f"{event.name}: {row.place} after {better}"

    @invariant()
    def notices_true_or_corrected(self) -> None:
        """Every "your next match" email still holds (its match on between its players:
        not decided by walkover or forfeit) or was taken back by a correction; every
        correction still holds (that match is off) or a later notice put it on again."""
        if not self.checks("notices_true_or_corrected"):
            return
        seen = (len(self.notices), len(self.corrections))
        if not self.dirty and seen == self._notices_seen:
            return  # no match, entry or email changed since the last look
        self._notices_seen = seen
        for notice in self.notices:
            assert notice_corrected(notice, self.corrections) or notice_true(notice), (
                f"{notice.to} was told of match {notice.match_id} against "
                f"{notice.opponent_name}, which no longer holds, and never told it is off"
            )
        for correction in self.corrections:
            assert correction_true(correction, self.notices), (
                f"{correction.to} was told their match {correction.match_id} against "
                f"{correction.opponent_name} is off, but it is on and they were never told"
            )

    @invariant()
    def money_in_the_currency_saved(self) -> None:
        """The tournament's currency is the one the director last saved, written as its
        ISO code; a refused code changed nothing."""
        self.tournament.refresh_from_db()
        assert self.tournament.currency == self.currency, (self.tournament.currency, self.currency)

    @invariant()
    def emails_in_the_recipients_language(self) -> None:
        """Every email to a player is written in the language they signed up in, else in
        the tournament's (its ``Content-Language`` says which); a sign-up mail to an address
        that is no player's yet, in the language of the page it was asked on, else the
        tournament's. The tournament's language is always one the site offers."""
        self.tournament.refresh_from_db()
        offered = {code for code, _label in settings.LANGUAGES}
        assert self.tournament.language in offered, self.tournament.language
        new = mail.outbox[self.mails_seen :]
        self.mails_seen = len(mail.outbox)
        for message in new:
            (address,) = message.to
            players = list(
                Player.objects.filter(
                    Q(email__iexact=address)
                    | Q(links__tournament=self.tournament, links__email__iexact=address)
                ).distinct()
            )
            if not players and address.lower() in self.asked_in:
                # A sign-up mail to an address no player has yet: the page's language.
                asked_in = self.asked_in[address.lower()]
                offered_here = asked_in if asked_in in offered else ""
                expected = offered_here or self.tournament.language
            elif len(players) != 1:
                continue  # a director, or an address two players share: no one language
            else:
                expected = players[0].language or self.tournament.language
            assert message.extra_headers.get("Content-Language") == expected, (
                f"{address} was written to in {message.extra_headers.get('Content-Language')}"
                f", not in {expected}: {message.subject}"
            )

    @invariant()
    def elimination_exactly_at_n_losses(self) -> None:
        """An elimination Swiss: a player is out exactly at N losses, in the round of the
        N-th; nobody out is in a match of a later round (unless a result was corrected)."""
        event = self.elim
        if event not in self.dirty:
            return
        event.refresh_from_db()
        limit = event.losses_to_eliminate
        records = elimination_records(event)
        withdrawn = set(
            event.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True)
        )
        losses_by_round: dict[int, list[int]] = {}
        for number, winner, one, two in Match.objects.filter(
            event=event,
            status=Match.Status.COMPLETE,
            is_bye=False,
            winner__isnull=False,
            round__bracket=Round.Bracket.MAIN,  # a playoff leaves the Swiss records
        ).values_list("round__number", "winner_id", "entry1_id", "entry2_id"):
            loser = two if winner == one else one
            losses_by_round.setdefault(loser, []).append(number)
        for pk, record in records.items():
            lost = sorted(losses_by_round.get(pk, []))
            assert record.losses == len(lost), f"entry {pk}: {record.losses} losses, {lost}"
            if pk in withdrawn:
                continue
            assert record.alive == (record.losses < limit), (
                f"entry {pk}: {record.losses} losses of {limit}, alive={record.alive}"
            )
            if not record.alive and not self.elim_corrected:
                kept = self.elim_kept.get(pk)
                # A player kept one more round may lose it too: one loss more.
                most = limit + (1 if kept is not None else 0)
                assert limit <= record.losses <= most, (
                    f"entry {pk}: out with {record.losses} losses"
                )
                assert record.eliminated_in_round == lost[limit - 1], (
                    f"entry {pk}: out in round {record.eliminated_in_round}, "
                    f"its {limit}th loss in round {lost[limit - 1]}"
                )
                later = Match.objects.filter(
                    Q(entry1_id=pk) | Q(entry2_id=pk),
                    event=event,
                    round__number__gt=record.eliminated_in_round,
                ).exclude(round__number=kept)
                assert not later.exists(), f"entry {pk} is out but paired after it"
                if kept is not None:
                    assert kept == record.eliminated_in_round + 1, (
                        f"entry {pk}: out in round {record.eliminated_in_round}, kept in {kept}"
                    )
        rows = standings(event)
        for row in rows:
            assert row.status == ("alive" if records[row.entry.pk].alive else "eliminated")

    @invariant()
    def one_champion(self) -> None:
        """A finished elimination Swiss has one champion: the one player alive (unless the
        director ended it early, when the champion is the player placed first alone)."""
        event = self.elim
        event.refresh_from_db()
        if event.status != Event.Status.FINISHED:
            return
        records = elimination_records(event)
        alive = [pk for pk, r in records.items() if r.alive]
        if not self.elim_ended and not self.elim_corrected:
            if event.playoff:  # the champion is the playoff's winner, among those left
                assert sorted(alive) == sorted(event.playoff["seeds"]), (
                    f"{len(alive)} alive at the end, {event.playoff['seeds']} in the playoff"
                )
                assert event.champion_id in event.playoff["seeds"]
            elif self.elim_switch_places:  # the switch ends it with the places paid
                assert len(alive) <= max(1, self.elim_switch_places), (
                    f"{event.name} finished with {len(alive)} alive"
                )
            else:
                assert len(alive) <= 1, f"{event.name} finished with {len(alive)} alive"
                if alive:
                    assert event.champion_id == alive[0], (
                        f"champion {event.champion_id}, the one alive {alive[0]}"
                    )
        sheet = event_final(event)
        assert sheet is not None
        firsts = [row.entry.pk for row in sheet.rows if row.place.best == 1]
        if event.champion_id is not None:
            assert firsts == [event.champion_id], f"champion {event.champion_id}, 1st {firsts}"

    @invariant()
    def playoff_of_the_players_left(self) -> None:
        """An elimination Swiss's playoff (three-player or Wisconsin knockout) begins with
        exactly the players alive, seats only them, and leaves their Swiss records."""
        event = self.elim
        if event not in self.dirty:
            return
        event.refresh_from_db()
        records = elimination_records(event)
        if not event.playoff:
            assert not event.rounds.filter(bracket=Round.Bracket.PLAYOFF).exists()
            return
        seeds = set(event.playoff["seeds"])
        if self.elim_records_at_playoff is None:
            self.elim_records_at_playoff = dict(records)
            alive = {pk for pk, r in records.items() if r.alive}
            assert seeds == alive, f"playoff of {sorted(seeds)}, alive {sorted(alive)}"
            kind = event.playoff["kind"]
            if kind == "three-player":
                assert len({(records[e].wins, records[e].losses) for e in seeds}) == 1
            else:
                assert event.wisconsin_after_rounds is not None
                assert event.playoff["after_round"] >= event.wisconsin_after_rounds
        elif not self.elim_corrected:
            withdrawn = set(
                event.entries.filter(status=Entry.Status.WITHDRAWN).values_list("pk", flat=True)
            )
            for pk, record in records.items():  # a withdrawal puts its player out
                if pk not in withdrawn:
                    assert record == self.elim_records_at_playoff[pk], (
                        f"the playoff changed entry {pk}'s record"
                    )
        seated = {
            e
            for pair in Match.objects.filter(
                event=event, round__bracket=Round.Bracket.PLAYOFF
            ).values_list("entry1_id", "entry2_id")
            for e in pair
            if e is not None
        }
        assert seated <= seeds, f"{sorted(seated - seeds)} play the playoff, not in it"

    @invariant()
    def forbidden_pairs_kept(self) -> None:
        """No absolute forbidden pair meets in a round paired after it was made, unless
        the director relaxed it for that round (the pairing log says so)."""
        from tournament.models import ForbiddenPair, PairingNote

        for event in (self.swiss, self.elim):
            if event not in self.dirty:
                continue
            relaxed_rounds = set(
                PairingNote.objects.filter(event=event, text__contains="relaxed").values_list(
                    "round_number", flat=True
                )
            )
            for rule_ in ForbiddenPair.objects.filter(event=event, strength="absolute"):
                met = Match.objects.filter(
                    event=event,
                    round__number__gt=self.forbidden_after.get(rule_.pk, 0),
                    # A playoff keeps them apart in its first round where its form can;
                    # its later rounds cannot (tests/tournament/test_elimination_endings).
                    round__bracket=Round.Bracket.MAIN,
                ).filter(
                    Q(entry1__player_id=rule_.player_a_id, entry2__player_id=rule_.player_b_id)
                    | Q(entry1__player_id=rule_.player_b_id, entry2__player_id=rule_.player_a_id)
                )
                for number in met.values_list("round__number", flat=True):
                    if rule_.rounds == "first" and number != 1:
                        continue
                    assert number in relaxed_rounds, (
                        f"{event.name}: a forbidden pair met in round {number}"
                    )

    @invariant()
    def accepted_actions_audited(self) -> None:
        """Every accepted action on a match is an accepted submission in its audit, and
        every decided match (not a bye) has one."""
        audited = Counter(
            Submission.objects.filter(
                match__event__tournament=self.tournament, status=Submission.Status.ACCEPTED
            ).values_list("match_id", flat=True)
        )
        for match_id, n in self.accepted.items():
            assert audited[match_id] >= n, (
                f"match {match_id}: {n} actions, {audited[match_id]} audited"
            )
        decided = Match.objects.filter(
            event__tournament=self.tournament, status=Match.Status.COMPLETE, is_bye=False
        ).exclude(decision=Match.Decision.BYE)
        for match_id in decided.values_list("pk", flat=True):
            assert audited[match_id] >= 1, f"match {match_id} decided with nothing in its audit"

    @invariant()
    def nothing_recorded_twice(self) -> None:
        """A report sent again with its key records nothing and is answered as the first
        time; each key names one report, and an accepted game report's key one game."""
        assert not self.twice, f"reports sent again were recorded or answered anew: {self.twice}"
        keys = ReportKey.objects.filter(
            match__event__tournament=self.tournament, submission__kind=Submission.Kind.GAME
        )
        for match_id, key, submission_id in keys.values_list("match_id", "key", "submission_id"):
            games = Game.objects.filter(submission_id=submission_id).count()
            assert games <= 1, f"{key} on match {match_id}: one game report, {games} games"


__all__ = ["PENDING", "TournamentModel"]
