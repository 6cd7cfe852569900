"""The console's entry actions: register, check in, withdraw and undo a withdrawal."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.http import request_meta
from matches.errors import REFUSALS
from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_button_service,
    call_service,
    is_htmx,
    service_error_message,
)
from tournament.console.events import event_context
from tournament.models import Entry
from tournament.selectors.withdrawals import withdrawal_stays_undoable
from tournament.services.console_extras import (
    entry_check_in_undo,
    entry_register_player,
)
from tournament.services.entries import entry_check_in
from tournament.services.payments import entries_mark_paid
from tournament.services.withdrawals import entry_withdraw, entry_withdraw_undo


@login_required
@require_POST
def entry_add(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Register a player already in the tournament, or a new one, in the event."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    form = forms.RegisterForm(request.POST, players=selectors.register_candidates(event))
    if form.is_valid():
        data = form.cleaned_data
        entry = call_service(
            form,
            entry_register_player,
            event=event,
            player=data["player"],
            name=data["name"],
            email=data["email"],
            rating=data["rating"],
            club=data["club"],
            seed=data["seed"],
            by=request.user,
            confirm_new=data["confirm_new"],
        )
        if entry is not None:
            messages.success(
                request,
                _("{entry_player_name} registered.").format(entry_player_name=entry.player.name),
            )
            return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        event_context(request, tournament, event, register_form=form),
        status=400,
    )


@login_required
@require_POST
def entry_check_in_toggle(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, entry_id: int
) -> HttpResponse:
    """Check an entry in, or undo it; htmx gets the entry's row back, others the page."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    entry = selectors.entry_of(event, entry_id)
    wanted = request.POST.get("checked_in", "1") != "0"
    error = None
    try:
        if wanted:
            entry = entry_check_in(entry=entry, by=request.user)
            paid = request.POST.get("paid", "")
            if paid and paid in Entry.Payment.values:  # paid at the desk, with the check-in
                entries_mark_paid(event=event, entry_ids=[entry.pk], method=paid, by=request.user)
                entry.paid = paid
        else:
            entry = entry_check_in_undo(entry=entry, by=request.user)
    except (*REFUSALS, ValidationError) as exc:
        error = service_error_message(exc)[1]
    if is_htmx(request):
        entry.number = selectors.entry_number(entry)  # type: ignore[attr-defined]
        context = {
            "tournament": tournament,
            "event": event,
            "entry": entry,
            "error": error,
            "check_in_open": selectors.check_in_open(event),
        }
        return render(request, "console/_entry_row.html", context, status=200)
    if error:
        messages.error(request, error)
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    )


@login_required
@require_http_methods(["GET", "POST"])
def entry_withdraw_view(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, entry_id: int
) -> HttpResponse:
    """Withdraw an entry after a confirmation (GET asks; the service gives their undecided
    matches to their opponents by walkover)."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    entry = selectors.entry_of(event, entry_id)
    if request.method == "GET":
        context = {
            "tournament": tournament,
            "event": event,
            "entry": entry,
            "open_matches": selectors.entry_open_matches(entry),
        }
        return render(request, "console/withdraw_confirm.html", context)
    withdrawn = call_button_service(
        request, entry_withdraw, entry=entry, by=request.user, meta=request_meta(request)
    )
    if withdrawn is not None:
        messages.success(request, _withdrawn_message(withdrawn))
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    )


def _withdrawn_message(entry: Entry) -> str:
    """The withdrawal's confirmation: it promises the undo only when the undo can be done
    (a walkover that ended the event, or a draw made without them, leaves none)."""
    entry = Entry.objects.select_related("event", "player").get(pk=entry.pk)  # as it is now
    if withdrawal_stays_undoable(entry):
        return _(
            "{entry_player_name} withdrawn. Undo it from their row while "
            "nobody has taken their place."
        ).format(entry_player_name=entry.player.name)
    return _("{entry_player_name} withdrawn. This withdrawal cannot be undone.").format(
        entry_player_name=entry.player.name
    )


@login_required
@require_POST
def entry_withdraw_undo_view(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, entry_id: int
) -> HttpResponse:
    """Take a withdrawal back, if the player's place in the bracket is still theirs."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    entry = selectors.entry_of(event, entry_id)
    restored = call_button_service(request, entry_withdraw_undo, entry=entry, by=request.user)
    if restored is not None:
        messages.success(
            request,
            _("{entry_player_name} is back in, {restored_get_status_display_lo}.").format(
                entry_player_name=entry.player.name,
                restored_get_status_display_lo=restored.status_in_text(),
            ),
        )
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    )
