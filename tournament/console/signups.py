"""The console's sign-up and fee actions: approve a sign-up; check in or mark paid many
entries at once (the entries table's ticked rows); side pools and their players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
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
from tournament.services.signup import entries_approve, entry_approve


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
    if action == "approve":
        done = call_button_service(
            request, entries_approve, event=event, entry_ids=ids, by=request.user
        )
        if done is not None:
            messages.success(
                request,
                ngettext(
                    "{done} sign-up approved (entered, or on the waiting list when full); "
                    "they are emailed.",
                    "{done} sign-ups approved (entered, or on the waiting list when full); "
                    "they are emailed.",
                    done,
                ).format(done=done)
                if done
                else _("None of the ticked players was awaiting approval."),
            )
    elif action == "check-in":
        done = call_button_service(
            request, entries_check_in, event=event, entry_ids=ids, by=request.user
        )
        if done is not None:
            messages.success(
                request,
                ngettext("{done} player checked in.", "{done} players checked in.", done).format(
                    done=done
                ),
            )
    elif action == "unpaid" or action.removeprefix("paid-") in Entry.Payment.values:
        method = "" if action == "unpaid" else action.removeprefix("paid-")
        done = call_button_service(
            request, entries_mark_paid, event=event, entry_ids=ids, method=method, by=request.user
        )
        if done is not None:
            how = (
                _("not paid")
                if not method
                else _("paid ({method})").format(
                    method=Entry.PAYMENT_IN_TEXT[Entry.Payment(method)]
                )
            )
            messages.success(
                request,
                ngettext("{done} entry marked {how}.", "{done} entries marked {how}.", done).format(
                    done=done, how=how
                ),
            )
    else:
        messages.error(request, _("Choose what to do with the ticked players."))
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
        where = (
            _("entered") if approved.status == Entry.Status.REGISTERED else _("on the waiting list")
        )
        messages.success(
            request,
            _("{entry_player_name} is {where}; they are emailed.").format(
                entry_player_name=entry.player.name, where=where
            ),
        )
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    )


@login_required
@require_POST
def side_pool_add(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Add a side pool (name, stake, split); its players are ticked below it."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    form = forms.SidePoolForm(request.POST, currency=tournament.currency)
    if form.is_valid():
        ids = _ids(request.POST.getlist("entries"))
        pool = call_button_service(
            request,
            side_pool_create,
            event=event,
            by=request.user,
            entry_ids=ids,
            **form.cleaned_data,
        )
        if pool is not None:
            if ids:
                count = len(set(ids))
                messages.success(
                    request,
                    ngettext(
                        "Side pool {pool_name} added with the {count} ticked player.",
                        "Side pool {pool_name} added with the {count} ticked players.",
                        count,
                    ).format(pool_name=pool.name, count=count),
                )
            else:
                messages.success(
                    request,
                    _(
                        "Side pool {pool_name} added: no player was ticked; tick its players."
                    ).format(pool_name=pool.name),
                )
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(
                request,
                _("{label}: {error}").format(label=label or _("Side pool"), error=errors[0]),
            )
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
        messages.success(request, _("Side pool {pool_name} removed.").format(pool_name=pool.name))
    else:
        ids = _ids(request.POST.getlist("entries"))
        if call_button_service(
            request, side_pool_set_entries, pool=pool, entry_ids=ids, by=request.user
        ):
            messages.success(
                request,
                _("Side pool {pool_name}: {len_ids} players.").format(
                    pool_name=pool.name, len_ids=len(ids)
                ),
            )
    return redirect(f"{reverse('console:event', args=[tournament.slug, event.slug])}#side-pools")
