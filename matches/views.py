"""Player pages (private link ``/r/<key>/``, ``/me/``) and the director's dispute queue and audit.

Thin views: forms read the input, ``matches.services`` decide and store, errors
are shown on the page with what was wrong and where (never a crash).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.http import declared_length, declares_too_much, request_meta
from matches import selectors
from matches.access import (
    Actor,
    EventFinished,
    NotAllowed,
    director_reader_role,
    entry_may_report,
    link_by_key,
    link_check_live,
)
from matches.api.report_throttle import link_rate_limited
from matches.audit_text import submission_sentence
from matches.errors import REFUSALS, Invalid, refusal_status, refusal_text
from matches.forms import DisputeForm, GameForm, RecordForm, ResolveForm
from matches.models import Match
from matches.services.confirmation import match_confirm, match_dispute, match_resolve
from matches.services.idempotency import KEY_FIELD, key_sent
from matches.services.ledger import submission_reject
from matches.services.records import file_too_large, max_file_bytes, record_upload
from matches.services.reporting import game_report
from tournament.models import Entry, Event, PlayerLink, User


class AuthenticatedHttpRequest(HttpRequest):
    """A request to a ``login_required`` view: its user is signed in."""

    user: User


def _actor(request: HttpRequest, entry: Entry) -> Actor:
    user = request.user if isinstance(request.user, User) else None  # not AnonymousUser
    return Actor(user=user, entry=entry)


def match_view(match: Match, side: int | None) -> dict[str, Any]:
    """What a page shows about a match, from one side's point of view (1 or 2) or neutrally."""
    games = selectors.match_games(match=match)
    state = selectors.match_state(match=match, games=games)
    crawford = selectors.match_crawford_game_number(match=match, games=games)
    me, them = (match.entry1, match.entry2) if side != 2 else (match.entry2, match.entry1)
    my_score, their_score = (
        (match.score1, match.score2) if side != 2 else (match.score2, match.score1)
    )
    return {
        "match": match,
        "games": games,
        "me": me,
        "them": them,
        "my_score": my_score,
        "their_score": their_score,
        "next_game": state.game_number,
        "is_over": state.is_over,
        "crawford_game": crawford,
        "crawford_next": crawford == state.game_number and not state.is_over,
        "side": side,
    }


def _entry_context(
    request: HttpRequest, link: PlayerLink, match: Match | None, **forms: Any
) -> dict[str, Any]:
    open_, waiting, played = selectors.link_overview(link=link)
    if match is None and open_:
        match = open_[0]
    context: dict[str, Any] = {
        "link": link,
        "player": link.player,
        "tournament": link.tournament,
        "key": link.key,
        "match": None,
        "others": [m for m in open_ if match is None or m.pk != match.pk],
        "waiting": waiting,
        "history": played,
        # A result confirmed a moment ago moves the bracket on after the commit: until
        # then the page says the next match is being placed (and reloads), rather than
        # "no match to play".
        "placing": any(
            m.advanced_at is None and not m.is_bye and m.event.format not in BY_ROUND_FORMATS
            for m in played
        ),
    }
    context["notes"] = _link_notes(link, open_, waiting, context["placing"])
    context["out"] = not open_ and not waiting and not context["placing"] and not context["notes"]
    if match is None:
        return context
    entry = _link_entry(link, match)
    side = 1 if match.entry1_id == entry.pk else 2
    context.update(match_view(match, side))
    context["entry"] = entry
    status = match.status
    can_play = status in (Match.Status.READY, Match.Status.PLAYING)
    context.update(
        can_report=can_play,
        can_confirm=status == Match.Status.REPORTED and match.reported_by_id != entry.pk,
        awaiting_opponent=status == Match.Status.REPORTED and match.reported_by_id == entry.pk,
        can_dispute=status in (Match.Status.PLAYING, Match.Status.REPORTED),
        game_form=forms.get("game_form")
        or GameForm(
            match=match,
            me=entry,
            crawford=context["crawford_next"],
            initial={"game_number": context["next_game"], "cube": 1},
        ),
        record_form=forms.get("record_form") or RecordForm(match=match),
        # Each form its own key (a report of another kind must not share it).
        idempotency_key=uuid.uuid4(),
        record_key=uuid.uuid4(),
        confirm_key=uuid.uuid4(),
        dispute_key=uuid.uuid4(),
        dispute_form=forms.get("dispute_form") or DisputeForm(),
    )
    return context


