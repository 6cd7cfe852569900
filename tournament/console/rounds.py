"""The console's draw and round actions: draw, start a round, pair the next, number tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_button_service,
    call_service,
)
from tournament.console.events import event_context
from tournament.services.draws import draw_make
from tournament.services.rounds import event_next_round, round_minutes_set, round_start
from tournament.services.tables import round_tables_assign


@login_required
@require_POST
def draw(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Make the draw: random (seed kept), by rating, or in the director's order."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    entries = selectors.event_entries(event)
    form = forms.DrawForm(request.POST, entries=entries)
    if form.is_valid():
        data = form.cleaned_data
        made = call_service(
            form,
            draw_make,
            event=event,
            method=data["method"],
            seed=data["seed"],
            order=data["order_ids"],
            by=request.user,
            tables=data["tables"],
        )
        if made is not None:
            messages.success(
                request,
                f"{event.name} drawn"
                + (", the tables of round 1 numbered." if data["tables"] else "."),
            )
            return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        event_context(request, tournament, event, draw_form=form),
        status=400,
    )


@login_required
@require_POST
def round_start_view(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, round_id: int
) -> HttpResponse:
    """Start a round: its matches with both players become ready."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = selectors.round_of(event, round_id)
    if call_button_service(request, round_start, round_=rnd, by=request.user) is not None:
        messages.success(request, f"{rnd} started.")
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def next_round(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Swiss and round robin: pair the next round and start it."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = call_button_service(request, event_next_round, event=event, by=request.user)
    if rnd is not None:
        messages.success(request, f"{rnd} paired and started.")
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def round_tables(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, round_id: int
) -> HttpResponse:
    """Number the tables of a round's ready matches, in bracket order, skipping those in use."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = selectors.round_of(event, round_id)
    given = call_button_service(request, round_tables_assign, round_=rnd, by=request.user)
    if given:
        tables = ", ".join(str(m.table) for m in given)
        messages.success(request, f"{rnd}: tables {tables} given, in bracket order.")
    elif given is not None:
        messages.info(request, f"{rnd}: every ready match already has a table.")
    return redirect("console:matches", tournament.slug, event.slug)


@login_required
@require_POST
def round_minutes(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, round_id: int
) -> HttpResponse:
    """Set a round's time (blank takes it off): the room board counts it down from the start."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = selectors.round_of(event, round_id)
    typed = request.POST.get("minutes", "").strip()
    if typed and not typed.isdigit():
        messages.error(request, "A round time is a whole number of minutes.")
        return redirect("console:event", tournament.slug, event.slug)
    minutes = int(typed) if typed else None
    if call_button_service(
        request, round_minutes_set, round_=rnd, minutes=minutes, by=request.user
    ):
        if minutes is None:
            messages.success(request, f"{rnd}: no round time.")
        else:
            messages.success(request, f"{rnd}: {minutes} minutes, counted down on the room board.")
    return redirect("console:event", tournament.slug, event.slug)
