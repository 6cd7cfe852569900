"""Players' own sign-up (``/t/<slug>/<event>/signup/``) and their entries on their link
(``/r/<key>/entries/``: status, place on the waiting list, withdraw before the draw).

The sign-up form is a public, unauthenticated POST: CSRF as everywhere, a limit per
client address (``SIGNUP_RATE``, counted like the login throttle counts addresses), a
honeypot field that people never see, and every refusal shown at its field. It only
asks: the address typed gets a mail whose link (``/signup/confirm/<token>/``) takes the
sign-up (``signup_ask``, ``signup_confirm``); the answer is the same whether or not the
address is in the event already.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from matches.access import link_by_key
from matches.api.report_throttle import link_rate_limited
from matches.errors import AppError, Invalid
from tournament import page_cache
from tournament.models import Entry, Event, PlayerLink, SignupRequest
from tournament.services.signup import (
    CONFIRM_FOR,
    SIGNED,
    SignedUp,
    entry_signup_from_link,
    entry_undo_by_player,
    entry_withdraw_by_player,
    signup_ask,
    signup_confirm,
    signup_events_for_link,
    signup_open_problem,
)
from tournament.services.waiting_list import waiting_position
from tournament.web.language import language_asked_for
from tournament.web.signup_rate import signup_wait

#: The honeypot: a field hidden from people (CSS and ``aria-hidden``); bots fill it.
HONEYPOT = "website"


class SignupForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), max_length=120)
    email = forms.EmailField(
        label=gettext_lazy("Email"),
        max_length=254,
        help_text=gettext_lazy(
            "We send a link here to confirm your sign-up; then your private link."
        ),
    )
    club = forms.CharField(label=gettext_lazy("Club"), max_length=120, required=False)
    country = forms.CharField(
        label=gettext_lazy("Country"),
        max_length=2,
        required=False,
        help_text=gettext_lazy("Two-letter code, e.g. DE, FR, US."),
    )
    website = forms.CharField(required=False, label=gettext_lazy("Leave this empty"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs.update(autocomplete="name")
        self.fields["email"].widget.attrs.update(autocomplete="email")
        self.fields["country"].widget.attrs.update(autocomplete="country", size="2")
        self.fields[HONEYPOT].widget.attrs.update(tabindex="-1", autocomplete="off")


def signups_open(events: Iterable[Event], now: datetime | None = None) -> frozenset[int]:
    """The ids of ``events`` that take a sign-up now: their pages offer "Sign up"."""
    now = now or timezone.now()
    return frozenset(e.pk for e in events if signup_open_problem(e, now) is None)


def signups_close_at(events: Iterable[Event]) -> dict[str, Any]:
    """For a cached page that offers sign-ups: when the first of them closes by its
    deadline (epoch seconds) and which event it is; ``signups_stale`` reads it back."""
    now = timezone.now()
    closing = [
        (e.signup_deadline.timestamp(), e.pk, e.tournament_id)
        for e in events
        if e.signup_deadline is not None and signup_open_problem(e, now) is None
    ]
    return {"signup_closes": min(closing)} if closing else {}


def signups_stale(page: Any) -> bool:
    """Whether cached ``page`` still offers a sign-up whose deadline has passed (no query:
    a deadline passes with the clock, not with a write). If so its pages are marked stale,
    and the caller fetches the page again, built anew."""
    closes = page.get("signup_closes") if page else None
    if not closes or time.time() < closes[0]:
        return False
    _closes_at, event_id, tournament_id = closes
    page_cache.invalidate_event(event_id, tournament_id)
    return True


def _event(slug: str, event_slug: str) -> Event:
    event = (
        Event.objects.select_related("tournament")
        .filter(tournament__slug=slug, slug=event_slug, tournament__is_public=True)
        .first()
    )
    if event is None:
        raise Http404(_("No such event."))
    return event


def _room(event: Event) -> dict[str, Any]:
    taken = event.entries.filter(status__in=(Entry.Status.REGISTERED, Entry.Status.CHECKED_IN))
    waiting = event.entries.filter(status=Entry.Status.WAITING).count()
    count = taken.count()
    full = event.entry_cap is not None and count >= event.entry_cap
    return {"taken": count, "waiting": waiting, "full": full}


@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, slug: str, event_slug: str) -> HttpResponse:
    """The sign-up form of one event, and the sign-up itself."""
    event = _event(slug, event_slug)
    context: dict[str, Any] = {"event": event, "t": event.tournament, "closed": None}
    context["closed"] = signup_open_problem(event)
    if request.method == "GET" or context["closed"]:
        context.update(form=SignupForm(), **_room(event))
        return render(
            request, "public/signup.html", context, status=200 if request.method == "GET" else 400
        )
    form = SignupForm(request.POST)
    wait = signup_wait(request)
    if wait is not None:
        form.is_valid()
        form.add_error(
            None,
            _("Too many sign-ups from your address: try again in {wait_60_1} minutes.").format(
                wait_60_1=wait // 60 + 1
            ),
        )
        context.update(form=form, **_room(event))
        response = render(request, "public/signup.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    if form.is_valid() and form.cleaned_data[HONEYPOT]:
        form.add_error(None, _("This sign-up looks automatic: leave the last field empty."))
    elif form.is_valid():
        data = form.cleaned_data
        try:
            signup_ask(
                event=event,
                name=data["name"],
                email=data["email"],
                club=data["club"],
                country=data["country"],
                language=translation.get_language() or "",
            )
        except (Invalid, AppError) as err:
            field = err.detail.get("field")
            form.add_error(field if field in form.fields else None, err.message)
            if err.status == 429:
                context.update(form=form, **_room(event))
                return render(request, "public/signup.html", context, status=429)
        else:
            return render(
                request,
                "public/signup_check_mail.html",
                {
                    "event": event,
                    "t": event.tournament,
                    "email": data["email"],
                    "hours": int(CONFIRM_FOR.total_seconds() // 3600),
                },
            )
    context.update(form=form, **_room(event))
    return render(request, "public/signup.html", context, status=400)


def _done(request: HttpRequest, done: SignedUp, contact: str) -> HttpResponse:
    event = done.entry.event
    return render(
        request,
        "public/signup_done.html",
        {
            "event": event,
            "t": event.tournament,
            "known": done.known,  # someone's record: nothing of it is shown
            "entry": done.entry,
            "link": None if done.known else done.link,
            "position": done.position,
            "contact": contact,  # as typed: the record's own may be empty
            "link_url": ""
            if done.known
            else request.build_absolute_uri(reverse("matches:entry", args=[done.link.key])),
        },
    )


@never_cache
@require_http_methods(["GET", "POST"])
def signup_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the sign-up's mail: a button that takes the sign-up (a POST, so that a
    mail scanner opening the link confirms nothing)."""
    asked = (
        SignupRequest.objects.select_related("event__tournament")
        .filter(token=token, kind=SignupRequest.Kind.CONFIRM, event__tournament__is_public=True)
        .first()
    )
    if asked is None:
        raise Http404(_("This confirmation link is not valid: sign up again."))
    context: dict[str, Any] = {"asked": asked, "event": asked.event, "t": asked.event.tournament}
    if request.method == "POST":
        try:
            done = signup_confirm(token=token, language=language_asked_for(request))
        except (Invalid, AppError) as err:
            context["refusal"] = err.message
            return render(request, "public/signup_confirm.html", context, status=400)
        return _done(request, done, asked.email)
    return render(request, "public/signup_confirm.html", context)


