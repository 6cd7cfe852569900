"""The console's draw and round actions: draw, start a round, pair the next, number tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.errors import Invalid, refusal_text
from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_button_service,
    call_service,
)
from tournament.console.events import event_context
from tournament.models import ForbiddenPair, Round
from tournament.services.draws import draw_make
from tournament.services.forbidden_pairs import forbidden_pair_add, forbidden_pair_remove
from tournament.services.rounds import event_end, event_next_round, round_minutes_set, round_start
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
                _("{event} drawn, the tables of round 1 numbered.").format(event=event.name)
                if data["tables"]
                else _("{event} drawn.").format(event=event.name),
            )
            return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        event_context(request, tournament, event, draw_form=form),
        status=400,
    )


def _tables_choice(request: AuthenticatedHttpRequest) -> bool | None:
    """The Start forms' "Number the tables" box (a hidden 0 before it: unticked is False);
    a form without it leaves the choice to the tournament (``None``)."""
    if "tables" not in request.POST:
        return None
    return "1" in request.POST.getlist("tables")


def _started(rnd: Round) -> str:
    tables = sorted(
        t for t in rnd.matches.exclude(table__isnull=True).values_list("table", flat=True) if t
    )
    if not tables:
        return _("{rnd} started: its players are emailed their match.").format(rnd=rnd)
    shown = ", ".join(map(str, tables))
    return _(
        "{rnd} started at tables {shown}: its players are emailed their match and table."
    ).format(rnd=rnd, shown=shown)


@login_required
@require_POST
def round_start_view(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, round_id: int
) -> HttpResponse:
    """Start a round: its matches with both players become ready."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = selectors.round_of(event, round_id)
    tables = _tables_choice(request)
    if selectors.pairs_rounds(event):
        # A league's round starts as its next round does (nothing else may still run).
        started = call_button_service(
            request, event_next_round, event=event, by=request.user, tables=tables
        )
    else:
        started = call_button_service(
            request, round_start, round_=rnd, by=request.user, tables=tables
        )
    if started is not None:
        messages.success(request, _started(started))
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def next_round(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Swiss and round robin: pair the next round and start it (a Swiss elimination: its
    playoff's next round once due; ``keep``: players out in the last round kept one more
    round so nobody has a bye). When no pairing keeps every forbidden pair, the page
    lists those in the way to tick and relax."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    relax = [int(v) for v in request.POST.getlist("relax") if v.isdigit() and len(v) < 12]
    keep = [int(v) for v in request.POST.getlist("keep") if v.isdigit() and len(v) < 12]
    try:
        rnd = event_next_round(
            event=event, by=request.user, tables=_tables_choice(request), relax=relax, keep=keep
        )
    except Invalid as refusal:
        messages.error(request, refusal_text(refusal))
        if refusal.code != "no-legal-pairing":
            return redirect("console:event", tournament.slug, event.slug)
        ids = [item["id"] for item in refusal.detail.get("blocking", [])]
        blocking = list(
            ForbiddenPair.objects.filter(pk__in=ids).select_related("player_a", "player_b")
        )
        return render(
            request,
            "console/event.html",
            event_context(request, tournament, event, blocking=blocking),
            status=400,
        )
    if rnd.bracket == Round.Bracket.PLAYOFF:
        paired = _("The playoff's next round follows from the results.") + " "
    else:
        paired = _("Paired from the standings.") + " " if event.is_swiss else ""
    messages.success(request, paired + _started(rnd))
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def forbidden_pair_new(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str
) -> HttpResponse:
    """Keep two players apart (absolute or avoid; round 1 or every round)."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    players = [
        int(v)
        for v in (request.POST.get("player_a", ""), request.POST.get("player_b", ""))
        if v.isdigit() and len(v) < 12
    ]
    added = call_button_service(
        request,
        forbidden_pair_add,
        event=event,
        players=players,
        strength=request.POST.get("strength", ""),
        rounds=request.POST.get("rounds", ""),
        by=request.user,
    )
    if added is not None:
        messages.success(
            request,
            _("{a} and {b} are kept apart.").format(a=added.player_a.name, b=added.player_b.name),
        )
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def forbidden_pair_delete(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, pair_id: int
) -> HttpResponse:
    """Lift a prohibition for the rounds to come."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    pair = get_object_or_404(ForbiddenPair, pk=pair_id, event=event)
    forbidden_pair_remove(pair=pair, by=request.user)
    messages.success(request, _("The prohibition is lifted."))
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def event_end_view(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """End a Swiss elimination between rounds."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    if call_button_service(request, event_end, event=event, by=request.user) is not None:
        messages.success(
            request,
            _("{event_name} ended: the players alive share by record.").format(
                event_name=event.name
            ),
        )
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
        messages.success(
            request,
            _("{rnd}: tables {tables} given, in bracket order.").format(rnd=rnd, tables=tables),
        )
    elif given is not None:
        messages.info(request, _("{rnd}: every ready match already has a table.").format(rnd=rnd))
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
        messages.error(request, _("A round time is a whole number of minutes."))
        return redirect("console:event", tournament.slug, event.slug)
    minutes = int(typed) if typed else None
    if call_button_service(
        request, round_minutes_set, round_=rnd, minutes=minutes, by=request.user
    ):
        if minutes is None:
            messages.success(request, _("{rnd}: no round time.").format(rnd=rnd))
        else:
            messages.success(
                request,
                _("{rnd}: {minutes} minutes, counted down on the room board.").format(
                    rnd=rnd, minutes=minutes
                ),
            )
    return redirect("console:event", tournament.slug, event.slug)
