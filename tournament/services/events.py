"""Events: a bracket or division of a tournament, its format, match lengths and feeds."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from matches.errors import AppError, refuse
from matches.models import Match
from tournament import page_cache
from tournament.formats import swiss_elimination as elimination
from tournament.formats.errors import FormatError
from tournament.models import Event, Round, Tournament

MAX_LENGTH = 99
ELIMINATION = (Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION)


def check_match_lengths(match_lengths: object) -> list[int]:
    """A non-empty list of match lengths (1 to 99 points); the last one repeats."""
    if not isinstance(match_lengths, (list, tuple)) or not match_lengths:
        raise refuse(
            _("Give at least one match length, e.g. [11, 11, 13, 17]."),
            code="invalid",
            field="match_lengths",
        )
    lengths: list[int] = []
    for position, value in enumerate(match_lengths, start=1):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LENGTH:
            raise refuse(
                _(
                    "Match length {position} must be a whole number of points "
                    "from 1 to {MAX_LENGTH}, not {value!r}."
                ).format(position=position, MAX_LENGTH=MAX_LENGTH, value=value),
                code="invalid",
                field="match_lengths",
            )
        lengths.append(value)
    return lengths


def check_clock(clock: object) -> list[dict[str, float]]:
    """Per-round clock settings (reserve minutes per point, delay seconds); blank is none."""
    if clock in (None, ""):
        return []
    if not isinstance(clock, (list, tuple)):
        raise refuse(_("The clock is a list of per-round settings."), code="invalid", field="clock")
    checked: list[dict[str, float]] = []
    for position, item in enumerate(clock, start=1):
        if not isinstance(item, dict) or set(item) - {"reserve_minutes_per_point", "delay_seconds"}:
            raise refuse(
                _(
                    "Clock setting {position} takes reserve_minutes_per_point and delay_seconds."
                ).format(position=position),
                code="invalid",
                field="clock",
            )
        values: dict[str, float] = {}
        for key in ("reserve_minutes_per_point", "delay_seconds"):
            value = item.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise refuse(
                    _("Clock setting {position}: {key} is a number of 0 or more.").format(
                        position=position, key=key
                    ),
                    code="invalid",
                    field="clock",
                )
            values[key] = value
        checked.append(values)
    return checked


def check_feed(
    tournament: Tournament,
    feeds_from: Event,
    feed_rounds: object,
    event_format: str,
    *,
    fed_event_id: int | None = None,
) -> list[int]:
    """The rounds of ``feeds_from`` whose losers enter a Consolation (sorted), once the feed
    is possible; ``fed_event_id`` is the Consolation's own id when it exists already."""
    if feeds_from.tournament_id != tournament.pk:
        raise refuse(
            _("An event can only be fed by an event of the same tournament."),
            code="bad-feed",
            field="feeds",
        )
    if feeds_from.format != Event.Format.SINGLE_ELIMINATION or feeds_from.feeds_from_id:
        raise refuse(
            (
                _(
                    "Only a single-elimination Main can feed a Consolation; {event} is "
                    "{format} and fed itself."
                )
                if feeds_from.feeds_from_id
                else _(
                    "Only a single-elimination Main can feed a Consolation; {event} is {format}."
                )
            ).format(event=repr(feeds_from.name), format=feeds_from.format_in_text()),
            code="bad-feed",
            field="feeds",
        )
    if event_format != Event.Format.SINGLE_ELIMINATION:
        raise refuse(
            _("A Consolation fed by a Main is a single-elimination bracket."),
            code="bad-feed",
            field="format",
        )
    if feeds_from.status != Event.Status.REGISTRATION:
        raise refuse(
            _(
                "{feeds_from_name!r} is already drawn: create its Consolation before its draw."
            ).format(feeds_from_name=feeds_from.name),
            code="feeds-source-drawn",
            field="feeds",
        )
    if not isinstance(feed_rounds, (list, tuple)) or not feed_rounds:
        raise refuse(
            _("Name the Main rounds whose losers enter, e.g. [1, 2]."),
            code="bad-fed-rounds",
            field="feeds",
        )
    rounds: list[int] = []
    for value in feed_rounds:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise refuse(
                _("A fed round is a Main round number (1, 2, ...), not {value!r}.").format(
                    value=value
                ),
                code="bad-fed-rounds",
                field="feeds",
            )
        if value in rounds:
            raise refuse(
                _("Round {value} is named twice.").format(value=value),
                code="bad-fed-rounds",
                field="feeds",
            )
        rounds.append(value)
    taken = {
        number
        for other in feeds_from.feeds.all()
        if other.pk != fed_event_id
        for number in (other.feed_rounds or [])
    } & set(rounds)
    if taken:
        raise refuse(
            _(
                "The losers of round(s) {sorted_taken} of "
                "{feeds_from_name!r} already go to another event."
            ).format(sorted_taken=sorted(taken), feeds_from_name=feeds_from.name),
            code="bad-fed-rounds",
            field="feeds",
        )
    return sorted(rounds)


