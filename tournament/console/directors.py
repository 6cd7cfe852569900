"""The console's directors page: who runs the tournament, adding a co-director (making their
account when they have none), removing one, and a new set-password link for one who lost
theirs. A set-password link is shown once, on the page the action leads back to."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches.access import user_directs
from tournament.console import forms, selectors
from tournament.console.base import AuthenticatedHttpRequest, call_button_service, call_service
from tournament.models import Tournament, User
from tournament.selectors import tournament_directors
from tournament.services.directors import (
    tournament_director_invite,
    tournament_director_link,
    tournament_director_remove,
)

#: Where a set-password link waits in the session for the page that shows it once.
LINK_SESSION_KEY = "console-director-link"


def _show_link_once(
    request: AuthenticatedHttpRequest, tournament: Tournament, user: User, path: str, emailed: bool
) -> None:
    request.session[LINK_SESSION_KEY] = {
        "slug": tournament.slug,
        "user_id": user.pk,
        "username": user.username,
        "email": user.email if emailed else "",
        "url": request.build_absolute_uri(path),
    }


def _link_to_show(request: AuthenticatedHttpRequest, tournament: Tournament) -> Any:
    link = request.session.get(LINK_SESSION_KEY)
    if link and link.get("slug") == tournament.slug:
        del request.session[LINK_SESSION_KEY]
        return link
    return None


@login_required
@require_http_methods(["GET", "POST"])
def directors(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The tournament's directors, and the form that adds one."""
    tournament = selectors.tournament_for(request.user, slug)
    form = forms.DirectorAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        invite = call_service(
            form,
            tournament_director_invite,
            tournament=tournament,
            by=request.user,
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
        )
        if invite is not None:
            name = invite.user.username
            if invite.already_director:
                messages.info(request, _("{name} is a director already.").format(name=name))
            elif invite.created:
                messages.success(
                    request,
                    _("Account {name} created; {name} is now a director.").format(name=name),
                )
            else:
                messages.success(request, _("{name} is now a director.").format(name=name))
            if invite.set_password_path:
                _show_link_once(
                    request, tournament, invite.user, invite.set_password_path, invite.emailed
                )
            return redirect("console:directors", tournament.slug)
    return render(
        request,
        "console/directors.html",
        {
            "tournament": tournament,
            "directors": tournament_directors(tournament),
            "form": form,
            "new_link": _link_to_show(request, tournament),
            "link_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
            "here": "directors",
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def director_remove(request: AuthenticatedHttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Take a director off the tournament (GET asks to confirm); never the last one."""
    tournament = selectors.tournament_for(request.user, slug)
    director = selectors.director_of(tournament, user_id)
    form = forms.ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        call_service(
            form, tournament_director_remove, tournament=tournament, user=director, by=request.user
        )
        if not form.errors:
            messages.success(
                request,
                _("{director_username} no longer directs {tournament_name}.").format(
                    director_username=director.username, tournament_name=tournament.name
                ),
            )
            if not user_directs(request.user, tournament.pk):
                return redirect("console:home")
            return redirect("console:directors", tournament.slug)
    return render(
        request,
        "console/director_remove.html",
        {
            "tournament": tournament,
            "director": director,
            "form": form,
            "last": tournament_directors(tournament).count() == 1,
            "here": "directors",
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def director_link(request: AuthenticatedHttpRequest, slug: str, user_id: int) -> HttpResponse:
    """A new set-password link for a director who has not set a password (shown once)."""
    tournament = selectors.tournament_for(request.user, slug)
    director = selectors.director_of(tournament, user_id)
    link = call_button_service(
        request, tournament_director_link, tournament=tournament, user=director, by=request.user
    )
    if link is not None and link.path is not None:
        _show_link_once(request, tournament, director, link.path, emailed=False)
    elif link is not None:
        messages.info(
            request,
            _("A new set-password link was emailed to {director_username}.").format(
                director_username=director.username
            ),
        )
    return redirect("console:directors", tournament.slug)