#: Formats whose next match is paired when the director starts a round, not placed by
#: a result.
BY_ROUND_FORMATS = (Event.Format.SWISS, Event.Format.ROUND_ROBIN)


def _link_notes(
    link: PlayerLink, open_: list[Match], waiting: list[Match], placing: bool
) -> list[str]:
    """What the player's page says of each event of theirs with no match to show: the
    draw not made yet, awaiting approval, the waiting list, the next round still to be
    paired. None once nothing is left for them (then: thank you for playing)."""
    busy = {m.event_id for m in (*open_, *waiting)}
    notes = []
    entries = (
        Entry.objects.filter(player_id=link.player_id, event__tournament_id=link.tournament_id)
        .select_related("event")
        .order_by("event__position", "event_id")
    )
    for entry in entries:
        event = entry.event
        if entry.event_id in busy or event.status == Event.Status.FINISHED:
            continue
        if entry.status == Entry.Status.PENDING:
            notes.append(
                _("Your sign-up for {event} awaits the director's approval.").format(
                    event=event.name
                )
            )
        elif entry.status == Entry.Status.WAITING:
            place = (
                Entry.objects.filter(event_id=event.pk, status=Entry.Status.WAITING)
                .filter(waiting_since__lt=entry.waiting_since)
                .count()
                + 1
            )
            notes.append(
                _("You are number {place} on the waiting list of {event}.").format(
                    place=place, event=event.name
                )
            )
        elif entry.status not in (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN):
            continue
        elif event.status == Event.Status.REGISTRATION:
            notes.append(
                _("{event} is not drawn yet: your first match shows here after the draw.").format(
                    event=event.name
                )
            )
        elif event.format in BY_ROUND_FORMATS:
            notes.append(
                _(
                    "Your next round in {event} is paired when the director starts it: "
                    "it shows here then."
                ).format(event=event.name)
            )
        elif not placing:
            notes.append(
                _("Your next match in {event} shows here once it is known.").format(
                    event=event.name
                )
            )
    return notes


def _link_entry(link: PlayerLink, match: Match) -> Entry:
    """The link's player's entry in ``match`` (one of its two players)."""
    entry = (
        match.entry1 if match.entry1 and match.entry1.player_id == link.player_id else match.entry2
    )
    assert entry is not None
    return entry


def _shown(link: PlayerLink, match_id: str | None) -> Match | None:
    """The open match the page was asked to show (``?match=``), if it is the player's."""
    if not match_id or not match_id.isdigit():
        return None
    open_, _done, _other = selectors.link_overview(link=link)
    return next((m for m in open_ if m.pk == int(match_id)), None)


def entry_page(request: HttpRequest, key: str) -> HttpResponse:
    """A player's private page for a tournament: their next match first (any event),
    the others open or waiting, and what they played; reporting the one shown. Once the
    player has nothing left to play, their results (matches and final places)."""
    link, own = link_by_key(key=key)
    if not own:
        return HttpResponseRedirect(reverse("matches:entry", args=[link.key]))
    try:
        link_check_live(link)
    except EventFinished:  # everything over: the tournament's page of their results
        return HttpResponseRedirect(reverse("link-results", args=[link.key]))
    except NotAllowed:
        undoable = Entry.objects.filter(
            player_id=link.player_id,
            event__tournament_id=link.tournament_id,
            withdrawn_by_player=True,
            event__status=Event.Status.REGISTRATION,
        )
        if undoable.exists():  # withdrawn by themselves before the draw: they may undo
            return HttpResponseRedirect(reverse("link-entries", args=[link.key]))
        raise
    match = _shown(link, request.GET.get("match"))
    return render(request, "matches/player_entry.html", _entry_context(request, link, match))


def _entry_match(link: PlayerLink, match_id: int) -> tuple[Entry, Match]:
    """The player's match ``match_id`` (404 for anyone else's) and their entry in it,
    refused (403) if that entry can no longer report."""
    match = next((m for m in selectors.link_matches(link=link) if m.pk == match_id), None)
    if match is None:
        raise Http404(_("No such match of yours."))
    entry = _link_entry(link, match)
    entry_may_report(entry, link)
    return entry, match


def _back(request: HttpRequest, link: PlayerLink, match_id: int | None = None) -> HttpResponse:
    """Back to the player's page after an action. If that action ended the player's last
    event, the page shows their results; if they have withdrawn from everything, the page
    is shown once more, read-only, to say so."""
    try:
        link_check_live(link)
    except EventFinished:
        pass  # the page shows the results now
    except NotAllowed:
        context = _entry_context(request, link, None)
        context.update(match=None, others=[], waiting=[], out=True)
        return render(request, "matches/player_entry.html", context)
    url = reverse("matches:entry", args=[link.key])
    return HttpResponseRedirect(f"{url}?match={match_id}" if match_id else url)