def check_payout_split(payout_split: Sequence[float] | None) -> list[float]:
    """Percentages of the pool by place, adding up to 100 at most."""
    split = list(payout_split or [])
    if any(isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0 for p in split) or (
        split and sum(split) > 100
    ):
        raise refuse(
            _("The payout split is percentages of the pool, adding up to 100 at most."),
            code="invalid",
            field="payout_split",
        )
    return split


def check_entry_fee(entry_fee: Decimal | None) -> None:
    """An entry fee is an amount of 0 or more (or none)."""
    if entry_fee is not None and entry_fee < 0:
        raise refuse(_("An entry fee cannot be negative."), code="invalid", field="entry_fee")


#: Event slugs that would hide a page of the tournament (/t/<slug>/scoreboard/ ...).
RESERVED_SLUGS = frozenset({"scoreboard", "live", "print", "slips", "draws"})


def _free_slug(tournament: Tournament, name: str, slug: str) -> str:
    if slug:
        clean = slugify(slug)
        if not clean:
            raise refuse(_("A slug is letters, digits and hyphens."), code="invalid", field="slug")
        if clean in RESERVED_SLUGS:
            raise refuse(
                _("The slug {clean!r} names a page of the tournament.").format(clean=clean),
                code="slug-taken",
                field="slug",
            )
        if tournament.events.filter(slug=clean).exists():
            raise refuse(
                _("The slug {clean!r} is taken.").format(clean=clean),
                code="slug-taken",
                field="slug",
            )
        return clean
    base = (slugify(name) or "event")[:40]
    taken = set(tournament.events.values_list("slug", flat=True)) | RESERVED_SLUGS
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def event_create(
    *,
    tournament: Tournament,
    name: str,
    format: str = Event.Format.SINGLE_ELIMINATION,
    match_lengths: Sequence[int] = (7,),
    crawford: bool = True,
    holland: bool = False,
    kind: str | None = None,
    rounds: int | None = None,
    feeds_from: Event | None = None,
    feed_rounds: Sequence[int] | None = None,
    clock: Sequence[dict[str, Any]] | None = None,
    tiebreaks: Sequence[str] | None = None,
    slug: str = "",
    entry_fee: Decimal | None = None,
    payout_split: Sequence[float] | None = None,
    deadline_rule: str = Event.DeadlineRule.FLAG,
    start_matches: str = Event.StartMatches.BY_ROUND,
    losses_to_eliminate: int = elimination.DEFAULT_LOSSES,
    places_paid: int | None = None,
    playoff_switch: bool = False,
    last_loss_cashes: bool = False,
    avoid_same_club_first_round: bool = False,
    three_player_playoff: bool = False,
    wisconsin_after_rounds: int | None = None,
) -> Event:
    """Create an event. ``feeds_from`` + ``feed_rounds`` make it a Consolation of that Main.

    ``start_matches``: ``auto`` opens each match as soon as both players are known;
    ``by-round`` waits for the director to start its round.

    ``rounds`` is the number of Swiss rounds (default: enough to find a winner,
    chosen at the draw). ``tiebreaks`` are names known to ``formats.standings``.
    """
    wanted = {
        "name": name,
        "kind": kind,
        "format": format,
        "match_lengths": match_lengths,
        "crawford": crawford,
        "holland": holland,
        "rounds_planned": rounds,
        "feeds_from": feeds_from,
        "feed_rounds": feed_rounds,
        "clock": clock,
        "tiebreaks": tiebreaks,
        "entry_fee": entry_fee,
        "payout_split": payout_split,
        "deadline_rule": deadline_rule,
        "start_matches": start_matches,
        "losses_to_eliminate": losses_to_eliminate,
        "places_paid": places_paid,
        "playoff_switch": playoff_switch,
        "last_loss_cashes": last_loss_cashes,
        "avoid_same_club_first_round": avoid_same_club_first_round,
        "three_player_playoff": three_player_playoff,
        "wisconsin_after_rounds": wisconsin_after_rounds,
    }
    with _named_as_created():
        spec = spec_values(wanted, lambda: derived_kind(feeds_from, format))
        spec_relations(tournament=tournament, changed=spec, after=spec.get, feeding=feeds_from)
    name, kind, lengths = spec["name"], spec["kind"], spec["match_lengths"]
    fed_rounds = spec["feed_rounds"]
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        if feeds_from is not None:
            feeds_from = Event.objects.select_for_update(no_key=True).get(pk=feeds_from.pk)
            with _named_as_created():
                fed_rounds = check_feed(tournament, feeds_from, fed_rounds, format)
        position = (tournament.events.aggregate(top=Max("position"))["top"] or 0) + 1
        event = Event(
            tournament=tournament,
            name=name,
            slug=_free_slug(tournament, name, slug),
            kind=kind,
            format=format,
            match_lengths=lengths,
            crawford=crawford,
            holland=holland,
            clock=spec["clock"],
            entry_fee=entry_fee,
            payout_split=spec["payout_split"],
            feeds_from=feeds_from,
            feed_rounds=fed_rounds,
            rounds_planned=spec["rounds_planned"],
            tiebreaks=spec["tiebreaks"],
            deadline_rule=spec["deadline_rule"],
            start_matches=spec["start_matches"],
            losses_to_eliminate=spec["losses_to_eliminate"],
            places_paid=spec["places_paid"],
            playoff_switch=spec["playoff_switch"],
            last_loss_cashes=spec["last_loss_cashes"],
            avoid_same_club_first_round=spec["avoid_same_club_first_round"],
            three_player_playoff=spec["three_player_playoff"],
            wisconsin_after_rounds=spec["wisconsin_after_rounds"],
            position=position,
        )
        event.full_clean(exclude=["champion"])
        event.save()
        page_cache.invalidate_event_on_commit(event.pk, tournament.pk)
    return event


