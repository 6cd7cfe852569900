"""The console's sign-up and fee actions: approve a sign-up; check in or mark paid many
entries at once (the entries table's ticked rows); side pools and their players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament.console import forms, selectors
from tournament.console.base import AuthenticatedHttpRequest, call_button_service
from tournament.models import Entry, SidePool
from tournament.services.payments import entries_check_in, entries_mark_paid
from tournament.services.side_pools import (
    side_pool_create,
    side_pool_delete,
    side_pool_set_entries,
)
from tournament.services.signup import entry_approve


def _ids(values: list[str]) -> list[int]:
    return [int(v) for v in values if v.isdigit() and len(v) < 12]


@login_required
@require_POST
def entries_bulk(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Check in the ticked players (those present), or mark them paid (how) or unpaid."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    action = request.POST.get("action", "")
    ids = _ids(request.POST.getlist("entries"))
    back = redirect("console:event", tournament.slug, event.slug)
    if action == "check-in":
        done = call_button_service(
            request, entries_check_in, event=event, entry_ids=ids, by=request.user
        )
        if done is not None:
            messages.success(request, f"{done} player{'s' if done != 1 else ''} checked in.")
    elif action == "unpaid" or action.removeprefix("paid-") in Entry.Payment.values:
        method = "" if action == "unpaid" else action.removeprefix("paid-")
        done = call_button_service(
            request, entries_mark_paid, event=event, entry_ids=ids, method=method, by=request.user
        )
        if done is not None:
            how = "not paid" if not method else f"paid ({Entry.Payment(method).label.lower()})"
            messages.success(request, f"{done} entr{'y' if done == 1 else 'ies'} marked {how}.")
    else:
        messages.error(request, "Choose what to do with the ticked players.")
    return back


@login_required
@require_POST
def entry_approve_view(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, entry_id: int
) -> HttpResponse:
    """Take a pending sign-up: entered while there is room, else on the waiting list."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    entry = selectors.entry_of(event, entry_id)
    approved = call_button_service(request, entry_approve, entry=entry, by=request.user)
    if approved is not None:
        where = "entered" if approved.status == Entry.Status.REGISTERED else "on the waiting list"
        messages.success(request, f"{entry.player.name} is {where}; they are emailed.")
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    )


@login_required
@require_POST
def side_pool_add(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Add a side pool (name, stake, split); its players are ticked below it."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    form = forms.SidePoolForm(request.POST)
    if form.is_valid():
        pool = call_button_service(
            request, side_pool_create, event=event, by=request.user, **form.cleaned_data
        )
        if pool is not None:
            messages.success(request, f"Side pool {pool.name} added: tick its players.")
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label or 'Side pool'}: {errors[0]}")
    return redirect(f"{reverse('console:event', args=[tournament.slug, event.slug])}#side-pools")


@login_required
@require_POST
def side_pool_players(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, pool_id: int
) -> HttpResponse:
    """Set who is in a side pool (the ticked entries), or remove the pool."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    pool = get_object_or_404(SidePool, pk=pool_id, event=event) if pool_id < 2**31 else None
    if pool is None:
        raise Http404
    if request.POST.get("remove"):
        side_pool_delete(pool=pool, by=request.user)
        messages.success(request, f"Side pool {pool.name} removed.")
    else:
        ids = _ids(request.POST.getlist("entries"))
        if call_button_service(
            request, side_pool_set_entries, pool=pool, entry_ids=ids, by=request.user
        ):
            messages.success(request, f"Side pool {pool.name}: {len(ids)} players.")
    return redirect(f"{reverse('console:event', args=[tournament.slug, event.slug])}#side-pools")