def _link_entries(link: PlayerLink) -> list[dict[str, Any]]:
    entries = (
        Entry.objects.filter(event__tournament_id=link.tournament_id, player_id=link.player_id)
        .select_related("event")
        .order_by("event__position", "event_id")
    )
    drawn = Event.Status.REGISTRATION
    return [
        {
            "entry": e,
            "position": waiting_position(e),
            "can_withdraw": e.status in SIGNED and e.event.status == drawn,
            "can_undo": e.status == Entry.Status.WITHDRAWN
            and e.withdrawn_by_player
            and e.event.status == drawn,
        }
        for e in entries
    ]


def _entries_context(link: PlayerLink) -> dict[str, Any]:
    rows = _link_entries(link)
    active = any(r["entry"].status != Entry.Status.WITHDRAWN for r in rows)
    return {
        "link": link,
        "t": link.tournament,
        "rows": rows,
        "active": active,
        "open_events": signup_events_for_link(link),
    }


def _link_row(link: PlayerLink, entry_id: int) -> dict[str, Any]:
    row = next((r for r in _link_entries(link) if r["entry"].pk == entry_id), None)
    if row is None:
        raise Http404(_("No such entry of yours."))
    return row


@never_cache
def link_entries(request: HttpRequest, key: str) -> HttpResponse:
    """The player's entries in the tournament: status, waiting-list place, withdraw (and
    take it back before the draw), and the other events they may sign up for."""
    link, own = link_by_key(key=key)
    if not own:
        return HttpResponseRedirect(reverse("link-entries", args=[link.key]))
    context = _entries_context(link)
    done = request.GET.get("done", "")
    context["done"] = done if done in DONE_TEXTS else ""
    context["done_text"] = DONE_TEXTS.get(done, "")
    return render(request, "public/link_entries.html", context)