def _refused(
    request: HttpRequest, link: PlayerLink, match_id: int, exc: Exception, **forms: Any
) -> HttpResponse:
    match = next(m for m in selectors.link_matches(link=link) if m.pk == match_id)
    context = _entry_context(request, link, match, **forms)
    context["refusal"] = refusal_text(exc)
    return render(request, "matches/player_entry.html", context, status=refusal_status(exc))


def _store_invalid(
    request: HttpRequest, entry: Entry, match: Match, kind: str, form: Any
) -> Invalid:
    """A form that does not validate is a rejected report: stored like any other (once,
    when it is sent again with its key)."""
    fields = {k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", KEY_FIELD)}
    field, messages_ = next(iter(form.errors.items()))
    error = Invalid(
        f"{form.fields[field].label if field in form.fields else field}: {messages_[0]}",
        code="invalid",
        field=field,
    )
    submission_reject(
        match_id=match.pk,
        kind=kind,
        actor=_actor(request, entry),
        meta=request_meta(request),
        payload=fields,
        error=error,
        idempotency_key=_key_or_none(request),
    )
    return error


def _key_or_none(request: HttpRequest) -> str:
    """The request's key, or none when it cannot be one (the form's refusal comes first)."""
    try:
        return key_sent(request.headers, request.POST)
    except Invalid:
        return ""


def _crawford_form(request: HttpRequest, match: Match) -> bool:
    """Whether the form posted is the Crawford game's, which sends no cube (the field is
    disabled: it stays at 1). Also when it comes late, after that game was recorded (a
    page left open on the other phone): it is then a report of that game, the engine's
    to compare with the one recorded. A cube that is sent is the engine's to judge."""
    if "cube" in request.POST:
        return False
    try:
        number = int(request.POST.get("game_number", ""))
    except ValueError:
        return False
    games = selectors.match_games(match=match)
    return number == selectors.match_crawford_game_number(match=match, games=games)


@require_POST
@link_rate_limited
def entry_game(request: HttpRequest, key: str, match_id: int) -> HttpResponse:
    link, _entries = link_by_key(key=key)
    entry, match = _entry_match(link, match_id)
    form = GameForm(request.POST, match=match, crawford=_crawford_form(request, match), me=entry)
    if not form.is_valid():
        error = _store_invalid(request, entry, match, "game", form)
        return _refused(request, link, match_id, error, game_form=form)
    try:
        # The page's form carries a key of its own (a second tap, a resent form: nothing
        # recorded twice); a script may send the header instead.
        key = key_sent(request.headers, request.POST)
        recorded = game_report(
            match_id=match.pk,
            actor=_actor(request, entry),
            game=form.game(),
            meta=request_meta(request),
            idempotency_key=key,
        )
    except REFUSALS as exc:
        return _refused(request, link, match_id, exc, game_form=form)
    number = form.cleaned_data["game_number"]
    if recorded.replayed:
        messages.info(
            request,
            _("Game {number} was already recorded: it is counted once.").format(number=number),
        )
    else:
        messages.success(request, _("Game {number} recorded.").format(number=number))
    return _back(request, link, match.pk)


@require_POST
@link_rate_limited
def entry_record(request: HttpRequest, key: str, match_id: int) -> HttpResponse:
    link, _entries = link_by_key(key=key)
    entry, match = _entry_match(link, match_id)
    limit = max_file_bytes()
    if declares_too_much(request, limit):
        return _refused(request, link, match_id, file_too_large(declared_length(request)))
    form = RecordForm(request.POST, request.FILES, match=match)
    if not form.is_valid():
        return _refused(
            request, link, match_id, Invalid(_("Choose a match file.")), record_form=form
        )
    upload = form.cleaned_data["file"]
    if upload.size > limit:
        return _refused(request, link, match_id, file_too_large(upload.size), record_form=form)
    try:
        record_upload(
            match_id=match.pk,
            actor=_actor(request, entry),
            file_name=upload.name,
            data=upload.read(limit + 1),
            first_is=form.cleaned_data.get("first_is"),
            meta=request_meta(request),
            idempotency_key=key_sent(request.headers, request.POST),
        )
    except REFUSALS as exc:
        return _refused(request, link, match_id, exc, record_form=form)
    messages.success(request, _("The match file was accepted; your opponent confirms it."))
    return _back(request, link, match.pk)


@require_POST
@link_rate_limited
def entry_confirm(request: HttpRequest, key: str, match_id: int) -> HttpResponse:
    link, _entries = link_by_key(key=key)
    try:
        entry, match = _entry_match(link, match_id)
    except EventFinished:  # sent twice (back button, a second tap): the final is confirmed
        messages.info(request, _("This match is already confirmed, and the event is finished."))
        return _back(request, link)
    try:
        match_confirm(
            match_id=match.pk,
            actor=_actor(request, entry),
            meta=request_meta(request),
            idempotency_key=key_sent(request.headers, request.POST),
        )
    except REFUSALS as exc:
        return _refused(request, link, match_id, exc)
    messages.success(request, _("Result confirmed. Thank you!"))
    return _back(request, link, match.pk)


@require_POST
@link_rate_limited
def entry_dispute(request: HttpRequest, key: str, match_id: int) -> HttpResponse:
    link, _entries = link_by_key(key=key)
    entry, match = _entry_match(link, match_id)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        error = _store_invalid(request, entry, match, "dispute", form)
        return _refused(request, link, match_id, error, dispute_form=form)
    try:
        match_dispute(
            match_id=match.pk,
            actor=_actor(request, entry),
            reason=form.cleaned_data["reason"],
            meta=request_meta(request),
            idempotency_key=key_sent(request.headers, request.POST),
        )
    except REFUSALS as exc:
        return _refused(request, link, match_id, exc, dispute_form=form)
    messages.success(request, _("The match is with the director, who will settle it."))
    return _back(request, link, match.pk)


@login_required
def me(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A logged-in player's events and next matches, each with its private reporting page."""
    player = selectors.player_for_user(user=request.user)
    rows = []
    if player is not None:
        keys = dict(PlayerLink.objects.filter(player=player).values_list("tournament_id", "key"))
        for entry in selectors.player_entries(player=player):
            match = selectors.entry_next_match(entry=entry)
            rows.append(
                {
                    "entry": entry,
                    "key": keys.get(entry.event.tournament_id, entry.report_key),
                    "match": match,
                    "view": match_view(match, 1 if match.entry1_id == entry.pk else 2)
                    if match
                    else None,
                }
            )
    return render(request, "matches/player_me.html", {"player": player, "rows": rows})


@login_required
def director_disputes(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Disputed matches, then results waiting for confirmation, in the user's tournaments."""
    user = request.user
    if not (user.is_staff or user.is_superuser or user.directed_tournaments.exists()):
        raise PermissionDenied(_("Only tournament directors see the dispute queue."))
    queue = selectors.dispute_queue(user=user)
    return render(request, "matches/director_disputes.html", {"queue": queue})


@login_required
def director_audit(request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
    """Every report about a match, the games (voided ones too), and the director's decision."""
    match = get_object_or_404(
        Match.objects.select_related(
            "event__tournament", "round", "entry1__player", "entry2__player", "reported_by"
        ),
        pk=match_id,
    )
    actor = Actor(user=request.user)
    director_reader_role(match=match, actor=actor)
    form = ResolveForm(match=match)
    refusal = None
    status = 200
    if request.method == "POST":
        form = ResolveForm(request.POST, match=match)
        if form.is_valid():
            data = form.cleaned_data
            try:
                match_resolve(
                    match_id=match.pk,
                    actor=actor,
                    meta=request_meta(request),
                    note=data.get("note", ""),
                    games=data.get("game_inputs") if data["decision"] == "enter" else None,
                    from_version=data.get("submission") if data["decision"] == "adopt" else None,
                )
            except REFUSALS as exc:
                refusal, status = refusal_text(exc), refusal_status(exc)
            else:
                messages.success(request, _("Decision recorded."))
                return HttpResponseRedirect(reverse("matches:audit", args=[match.pk]))
        else:
            status = 400
    all_games = list(match.games.order_by("voided", "number").select_related("submission"))
    context = {
        **match_view(match, None),
        "all_games": all_games,
        "submissions": [_with_sentence(match, s) for s in selectors.match_submissions(match=match)],
        "form": form,
        "refusal": refusal,
    }
    return render(request, "matches/director_audit.html", context, status=status)


def _with_sentence(match: Match, submission: Any) -> Any:
    """``submission`` with the audit's ``sentence`` saying it in words."""
    submission.sentence = submission_sentence(match, submission)
    return submission
