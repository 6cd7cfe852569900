"""The console's match pages: the grid, one match, and the director's result forms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from matches import analysis_selectors
from matches.client_address import request_meta
from matches.errors import REFUSALS, invalid_input
from matches.models import Submission
from matches.services.access import Actor, director_role
from matches.services.analysis import analysis_rerun
from matches.services.ledger import submission_reject
from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_button_service,
    call_service,
    is_htmx,
    service_error_message,
)
from tournament.services.console_extras import (
    match_final_score_enter,
)
from tournament.services.results import (
    GameResult,
    match_forfeit,
    match_penalty_add,
    match_reopen_decision,
    match_result_enter,
    match_walkover,
    match_winner_correct,
)
from tournament.services.tables import match_table_set


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
    template = "console/_grid.html" if is_htmx(request) else "console/matches.html"
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
        "analysis": analysis_selectors.analysis_data(
            match, analysis_selectors.analysis_current(match.pk), visible=True
        ),
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
        "reopenable": decided and match.decision in ("forfeit", "walkover") and both,
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
    """A director's entry the form refuses is a report too: stored as rejected.

    Its payload is the POST fields as sent (``form-0-cube`` ...): input the form could
    not read has no other shape. An entry the form reads and the service then refuses
    is stored by the service, in the shape of an accepted one."""
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
        return match_winner_correct(
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
        except (*REFUSALS, ValidationError) as exc:
            refusal = service_error_message(exc)[1]
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
def match_reopen(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Take back a forfeit or walkover: the match is ready to play again, its winner out of
    the next round (refused once they have played on there)."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    done = call_button_service(
        request,
        match_reopen_decision,
        match=match,
        reason=request.POST.get("reason", "")[:300],
        by=request.user,
        meta=request_meta(request),
    )
    if done is not None:
        messages.success(request, "Reopened: the match is ready to be played.")
    return redirect("console:match", slug=slug, match_id=match.pk)


@login_required
@require_POST
def match_analysis_rerun(
    request: AuthenticatedHttpRequest, slug: str, match_id: int
) -> HttpResponse:
    """Run GNU Backgammon's analysis of the match's current file again (a new run)."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    try:
        analysis = analysis_rerun(match_id=match.pk, actor=Actor(user=request.user))
    except REFUSALS as exc:
        messages.error(request, service_error_message(exc)[1])
    else:
        messages.success(request, f"Analysis queued again (run {analysis.run}).")
    return redirect("console:match", tournament.slug, match.pk)
