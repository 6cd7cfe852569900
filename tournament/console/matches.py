"""The console's match pages: the grid, one match, and the director's result forms."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from core.http import request_meta
from matches import analysis_selectors
from matches.access import Actor, director_role
from matches.errors import REFUSALS, AppError, Invalid, invalid_input
from matches.models import Match, Submission
from matches.rules.errors import RulesError
from matches.selectors import device_syncs
from matches.services.analysis import analysis_rerun
from matches.services.idempotency import KEY_FIELD, key_sent
from matches.services.ledger import submission_reject
from tournament.console import forms, selectors
from tournament.console.base import (
    AuthenticatedHttpRequest,
    call_button_service,
    call_service,
    from_queue,
    is_htmx,
    queue_done,
    queue_refused,
    refusal_on_form,
    service_error_message,
)
from tournament.services.console_extras import (
    match_final_score_enter,
)
from tournament.services.results import (
    GameResult,
    match_award,
    match_penalty_add,
    match_reopen_decision,
    match_result_enter,
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


def _phones(match: Any) -> list[tuple[Any, Any]]:
    """Each player of the match with their phone's last sync (``None``: never synced)."""
    syncs = {s.entry_id: s for s in device_syncs(match_ids=[match.pk]).get(match.pk, [])}
    return [(e, syncs.get(e.pk)) for e in (match.entry1, match.entry2) if e is not None]


#: What the match page calls each BMAB mark (``Match.bmab_marks``), as its form does.
BMAB_LABELS = {
    "designated": gettext_lazy("Designated for BMAB"),
    "recorded": gettext_lazy("Recorded"),
    "clocked": gettext_lazy("On clocks"),
    "xg_pr": gettext_lazy("XG PR (reported)"),
}


def _bmab_marks(match: Any) -> list[dict[str, Any]]:
    """Who set each BMAB flag (a player by name) and when (a datetime, which the page
    shows on the tournament's clock; stored as an ISO string in UTC)."""
    players = {
        f"player {side}": entry.player.name
        for side, entry in ((1, match.entry1), (2, match.entry2))
        if entry is not None
    }
    marks = []
    for name, mark in (match.bmab_marks or {}).items():
        try:
            at = dt.datetime.fromisoformat(str(mark.get("at", "")))
        except ValueError:
            at = None
        marks.append(
            {
                "label": BMAB_LABELS.get(name, name),
                "by": players.get(mark.get("by", ""), mark.get("by", "")),
                "at": at,
                "reason": mark.get("reason", ""),
            }
        )
    return marks


def _match_context(match: Any, user: Any, **forms_given: Any) -> dict[str, Any]:
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
        "rerun_limits": analysis_selectors.rerun_limits(match_id=match.pk, user=user),
        "games": list(match.games.order_by("number", "id")),
        "phones": _phones(match),
        "bmab_marks": _bmab_marks(match),
        "score_form": pick(
            "score_form",
            not_started or decided,
            lambda: forms.FinalScoreForm(
                match=match, initial={"score1": match.score1, "score2": match.score2}
            ),
        ),
        "forfeit_form": pick("forfeit_form", not decided, lambda: forms.ForfeitForm(match=match)),
        "games_formset": pick("games_formset", not_started, lambda: forms.games_formset(match)),
        # The score and game-by-game forms carry a key each, generated with the page: a
        # form sent twice (a second tap, the device's offline queue) is recorded once.
        "score_key": uuid.uuid4(),
        "games_key": uuid.uuid4(),
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
    return render(request, "console/match.html", _match_context(match, request.user))


#: The kind of report each of the match page's forms makes.
KINDS: dict[type[django_forms.Form], str] = {
    forms.FinalScoreForm: Submission.Kind.SCORE,
    forms.ForfeitForm: Submission.Kind.FORFEIT,
    forms.PenaltyForm: Submission.Kind.RESOLVE,
    forms.CorrectionForm: Submission.Kind.RESOLVE,
}


def _form_key(request: HttpRequest) -> str:
    """The form's key (a bad one is left out here: the form's own refusal comes first)."""
    try:
        return key_sent(request.headers, request.POST)
    except Invalid:
        return ""


