"""The console's tournament pages: the list, creating one, its overview and settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_service,
)
from tournament.selectors import user_may_create_tournaments
from tournament.services.tournaments import tournament_create, tournament_update


@login_required
@require_GET
def home(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The tournaments the user directs (every one for staff)."""
    tournaments = (
        selectors.tournaments_for(request.user)
        .annotate(event_count=Count("events"))
        .order_by("-starts_on", "name")
    )
    return render(request, "console/home.html", {"tournaments": tournaments})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Create a tournament; its creator directs it."""
    if not user_may_create_tournaments(request.user):
        raise PermissionDenied(_("Ask the site's staff to make you a director."))
    form = forms.TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = call_service(
            form, tournament_create, director=request.user, **form.cleaned_data
        )
        if tournament is not None:
            messages.success(
                request,
                _("{tournament_name} created. Now add its events.").format(
                    tournament_name=tournament.name
                ),
            )
            return redirect("console:tournament", tournament.slug)
    return render(
        request,
        "console/tournament_form.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def tournament_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The tournament's events with their entries and matches per state."""
    tournament = selectors.tournament_for(request.user, slug)
    return render(
        request,
        "console/tournament.html",
        {
            "tournament": tournament,
            "summaries": selectors.tournament_overview(tournament),
            "here": "tournament",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Change the tournament's name, dates, venue, time zone, currency and visibility (not
    its slug)."""
    tournament = selectors.tournament_for(request.user, slug)
    form = forms.TournamentSettingsForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        saved = call_service(
            form,
            tournament_update,
            tournament=tournament,
            name=data["name"],
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            venue=data["venue"],
            time_zone=data["time_zone"] or "UTC",
            is_public=data["is_public"],
            analysis_enabled=data["analysis_enabled"],
            analysis_plies=data["analysis_plies"],
            analysis_public=data["analysis_public"],
            language=data["language"],
            currency=data["currency"],
        )
        if saved is not None:
            messages.success(request, _("Tournament settings saved."))
            return redirect("console:tournament", saved.slug)
    return render(
        request,
        "console/tournament_form.html",
        {"tournament": tournament, "form": form, "editing": True, "locked": form.locked},
        status=400 if form.errors else 200,
    )