#: The name each setting has at creation where it differs from the model's field.
CREATION_NAMES = {"rounds_planned": "rounds", "feeds_from": "feeds", "feed_rounds": "feeds"}


@contextmanager
def _named_as_created() -> Iterator[None]:
    """Refusals at creation name the settings as ``event_create`` takes them."""
    try:
        yield
    except AppError as err:
        field = err.detail.get("field")
        if field in CREATION_NAMES:
            err.detail["field"] = CREATION_NAMES[field]
        raise


def check_start_matches(value: object) -> str:
    """A known way of starting matches, or a refusal naming the field."""
    if value not in Event.StartMatches.values:
        raise refuse(
            _(
                "Unknown way to start matches {value!r}: choose {or_join_Event_StartMatches_val}."
            ).format(
                value=value, or_join_Event_StartMatches_val=" or ".join(Event.StartMatches.values)
            ),
            code="invalid",
            field="start_matches",
        )
    return str(value)


def check_tiebreaks(tiebreaks: Sequence[str] | None) -> list[str]:
    """Tie-break names known to the standings, in order; none given means the default ones."""
    from tournament.selectors import DEFAULT_TIEBREAKS, TIEBREAKS

    if not tiebreaks:
        return list(DEFAULT_TIEBREAKS)
    if isinstance(tiebreaks, str):
        raise refuse(_("Tie-breaks are a list of names."), code="invalid", field="tiebreaks")
    known = set(TIEBREAKS)
    unknown = [t for t in tiebreaks if t not in known]
    if unknown:
        raise refuse(
            _("Unknown tie-break(s) {unknown}: choose from {join_sorted_known}.").format(
                unknown=unknown, join_sorted_known=", ".join(sorted(known))
            ),
            code="invalid",
            field="tiebreaks",
        )
    if len(set(tiebreaks)) != len(tiebreaks):
        raise refuse(_("A tie-break is named twice."), code="invalid", field="tiebreaks")
    return list(tiebreaks)


# -- the one check of an event's settings (creation and every later change) ----------
#
# ``spec_values`` checks each value given and returns it in its stored shape (the
# model's field names); ``spec_relations`` then checks the settings that depend on one
# another, as they will be once the values are applied.


#: Most Swiss rounds an event may plan.
MAX_ROUNDS = 50


def derived_kind(feeds_from: object, event_format: object) -> str:
    """The kind an event takes when none is given: from its feed and format.

    >>> derived_kind(None, Event.Format.SWISS)
    'side'
    """
    if feeds_from is not None:
        return str(Event.Kind.CONSOLATION)
    if event_format in ELIMINATION:
        return str(Event.Kind.MAIN)
    return str(Event.Kind.SIDE)