#: What the entries page says after an action (``?done=``).
DONE_TEXTS = {
    "withdrawn": gettext_lazy("You are withdrawn. Until the draw you can take it back below."),
    "back": gettext_lazy("Your withdrawal is taken back."),
    "signed-up": gettext_lazy("You are signed up: see the event below."),
}


@never_cache
@require_http_methods(["GET", "POST"])
@link_rate_limited
def link_entry_withdraw(request: HttpRequest, key: str, entry_id: int) -> HttpResponse:
    """The player withdraws one entry before its draw (the first waiting moves up): first
    a page that asks them to confirm, then the withdrawal (``confirm``)."""
    link, own = link_by_key(key=key)
    if not own:
        return HttpResponseRedirect(reverse("link-entry-withdraw", args=[link.key, entry_id]))
    row = _link_row(link, entry_id)
    entry = row["entry"]
    if not row["can_withdraw"]:
        return render(
            request,
            "public/link_entries.html",
            {
                **_entries_context(link),
                "refusal": _("{event} is drawn: ask the director to withdraw you.").format(
                    event=entry.event.name
                )
                if entry.status in SIGNED
                else _("You are already out of {event}.").format(event=entry.event.name),
            },
            status=400,
        )
    if request.method == "GET" or not request.POST.get("confirm"):
        return render(
            request,
            "public/link_withdraw_confirm.html",
            {"link": link, "t": link.tournament, "entry": entry, "row": row},
        )
    try:
        entry_withdraw_by_player(link=link, entry=entry)
    except Invalid as err:
        return _entries_refused(request, link, err.message)
    return _entries_done(link, "withdrawn")


def _entries_refused(request: HttpRequest, link: PlayerLink, message: str) -> HttpResponse:
    """The link's entries page again, with why the player's action was refused (400)."""
    return render(
        request,
        "public/link_entries.html",
        {**_entries_context(link), "refusal": message},
        status=400,
    )


def _entries_done(link: PlayerLink, done: str) -> HttpResponse:
    """Back to the link's entries page, which says what was done (``?done=``)."""
    return HttpResponseRedirect(reverse("link-entries", args=[link.key]) + f"?done={done}")


@require_POST
@link_rate_limited
def link_entry_undo(request: HttpRequest, key: str, entry_id: int) -> HttpResponse:
    """The player takes back their own withdrawal, while the event is not drawn."""
    link, _entries = link_by_key(key=key)
    row = _link_row(link, entry_id)
    try:
        entry_undo_by_player(link=link, entry=row["entry"])
    except Invalid as err:
        return _entries_refused(request, link, err.message)
    return _entries_done(link, "back")


@require_POST
@link_rate_limited
def link_signup(request: HttpRequest, key: str) -> HttpResponse:
    """The player signs up for another open event of the tournament from their link."""
    link, _entries = link_by_key(key=key)
    raw = request.POST.get("event", "")
    event = (
        Event.objects.filter(pk=int(raw), tournament_id=link.tournament_id).first()
        if raw.isdigit() and len(raw) < 12
        else None
    )
    if event is None:
        return _entries_refused(request, link, _("Choose an event of this tournament."))
    try:
        entry_signup_from_link(link=link, event=event)
    except Invalid as err:
        return _entries_refused(request, link, err.message)
    return _entries_done(link, "signed-up")
