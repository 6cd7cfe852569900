"""The console's event pages: creating an event, its settings, its page and match lengths."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from matches.errors import REFUSALS
from matches.names import tell_apart
from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_service,
    service_error_message,
)
from tournament.models import Entry, Event
from tournament.selectors import elimination_counts, elimination_next, numbers_tables
from tournament.selectors.withdrawals import undoable_withdrawals
from tournament.services.event_settings import KEEP, event_locked_settings, event_update
from tournament.services.events import event_create
from tournament.services.payments import unpaid_count
from tournament.services.signup import signup_namesakes


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Create an event: format, match length per round, Crawford/Holland, feed, clocks."""
    tournament = selectors.tournament_for(request.user, slug)
    form = forms.EventForm(
        request.POST or None,
        feeds=selectors.feeding_events(tournament),
        currency=tournament.currency,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        event = call_service(
            form,
            event_create,
            tournament=tournament,
            name=data["name"],
            slug=data["slug"],
            kind=data["kind"] or None,
            format=data["format"],
            match_lengths=data["match_lengths"],
            crawford=data["crawford"],
            holland=data["holland"],
            clock=data["clock"],
            feeds_from=data["feeds_from"],
            feed_rounds=data["feed_rounds"],
            rounds=data["rounds_planned"],
            entry_fee=data["entry_fee"],
            payout_split=data["payout_split"],
            tiebreaks=data["tiebreaks"],
            deadline_rule=data["deadline_rule"],
            start_matches=data["start_matches"] or Event.StartMatches.BY_ROUND,
            losses_to_eliminate=data["losses_to_eliminate"] or 3,
            places_paid=data["places_paid"],
            playoff_switch=data["playoff_switch"],
            last_loss_cashes=data["last_loss_cashes"],
            avoid_same_club_first_round=data["avoid_same_club_first_round"],
            three_player_playoff=data["three_player_playoff"],
            wisconsin_after_rounds=data["wisconsin_after_rounds"],
        )
        if event is not None:
            messages.success(request, _("{event_name} created.").format(event_name=event.name))
            return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event_form.html",
        {"tournament": tournament, "form": form, "groups": form.groups()},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_settings(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Change an event's settings; those its draw (or its end) fixed are shown locked.

    A locked setting sent with a new value is refused next to its field (by the form
    for the slug, by ``event_update`` for the others), never silently kept.
    """
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    form = forms.EventSettingsForm(
        request.POST or None,
        event=event,
        locked=event_locked_settings(event),
        feeds=selectors.feeding_events(tournament).exclude(pk=event.pk),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = event_update(
                event=event,
                name=data["name"],
                kind=data["kind"] or None,
                format=data["format"],
                match_lengths=data["match_lengths"],
                crawford=data["crawford"],
                holland=data["holland"],
                rounds=data["rounds_planned"],
                feeds_from=data["feeds_from"],
                feed_rounds=data["feed_rounds"],
                clock=data["clock"],
                tiebreaks=data["tiebreaks"],
                entry_fee=data["entry_fee"],
                payout_split=data["payout_split"],
                deadline_rule=data["deadline_rule"],
                start_matches=data["start_matches"] or KEEP,
                signup=data["signup"],
                signup_deadline=data["signup_deadline"],
                entry_cap=data["entry_cap"],
                added_money=data["added_money"] or Decimal(0),
                prize_unit=data["prize_unit"],
                losses_to_eliminate=data["losses_to_eliminate"] or KEEP,
                places_paid=data["places_paid"],
                playoff_switch=data["playoff_switch"],
                last_loss_cashes=data["last_loss_cashes"],
                avoid_same_club_first_round=data["avoid_same_club_first_round"],
                three_player_playoff=data["three_player_playoff"],
                wisconsin_after_rounds=data["wisconsin_after_rounds"],
            )
        except (*REFUSALS, ValidationError) as exc:
            field, message = service_error_message(exc)
            form.add_error(form.field_for(field), message)
        else:
            messages.success(
                request, _("{saved_name}: settings saved.").format(saved_name=saved.name)
            )
            return redirect("console:event", tournament.slug, saved.slug)
    return render(
        request,
        "console/event_form.html",
        {
            "tournament": tournament,
            "event": event,
            "form": form,
            "groups": form.groups(),
            "editing": True,
            "locked": form.locked,
        },
        status=400 if form.errors else 200,
    )


def event_context(
    request: AuthenticatedHttpRequest, tournament: Any, event: Any, **forms_given: Any
) -> dict[str, Any]:
    """What the event page shows, with fresh forms unless a failed one is given back."""
    entries = selectors.event_entries(event)
    signup_marks(entries)
    tell_apart(entries)  # ``told``: namesakes told apart (the side pools' lists)
    rounds = selectors.event_rounds(event)
    progress = selectors.round_progress(event)
    waiting = selectors.round_waiting(event)
    lengths_form = forms_given.get("lengths_form") or forms.MatchLengthsForm(
        initial={"match_lengths": event.match_lengths}
    )
    next_pending: dict[str, int] = {}
    for rnd in rounds:
        if rnd.status == "pending":
            next_pending.setdefault(rnd.bracket, rnd.pk)
    league = selectors.pairs_rounds(event)
    # A league starts one round at a time: its next (paired) round once none is played.
    league_playing = league and any(rnd.status == "started" for rnd in rounds)
    round_rows = [
        {
            "round": rnd,
            "done": progress.get(rnd.pk, (0, 0))[0],
            "total": progress.get(rnd.pk, (0, 0))[1],
            "startable": next_pending.get(rnd.bracket) == rnd.pk
            and not league_playing
            and (league or event.start_matches != "auto")
            and event.status in ("drawn", "running"),
            "waiting": waiting.get(rnd.pk, 0),
        }
        for rnd in rounds
    ]
    registering = selectors.accepts_entries(event)
    startable = next((row["round"] for row in round_rows if row["startable"]), None)
    can_pair_next = (
        event.is_swiss
        and event.status in ("drawn", "running")
        and not league_playing
        and not next_pending
        and bool(rounds)
        and (not event.rounds_planned or len(rounds) < event.rounds_planned)
    )
    return {
        "startable_round": startable,
        "tournament": tournament,
        "event": event,
        "here": "event",
        "entries": entries,
        "undoable": undoable_withdrawals(event, entries),
        "field_size": selectors.event_field_size(event),
        "check_in_open": selectors.check_in_open(event),
        "pending_count": sum(1 for e in entries if e.status == "pending"),
        "rounds": rounds,
        "round_rows": round_rows,
        "lengths_form": lengths_form,
        "last_draw": event.draws.order_by("-created_at").first(),
        "register_form": (
            forms_given.get("register_form")
            or forms.RegisterForm(players=selectors.register_candidates(event))
        )
        if registering
        else None,
        "draw_form": (
            forms_given.get("draw_form")
            or forms.DrawForm(
                entries=entries, initial={"order": selectors.manual_order_text(entries)}
            )
        )
        if event.status == "registration" and event.feeds_from_id is None
        else None,
        "unpaid": unpaid_count(event),
        "side_pools": [
            (pool, {e.pk for e in pool.entries.all()})
            for pool in event.side_pools.prefetch_related("entries")
        ],
        "side_pool_form": forms_given.get("side_pool_form")
        or forms.SidePoolForm(currency=event.tournament.currency),
        # a fed Consolation's players pay nothing there: no "Paid: …" to choose
        "payments": [] if event.feeds_from_id else list(Entry.PAYMENT_IN_TEXT.items()),
        "pairs_rounds": league,
        "can_pair_next": can_pair_next,
        "next_number": len(rounds) + 1,
        "elimination_next": (
            elimination_next(event) if can_pair_next and event.is_elimination_swiss else None
        ),
        "numbers_tables": numbers_tables(tournament.pk),
        "forbidden_pairs": list(
            event.forbidden_pairs.select_related("player_a", "player_b").order_by("pk")
        ),
        "forbidden_players": selectors.forbidden_choices(entries),
        "blocking": forms_given.get("blocking") or [],
        "elimination": (
            elimination_counts(event)
            if event.is_elimination_swiss and event.status != "registration"
            else None
        ),
        "can_end": event.is_elimination_swiss and event.status in ("drawn", "running"),
    }


@login_required
@require_GET
def event_detail(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """An event's entries (check-in, withdraw), its draw, and its rounds (lengths, start)."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    return render(request, "console/event.html", event_context(request, tournament, event))


@login_required
@require_POST
def match_lengths(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Change the event's match lengths; rounds that have not started take them."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    form = forms.MatchLengthsForm(request.POST)
    if form.is_valid() and (
        call_service(
            form,
            event_update,
            event=event,
            match_lengths=form.cleaned_data["match_lengths"],
        )
        is not None
    ):
        messages.success(request, _("Match lengths saved."))
        return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        event_context(request, tournament, event, lengths_form=form),
        status=400,
    )


def signup_marks(entries: list[Entry]) -> None:
    """Mark each entry for its row: the place on the waiting list (``waiting_place``) and,
    for a sign-up, the known players with its name or email (``namesakes``)."""
    waiting = sorted(
        (e for e in entries if e.status == Entry.Status.WAITING),
        key=lambda e: (e.waiting_since is None, e.waiting_since, e.pk),
    )
    for place, entry in enumerate(waiting, 1):
        entry.waiting_place = place  # type: ignore[attr-defined]
    # "No." is the entry number in this event everywhere (the table's first column): a
    # namesake is quoted by theirs, or said not to be in the event.
    numbers = {e.player_id: getattr(e, "number", None) for e in entries}
    for entry_id, players in signup_namesakes(entries).items():
        for player in players:
            player.number_here = numbers.get(player.pk)  # type: ignore[attr-defined]
        for entry in entries:
            if entry.pk == entry_id:
                entry.namesakes = players  # type: ignore[attr-defined]