def spec_values(wanted: dict[str, Any], kind_if_none: Callable[[], str]) -> dict[str, Any]:
    """Each given value in its stored shape, refused when it is not a valid value.

    ``kind`` ``None`` means the kind that ``kind_if_none`` derives; ``feeds_from`` (an
    event or ``None``) becomes its id.
    """
    new: dict[str, Any] = {}
    for field, value in wanted.items():
        if field == "name":
            value = (value or "").strip()
            if not value:
                raise refuse(_("An event needs a name."), code="invalid", field="name")
        elif field == "kind":
            if value is None:
                value = kind_if_none()
            if value not in Event.Kind.values:
                raise refuse(
                    _("Unknown kind {value!r}.").format(value=value), code="invalid", field="kind"
                )
        elif field == "format" and value not in Event.Format.values:
            raise refuse(
                _("Unknown format {value!r}: choose one of {join_Event_Format_values}.").format(
                    value=value, join_Event_Format_values=", ".join(Event.Format.values)
                ),
                code="invalid",
                field="format",
            )
        elif field == "match_lengths":
            value = check_match_lengths(list(value))
        elif field == "rounds_planned" and value is not None:
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not 1 <= value <= MAX_ROUNDS
            ):
                raise refuse(
                    _("A Swiss event has 1 to {MAX_ROUNDS} rounds.").format(MAX_ROUNDS=MAX_ROUNDS),
                    code="invalid",
                    field="rounds_planned",
                )
        elif field == "feeds_from":
            value = value.pk if value is not None else None
        elif field == "feed_rounds":
            value = sorted(value or [])
        elif field == "clock":
            value = check_clock(list(value or []))
        elif field == "tiebreaks":
            value = check_tiebreaks(list(value or []))
        elif field == "entry_fee":
            check_entry_fee(value)
        elif field == "payout_split":
            value = check_payout_split(list(value or []))
        elif field == "start_matches":
            value = check_start_matches(value)
        elif field == "deadline_rule" and value not in Event.DeadlineRule.values:
            raise refuse(
                _("Unknown deadline rule {value!r}.").format(value=value),
                code="invalid",
                field="deadline_rule",
            )
        elif field in SIGNUP_AND_PRIZE_FIELDS:
            value = _signup_or_prize_value(field, value)
        elif field in ELIMINATION_FIELDS:
            value = _elimination_value(field, value)
        new[field] = value
    return new


#: The units a director rounds prizes to.
PRIZE_UNITS = (1, 5, 10)
SIGNUP_AND_PRIZE_FIELDS = frozenset(
    {"signup", "signup_deadline", "entry_cap", "added_money", "prize_unit"}
)


#: The settings of an elimination Swiss (and the same-club rule of any paired event).
ELIMINATION_FIELDS = frozenset(
    {
        "losses_to_eliminate",
        "places_paid",
        "playoff_switch",
        "last_loss_cashes",
        "avoid_same_club_first_round",
        "three_player_playoff",
        "wisconsin_after_rounds",
    }
)


def _elimination_value(field: str, value: Any) -> Any:
    """An elimination Swiss setting checked, refused naming the field."""
    if field == "losses_to_eliminate":
        try:
            return elimination.check_losses(value)
        except FormatError as err:
            raise refuse(
                _("Losses to eliminate is a whole number from 2 to 6."),
                code="invalid",
                field="losses_to_eliminate",
            ) from err
    if field == "places_paid":
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000
        ):
            raise refuse(
                _("The places paid are a whole number from 1 (or none)."),
                code="invalid",
                field="places_paid",
            )
        return value
    if field == "wisconsin_after_rounds":
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= MAX_WISCONSIN_ROUNDS
        ):
            raise refuse(
                _("The Wisconsin ending comes after 1 to {most} rounds (or none).").format(
                    most=MAX_WISCONSIN_ROUNDS
                ),
                code="invalid",
                field="wisconsin_after_rounds",
            )
        return value
    if not isinstance(value, bool):
        raise refuse(_("A yes or no setting."), code="invalid", field=field)
    return value


#: The most Swiss rounds before the Wisconsin ending's knockout.
MAX_WISCONSIN_ROUNDS = 50