def _keep_refused(request: HttpRequest, match: Any, kind: str, errors: Any) -> AppError:
    """A director's entry the form refuses is a report too: stored as rejected (once, when
    it is sent again with its key); the refusal is returned.

    Its payload is the POST fields as sent (``form-0-cube`` ...): input the form could
    not read has no other shape. An entry the form reads and the service then refuses
    is stored by the service, in the shape of an accepted one."""
    error = invalid_input(errors)
    submission_reject(
        match_id=match.pk,
        kind=kind,
        actor=Actor(user=request.user),  # type: ignore[arg-type]
        meta=request_meta(request),
        payload={
            k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", KEY_FIELD)
        },
        error=error,
        role_of=director_role,
        idempotency_key=_form_key(request),
    )
    return error


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
    refusal: AppError | RulesError | ValidationError
    if not form.is_valid():
        refusal = _keep_refused(request, match, KINDS[form_class], form.errors)
    else:
        try:
            acted = act(
                match=match, data=form.cleaned_data, by=request.user, meta=request_meta(request)
            )
        except (*REFUSALS, ValidationError) as exc:
            refusal = exc
            refusal_on_form(form, exc)
        else:
            if from_queue(request):
                return queue_done(replayed=acted.replayed)
            messages.success(request, done)
            return redirect("console:matches", tournament.slug, match.event.slug)
    if from_queue(request):
        return queue_refused(refusal)
    key = {
        forms.FinalScoreForm: "score_form",
        forms.ForfeitForm: "forfeit_form",
        forms.PenaltyForm: "penalty_form",
        forms.CorrectionForm: "correction_form",
    }[form_class]
    return render(
        request,
        "console/match.html",
        _match_context(match, request.user, **{key: form}),
        status=400,
    )


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
            idempotency_key=key_sent(request.headers, request.POST),
        )

    return _match_action(request, slug, match_id, forms.FinalScoreForm, act, _("Result saved."))


@login_required
@require_POST
def match_forfeit_view(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A forfeit or a walkover: the chosen player goes through without (finishing) play."""

    def act(*, match: Any, data: dict[str, Any], by: Any, meta: Any) -> Any:
        decision = (
            Match.Decision.WALKOVER if data["decision"] == "walkover" else Match.Decision.FORFEIT
        )
        return match_award(
            match=match,
            winner=data["winner"],
            decision=decision,
            reason=data["reason"],
            by=by,
            meta=meta,
        )

    return _match_action(request, slug, match_id, forms.ForfeitForm, act, _("Decision recorded."))


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

    return _match_action(request, slug, match_id, forms.PenaltyForm, act, _("Penalty applied."))


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

    return _match_action(request, slug, match_id, forms.CorrectionForm, act, _("Winner corrected."))


@login_required
@require_POST
def match_games(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The director enters the match game by game; the rules engine checks every game."""
    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    formset = forms.games_formset(match, request.POST)
    refusal = None
    error: AppError | RulesError | ValidationError
    if not formset.is_valid():
        errors: list[Any] = [dict(f.errors) for f in formset.forms if f.errors] or list(
            formset.non_form_errors()
        )
        error = _keep_refused(request, match, Submission.Kind.MATCH, {"games": errors})
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
            entered = match_result_enter(
                match=match,
                games=games,
                by=request.user,
                meta=request_meta(request),
                idempotency_key=key_sent(request.headers, request.POST),
            )
        except (*REFUSALS, ValidationError) as exc:
            error = exc
            refusal = service_error_message(exc)[1]
        else:
            if from_queue(request):
                return queue_done(replayed=entered.replayed)
            messages.success(request, _("Result saved."))
            return redirect("console:matches", tournament.slug, match.event.slug)
    if from_queue(request):
        return queue_refused(error)
    context = _match_context(match, request.user, games_formset=formset)
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
            name = _("{round}, match {number}").format(round=match.round, number=match.slot + 1)
            messages.success(
                request,
                _("{name} is at table {table}.").format(name=name, table=table)
                if table
                else _("{name} has no table.").format(name=name),
            )
            return redirect("console:matches", tournament.slug, match.event.slug)
    context = _match_context(match, request.user, table_form=form)
    return render(request, "console/match.html", context, status=400)


@login_required
@require_POST
def match_bmab(request: AuthenticatedHttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The BMAB flags of a match (after its first game, designating needs a reason) and
    the XG PRs the director types in."""
    from matches.access import Actor
    from matches.services.bmab import match_bmab_set

    tournament = selectors.tournament_for(request.user, slug)
    match = selectors.match_of(tournament, match_id)
    post = request.POST
    xg: dict[str, str | None] = {}
    for name in ("xg_pr1", "xg_pr2"):
        raw = post.get(name, "").strip().replace(",", ".")
        current = getattr(match, name)
        if raw == "" and current is not None:
            xg[name] = None
        elif raw and (current is None or str(current) != raw):
            xg[name] = raw[:12]
    done = call_button_service(
        request,
        match_bmab_set,
        match_id=match.pk,
        actor=Actor(user=request.user),
        designated=post.get("designated") == "on",
        recorded=post.get("recorded") == "on",
        clocked=post.get("clocked") == "on",
        reason=post.get("reason", "")[:500],
        xg_pr=xg,
    )
    if done is not None:
        messages.success(
            request,
            _("{round}, match {number}: BMAB saved.").format(
                round=match.round, number=match.slot + 1
            ),
        )
    return redirect("console:match", tournament.slug, match.pk)


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
        messages.success(request, _("Reopened: the match is ready to be played."))
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
        rerun = analysis_rerun(match_id=match.pk, actor=Actor(user=request.user))
    except REFUSALS as exc:
        messages.error(request, service_error_message(exc)[1])
    else:
        messages.success(request, rerun.message())
    return redirect("console:match", tournament.slug, match.pk)
