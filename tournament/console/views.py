"""The director's console: thin views that parse a form, check access, call a service, render.

Access: every page needs a login; a tournament is found only among those the user
directs (staff see all), so another tournament's pages answer 404. A service's
refusal (``DomainError``) is shown next to the field it names, with HTTP 400.
Pages work without JavaScript; htmx only swaps a row or refreshes the grid in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.exceptions import APIException

from matches.errors import REFUSALS, AppError, invalid_input, refusal_text
from matches.models import Submission
from matches.rules.errors import RulesError
from matches.services.access import Actor, director_role
from matches.services.ledger import submission_reject
from matches.views import request_meta
from tournament.console import forms, selectors
from tournament.models import Event, User
from tournament.qr import qr_svg
from tournament.selectors import user_may_create_tournaments
from tournament.services.console_extras import (
    entry_check_in_undo,
    entry_register_player,
    match_final_score_enter,
    players_csv_preview,
)
from tournament.services.draws import draw_make
from tournament.services.entries import entry_check_in, entry_withdraw, entry_withdraw_undo
from tournament.services.event_settings import KEEP, event_locked_settings, event_update
from tournament.services.events import event_create
from tournament.services.imports import players_import_csv
from tournament.services.player_links import (
    player_link_regenerate,
    player_links_email,
    player_links_ensure,
)
from tournament.services.results import (
    GameResult,
    match_correct_winner,
    match_forfeit,
    match_penalty_add,
    match_result_enter,
    match_walkover,
)
from tournament.services.rounds import event_next_round, round_start
from tournament.services.tables import match_table_set, round_tables_assign
from tournament.services.tournaments import tournament_create, tournament_update


class AuthenticatedHttpRequest(HttpRequest):
    """A request to a ``login_required`` view: its user is signed in."""

    user: User


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _service_error_message(
    exc: AppError | RulesError | APIException | ValidationError,
) -> tuple[str | None, str]:
    """The field a refusal names (if any) and its message for a person."""
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            field, errors = next(iter(exc.message_dict.items()))
            return (None if field == "__all__" else field), " ".join(errors)
        return None, " ".join(exc.messages)
    if isinstance(exc, AppError):
        named = exc.detail.get("field")
        return (str(named) if named else None), exc.message
    if isinstance(exc, RulesError):
        return None, refusal_text(exc)
    return None, str(exc.detail)


def call_service[T](
    form: django_forms.Form | None, service: Callable[..., T], **kwargs: Any
) -> T | None:
    """Run ``service``; on a refusal put its message on ``form`` (or return None silently)."""
    try:
        return service(**kwargs)
    except (*REFUSALS, APIException, ValidationError) as exc:
        field, message = _service_error_message(exc)
        if form is not None:
            form.add_error(field if field in form.fields else None, message)
            if getattr(exc, "code", "") == "unlikely-score" and hasattr(form, "ask_to_confirm"):
                form.ask_to_confirm()
        return None


def _refusal[T](request: HttpRequest, service: Callable[..., T], **kwargs: Any) -> T | None:
    """Run ``service`` for a button without a form; a refusal becomes an error message."""
    try:
        return service(**kwargs)
    except (*REFUSALS, APIException, ValidationError) as exc:
        _, message = _service_error_message(exc)
        messages.error(request, message)
        return None


# --- Tournaments -------------------------------------------------------------------------


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
        raise PermissionDenied("Ask the site's staff to make you a director.")
    form = forms.TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = call_service(
            form, tournament_create, director=request.user, **form.cleaned_data
        )
        if tournament is not None:
            messages.success(request, f"{tournament.name} created. Now add its events.")
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
    """Change the tournament's name, dates, venue, time zone and visibility (not its slug)."""
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
        )
        if saved is not None:
            messages.success(request, "Tournament settings saved.")
            return redirect("console:tournament", saved.slug)
    return render(
        request,
        "console/tournament_form.html",
        {"tournament": tournament, "form": form, "editing": True, "locked": form.locked},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Create an event: format, match length per round, Crawford/Holland, feed, clocks."""
    tournament = selectors.tournament_for(request.user, slug)
    form = forms.EventForm(request.POST or None, feeds=selectors.feeding_events(tournament))
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
        )
        if event is not None:
            messages.success(request, f"{event.name} created.")
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
            )
        except (*REFUSALS, APIException, ValidationError) as exc:
            field, message = _service_error_message(exc)
            form.add_error(form.field_for(field), message)
        else:
            messages.success(request, f"{saved.name}: settings saved.")
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


@login_required
@require_http_methods(["GET", "POST"])
def players_import(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Import players from CSV: first a preview with every line's errors, then the import.

    The import is all or nothing, so the button appears once the preview is clean;
    the CSV stays in the text box to be fixed and previewed again.
    """
    tournament = selectors.tournament_for(request.user, slug)
    open_events = selectors.registering_events(tournament)
    form = forms.PlayersCsvForm(request.POST or None, request.FILES or None, events=open_events)
    context: dict[str, Any] = {"tournament": tournament, "form": form}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if request.POST.get("confirm"):
            result = call_service(
                form,
                players_import_csv,
                data=data["csv_text"],
                event=data["event"],
                by=request.user,
            )
            if result is not None and not result.errors:
                messages.success(
                    request,
                    f"{len(result.created)} new player(s), {len(result.existing)} already known"
                    + (
                        f"; {result.entered} entered in {data['event'].name}."
                        if data["event"]
                        else "."
                    ),
                )
                if data["event"] is not None:
                    return redirect("console:event", tournament.slug, data["event"].slug)
                return redirect("console:tournament", tournament.slug)
            if result is not None:
                form.add_error("text", "Some lines are wrong: nothing was imported.")
        context["preview"] = players_csv_preview(data=data["csv_text"])
        context["event"] = data["event"]
        context["csv_text"] = data["csv_text"]
        if not form.errors:  # an uploaded file's text moves into the box, to fix and resend
            context["form"] = forms.PlayersCsvForm(
                initial={"text": data["csv_text"], "event": data["event"]}, events=open_events
            )
    return render(request, "console/import.html", context, status=400 if form.errors else 200)


# --- Players' private links --------------------------------------------------------------


def link_address(request: HttpRequest, key: str) -> str:
    """The absolute address of a private link, as this site is reached."""
    return request.build_absolute_uri(reverse("matches:entry", args=[key]))


@login_required
@require_GET
def player_links(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every player's private link with its QR code: to print (one card each), email,
    or replace when one has leaked."""
    tournament = selectors.tournament_for(request.user, slug)
    player_links_ensure(tournament=tournament)
    cards = []
    for link in selectors.player_links(tournament):
        url = link_address(request, link.key)
        cards.append(
            {"link": link, "url": url, "qr": qr_svg(url, title=f"{link.player.name}: {url}")}
        )
    return render(
        request,
        "console/player_links.html",
        {"tournament": tournament, "cards": cards, "here": "links"},
    )


@login_required
@require_POST
def player_links_email_view(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Queue every player's link by email; say how many went and who has no address."""
    tournament = selectors.tournament_for(request.user, slug)
    done = player_links_email(tournament=tournament, by=request.user)
    text = f"{done.queued} link email{'s' if done.queued != 1 else ''} queued."
    if done.no_email:
        text += f" {done.no_email} player{'s have' if done.no_email != 1 else ' has'} no email address: print their card."
    if done.opted_out:
        text += f" {done.opted_out} turned email notices off."
    messages.success(request, text)
    return redirect("console:player-links", tournament.slug)


@login_required
@require_http_methods(["GET", "POST"])
def player_link_regenerate_view(
    request: AuthenticatedHttpRequest, slug: str, player_id: int
) -> HttpResponse:
    """Replace a leaked link (GET asks to confirm): the old address then answers 404."""
    tournament = selectors.tournament_for(request.user, slug)
    link = selectors.player_link_of(tournament, player_id)
    if request.method == "POST":
        player_link_regenerate(link=link, by=request.user)
        messages.success(
            request,
            f"{link.player.name} has a new link; the old one no longer works. "
            "Give them the new one (print their card or email it).",
        )
        return redirect(
            f"{reverse('console:player-links', args=[tournament.slug])}#player-{player_id}"
        )
    return render(
        request,
        "console/player_link_regenerate.html",
        {"tournament": tournament, "link": link, "here": "links"},
    )


# --- Events: entries, draw, rounds -------------------------------------------------------


def _event_context(
    request: AuthenticatedHttpRequest, tournament: Any, event: Any, **forms_given: Any
) -> dict[str, Any]:
    """What the event page shows, with fresh forms unless a failed one is given back."""
    entries = selectors.event_entries(event)
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
    round_rows = [
        {
            "round": rnd,
            "done": progress.get(rnd.pk, (0, 0))[0],
            "total": progress.get(rnd.pk, (0, 0))[1],
            "startable": next_pending.get(rnd.bracket) == rnd.pk,
            "waiting": waiting.get(rnd.pk, 0),
        }
        for rnd in rounds
    ]
    registering = selectors.accepts_entries(event)
    return {
        "tournament": tournament,
        "event": event,
        "here": "event",
        "entries": entries,
        "check_in_open": selectors.check_in_open(event),
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
        if event.status == "registration"
        else None,
        "pairs_rounds": selectors.pairs_rounds(event),
        "can_pair_next": selectors.pairs_rounds(event) and event.status in ("drawn", "running"),
    }


@login_required
@require_GET
def event_detail(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """An event's entries (check-in, withdraw), its draw, and its rounds (lengths, start)."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    return render(request, "console/event.html", _event_context(request, tournament, event))


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
            messages.success(request, f"{entry.player.name} registered.")
            return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        _event_context(request, tournament, event, register_form=form),
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
        else:
            entry = entry_check_in_undo(entry=entry, by=request.user)
    except (*REFUSALS, APIException, ValidationError) as exc:
        error = _service_error_message(exc)[1]
    if _is_htmx(request):
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
    if _refusal(request, entry_withdraw, entry=entry, by=request.user) is not None:
        messages.success(
            request,
            f"{entry.player.name} withdrawn. Undo it from their row while nobody has taken "
            "their place.",
        )
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
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
    restored = _refusal(request, entry_withdraw_undo, entry=entry, by=request.user)
    if restored is not None:
        messages.success(
            request, f"{entry.player.name} is back in, {restored.get_status_display().lower()}."
        )
    return redirect(
        f"{reverse('console:event', args=[tournament.slug, event.slug])}#entry-{entry.pk}"
    )


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
        )
        if made is not None:
            messages.success(request, f"{event.name} drawn.")
            return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        _event_context(request, tournament, event, draw_form=form),
        status=400,
    )


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
        messages.success(request, "Match lengths saved.")
        return redirect("console:event", tournament.slug, event.slug)
    return render(
        request,
        "console/event.html",
        _event_context(request, tournament, event, lengths_form=form),
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
    if _refusal(request, round_start, round_=rnd, by=request.user) is not None:
        messages.success(request, f"{rnd} started.")
    return redirect("console:event", tournament.slug, event.slug)


@login_required
@require_POST
def next_round(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Swiss and round robin: pair the next round and start it."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = _refusal(request, event_next_round, event=event, by=request.user)
    if rnd is not None:
        messages.success(request, f"{rnd} paired and started.")
    return redirect("console:event", tournament.slug, event.slug)


# --- Matches --------------------------------------------------------------------------


@login_required
@require_GET
def match_grid(request: AuthenticatedHttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """Every match of the event and its state at a glance; htmx refreshes it in place."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rounds = selectors.event_rounds(event)
    filter_form = forms.GridFilterForm(request.GET or None, rounds=rounds)
    status, round_id, byes = "", None, False
    if filter_form.is_valid():
        status = filter_form.cleaned_data["status"] or ""
        round_id = filter_form.cleaned_data["round"]
        byes = filter_form.cleaned_data["byes"]
    context = {
        "tournament": tournament,
        "event": event,
        "filter_form": filter_form,
        "status": status,
        "champion": event.champion,
        "grid": selectors.match_grid(event, status=status, round_id=round_id, show_byes=byes),
    }
    template = "console/_grid.html" if _is_htmx(request) else "console/matches.html"
    return render(request, template, context)


def _match_context(match: Any, **forms_given: Any) -> dict[str, Any]:
    """The match page: its score, its games, and the forms that apply to its state.

    A form given back (refused, with its errors) is always shown. Once players have
    reported games, a result is settled from them (confirm, or the decision on the
    audit page), not typed in again.
    """
    both = match.entry1_id is not None and match.entry2_id is not None and not match.is_bye
    decided = match.status == "complete"
    not_started = match.status in ("pending", "ready")

    def pick(key: str, applies: bool, make: Callable[[], Any]) -> Any:
        given = forms_given.get(key)
        if given is not None:
            return given
        return make() if both and applies else None

    return {
        "tournament": match.event.tournament,
        "event": match.event,
        "match": match,
        "games": list(match.games.order_by("number", "id")),
        "score_form": pick(
            "score_form",
            not_started or decided,
            lambda: forms.FinalScoreForm(
                match=match, initial={"score1": match.score1, "score2": match.score2}
            ),
        ),
        "forfeit_form": pick("forfeit_form", not decided, lambda: forms.ForfeitForm(match=match)),
        "games_formset": pick("games_formset", not_started, lambda: forms.games_formset(match)),
        "penalty_form": pick("penalty_form", not_started, lambda: forms.PenaltyForm(match=match)),
        "correction_form": pick(
            "correction_form", decided, lambda: forms.CorrectionForm(match=match)
        ),
        "table_form": forms_given.get("table_form")
        or (
            forms.TableForm(initial={"table": match.table})
            if not match.is_bye and not decided
            else None
        ),
    }


@login_required
@require_GET
def match_detail(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One match: score, games, and the director's result forms."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    return render(request, "console/match.html", _match_context(match))


#: The kind of report each of the match page's forms makes.
KINDS: dict[type[django_forms.Form], str] = {
    forms.FinalScoreForm: Submission.Kind.SCORE,
    forms.ForfeitForm: Submission.Kind.FORFEIT,
    forms.PenaltyForm: Submission.Kind.RESOLVE,
    forms.CorrectionForm: Submission.Kind.RESOLVE,
}


def _keep_refused(request: HttpRequest, match: Any, kind: str, errors: Any) -> None:
    """A director's entry the form refuses is a report too: stored as rejected."""
    submission_reject(
        match_id=match.pk,
        kind=kind,
        actor=Actor(user=request.user),  # type: ignore[arg-type]
        meta=request_meta(request),
        payload={k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"},
        error=invalid_input(errors),
        role_of=director_role,
    )


def _match_action(
    request: AuthenticatedHttpRequest,
    slug: str,
    match_id: int,
    form_class: type[forms.SideForm],
    act: Callable[..., Any],
    done: str,
) -> HttpResponse:
    """Validate ``form_class`` for the match, then ``act(match, data)`` through the service
    it calls; back to the match grid, or the match page with the refusal shown (400)."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    form = form_class(request.POST, match=match)
    if not form.is_valid():
        _keep_refused(request, match, KINDS[form_class], form.errors)
    elif (
        call_service(
            form,
            act,
            match=match,
            data=form.cleaned_data,
            by=request.user,
            meta=request_meta(request),
        )
        is not None
    ):
        messages.success(request, done)
        return redirect("console:matches", tournament.slug, match.event.slug)
    key = {
        forms.FinalScoreForm: "score_form",
        forms.ForfeitForm: "forfeit_form",
        forms.PenaltyForm: "penalty_form",
        forms.CorrectionForm: "correction_form",
    }[form_class]
    return render(request, "console/match.html", _match_context(match, **{key: form}), status=400)


@login_required
@require_POST
def match_score(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The director enters the final score alone ("score only"), or corrects a decided
    match's score; the player who reached the length wins. An unlikely score is asked
    to be confirmed (a tick box appears with the warning)."""

    def act(*, match: Any, data: dict[str, Any], by: Any, meta: Any) -> Any:
        return match_final_score_enter(
            match=match,
            score1=data["score1"],
            score2=data["score2"],
            confirm=data["confirm"],
            cascade=data["cascade"],
            reason=data["reason"],
            by=by,
            meta=meta,
        )

    return _match_action(request, slug, match_id, forms.FinalScoreForm, act, "Result saved.")


@login_required
@require_POST
def match_forfeit_view(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A forfeit or a walkover: the chosen player goes through without (finishing) play."""

    def act(*, match: Any, data: dict[str, Any], by: Any, meta: Any) -> Any:
        service = match_walkover if data["decision"] == "walkover" else match_forfeit
        return service(match=match, winner=data["winner"], reason=data["reason"], by=by, meta=meta)

    return _match_action(request, slug, match_id, forms.ForfeitForm, act, "Decision recorded.")


@login_required
@require_POST
def match_penalty(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Late-arrival penalty points against one player (past half the length: a forfeit)."""

    def act(*, match: Any, data: dict[str, Any], by: Any, meta: Any) -> Any:
        return match_penalty_add(
            match=match,
            against=data["late"],
            points=data["points"],
            reason=data["reason"],
            by=by,
            meta=meta,
        )

    return _match_action(request, slug, match_id, forms.PenaltyForm, act, "Penalty applied.")


@login_required
@require_POST
def match_correct(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Change a decided match's winner, and its score with it (swapped unless given);
    refused past a started next match unless cascaded."""

    def act(*, match: Any, data: dict[str, Any], by: Any, meta: Any) -> Any:
        return match_correct_winner(
            match=match,
            winner=data["winner"],
            score=data["score"],
            confirm=data["confirm"],
            cascade=data["cascade"],
            reason=data["reason"],
            by=by,
            meta=meta,
        )

    return _match_action(request, slug, match_id, forms.CorrectionForm, act, "Winner corrected.")


@login_required
@require_POST
def match_games(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The director enters the match game by game; the rules engine checks every game."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    formset = forms.games_formset(match, request.POST)
    refusal = None
    if not formset.is_valid():
        errors: list[Any] = [dict(f.errors) for f in formset.forms if f.errors] or list(
            formset.non_form_errors()
        )
        _keep_refused(request, match, Submission.Kind.MATCH, {"games": errors})
    else:
        games = [
            GameResult(
                winner=int(row["winner"]),
                cube=row["cube"],
                result=row["result"],
                ended_by=row["ended_by"],
            )
            for row in formset.played()
        ]
        try:
            match_result_enter(
                match=match, games=games, by=request.user, meta=request_meta(request)
            )
        except (*REFUSALS, APIException, ValidationError) as exc:
            refusal = _service_error_message(exc)[1]
        else:
            messages.success(request, "Result saved.")
            return redirect("console:matches", tournament.slug, match.event.slug)
    context = _match_context(match, games_formset=formset)
    context["games_refusal"] = refusal
    return render(request, "console/match.html", context, status=400)


@login_required
@require_POST
def match_table(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Put the match at a table (board), or take it off its table."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    form = forms.TableForm(request.POST)
    if form.is_valid():
        table = form.cleaned_data["table"]
        done = call_service(form, match_table_set, match=match, table=table, by=request.user)
        if done is not None:
            name = f"{match.round}, match {match.slot + 1}"
            messages.success(
                request, f"{name} is at table {table}." if table else f"{name} has no table."
            )
            return redirect("console:matches", tournament.slug, match.event.slug)
    context = _match_context(match, table_form=form)
    return render(request, "console/match.html", context, status=400)


@login_required
@require_POST
def round_tables(
    request: AuthenticatedHttpRequest, slug: str, event_slug: str, round_id: int
) -> HttpResponse:
    """Number the tables of a round's ready matches, in bracket order, skipping those in use."""
    tournament = selectors.tournament_for(request.user, slug)
    event = selectors.event_of(tournament, event_slug)
    rnd = selectors.round_of(event, round_id)
    given = _refusal(request, round_tables_assign, round_=rnd, by=request.user)
    if given:
        tables = ", ".join(str(m.table) for m in given)
        messages.success(request, f"{rnd}: tables {tables} given, in bracket order.")
    elif given is not None:
        messages.info(request, f"{rnd}: every ready match already has a table.")
    return redirect("console:matches", tournament.slug, event.slug)