def _signup_or_prize_value(field: str, value: Any) -> Any:
    """A sign-up or prize setting in its stored shape, refused when it is not valid."""
    if field == "signup" and value not in Event.Signup.values:
        raise refuse(
            _("Sign-up is closed, open, or open with approval."), code="invalid", field="signup"
        )
    if field == "signup_deadline" and value is not None and not isinstance(value, datetime):
        raise refuse(_("A deadline is a date and time."), code="invalid", field="signup_deadline")
    if (
        field == "entry_cap"
        and value is not None
        and (isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 10000)
    ):
        raise refuse(
            _("An entry cap is a whole number from 2 (or none)."), code="invalid", field="entry_cap"
        )
    if field == "added_money":
        try:
            value = Decimal(str(value if value is not None else 0))
        except (InvalidOperation, ValueError):
            value = Decimal("NaN")
        if not value.is_finite() or value < 0 or value >= 10**7:
            raise refuse(
                _("Added money is 0 or more, below 10,000,000."),
                code="invalid",
                field="added_money",
            )
    if field == "prize_unit" and value not in PRIZE_UNITS:
        raise refuse(_("Prizes round to a unit of 1, 5 or 10."), code="invalid", field="prize_unit")
    return value


def spec_relations(
    *,
    tournament: Tournament,
    changed: dict[str, Any],
    after: Callable[[str], Any],
    event: Event | None = None,
    feeding: Event | None = None,
) -> None:
    """Settings that depend on one another, as they will be after ``changed``.

    ``after(field)`` is a setting's value once the change is made; ``event`` is the
    event changed (``None`` at creation) and ``feeding`` the feeding event when the
    caller holds it already. ``changed["feed_rounds"]`` becomes the checked fed rounds.
    """
    if after("holland") and not after("crawford"):
        raise refuse(
            _("The Holland rule only applies after a Crawford game: turn Crawford on."),
            code="holland-needs-crawford",
            field="holland",
        )
    if {"entry_fee", "feeds_from"} & set(changed) and after("feeds_from") and after("entry_fee"):
        raise refuse(
            _("A fed Consolation's players come from its feed and pay no entry fee there."),
            code="no-fee-here",
            field="entry_fee",
        )
    event_format = after("format")
    if (
        {"rounds_planned", "format"} & set(changed)
        and after("rounds_planned") is not None
        and event_format != Event.Format.SWISS
    ):
        raise refuse(
            _(
                "The number of rounds is set for Swiss events only; "
                "elimination and round robin events follow from the field."
            ),
            code="invalid",
            field="rounds_planned",
        )
    if event is not None and changed.get("rounds_planned") is not None:
        paired = event.rounds.filter(bracket=Round.Bracket.MAIN).count()
        if changed["rounds_planned"] < paired:
            raise refuse(
                _("{event_name} has paired {paired} rounds already: it cannot have fewer.").format(
                    event_name=event.name, paired=paired
                ),
                code="invalid",
                field="rounds_planned",
            )
    feeds_from_id = after("feeds_from")
    feed_rounds = after("feed_rounds")
    if feeds_from_id is None:
        if feed_rounds:
            raise refuse(
                _("Fed rounds need the event they come from."), code="bad-feed", field="feeds_from"
            )
        if after("kind") == Event.Kind.CONSOLATION:
            raise refuse(
                _("A Consolation needs the Main that feeds it."),
                code="bad-feed",
                field="feeds_from",
            )
    elif {"feeds_from", "feed_rounds", "format"} & set(changed):
        if event is not None and feeds_from_id == event.pk:
            raise refuse(_("An event cannot feed itself."), code="bad-feed", field="feeds_from")
        source = feeding if feeding is not None else Event.objects.get(pk=feeds_from_id)
        changed["feed_rounds"] = check_feed(
            tournament,
            source,
            feed_rounds,
            event_format,
            fed_event_id=event.pk if event is not None else None,
        )


def pending_rounds_relength(event: Event) -> None:
    """Give the event's rounds that have not started (and their matches without a game)
    the lengths ``event.match_lengths`` now says (the caller holds the event's lock)."""
    for round_ in event.rounds.filter(status=Round.Status.PENDING):
        number = round_.number
        if round_.bracket == Round.Bracket.FINAL:
            number = event.rounds.filter(bracket=Round.Bracket.MAIN).count()
        length = event.length_for_round(number)
        if length != round_.match_length:
            round_.match_length = length
            round_.save(update_fields=["match_length"])
            Match.objects.filter(round=round_, games__isnull=True).update(length=length)
